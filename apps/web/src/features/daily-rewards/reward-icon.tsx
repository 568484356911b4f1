import type { RewardIcon as RewardIconKind } from '@kickback/common/http/daily-rewards';
import { CurrencyIcon } from '../../components/ui/currency-icon';

/** The currency icon of a reward type (docs/product.md#site-constants-and-limits): 0 a chip, 1 a gem, 2 a coin, 3–5 a dollar. */
export function RewardIcon({ icon, size = 18 }: { icon: RewardIconKind; size?: number }) {
  if (icon !== 'chip') return <CurrencyIcon unit={icon} size={size} />;
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" role="img" aria-label="chips" className="kb-currency-icon">
      <circle cx="12" cy="12" r="10.5" fill="#e5484d" />
      <circle cx="12" cy="12" r="10.5" fill="none" stroke="#fff" strokeWidth="3" strokeDasharray="4.1 4.15" />
      <circle cx="12" cy="12" r="6.2" fill="#b3262b" stroke="#fff" strokeWidth="1.2" />
      <path d="M12 8.6l1 2.1 2.3.3-1.7 1.6.4 2.3-2-1.1-2 1.1.4-2.3-1.7-1.6 2.3-.3z" fill="#fff" />
    </svg>
  );
}

/**
 * Number formats of the web app. Points, gems and prizes all go through ONE formatter,
 * `formatAmount` (packages/common/src/money.ts): exactly 2 decimals with thousands separators, so
 * the header, the store, the games and My activity show the same "250.50".
 */
import { formatAmount } from '@kickback/common/money';

export { formatAmount };

/** Wagered amounts: whole dollars (a wager is not a balance). */
export function formatWhole(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** A prize or payout with its unit: dollars as `$14.27`, anything else as `1,500.00 points`. */
export function formatPrize(amount: number | null, unit: string | null): string {
  if (amount === null) return '—';
  if (unit === 'USD') return `$${formatAmount(amount)}`;
  return `${formatAmount(amount)} ${unit ?? ''}`.trim();
}

/** How the hunt shows money and multipliers: `$1,234.50`, `-$12.00`, `12.34x`, `—` for none. */
import { formatAmount } from '../../lib/format';

export function money(value: number): string {
  return `${value < 0 ? '-' : ''}$${formatAmount(Math.abs(value))}`;
}

export function signedMoney(value: number): string {
  return value > 0 ? `+${money(value)}` : money(value);
}

export function multiplier(value: number | null): string {
  return value === null ? '—' : `${formatAmount(value)}x`;
}

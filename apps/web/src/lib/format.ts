/** Points and balances: up to 2 decimals (spec part 1 §9). */
export function formatPoints(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

/** Rewards, winnings, prizes: always 2 decimals. */
export function formatAmount(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Wagered amounts: whole dollars. */
export function formatWhole(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** A prize or payout with its unit: dollars as `$14.27`, anything else as `1,500 points`. */
export function formatPrize(amount: number | null, unit: string | null): string {
  if (amount === null) return '—';
  if (unit === 'USD') return `$${formatAmount(amount)}`;
  return `${formatPoints(amount)} ${unit ?? ''}`.trim();
}

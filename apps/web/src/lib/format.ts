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

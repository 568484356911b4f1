/**
 * The bonus hunt's figures, exact to the cent: every amount is integer hundredths (bigint) and
 * every multiplier is integer hundredths of "x" (1234n is 12.34x). Pure, so the server, the web
 * and the property test share one definition.
 *
 * - total cost: the start cost plus what each bonus cost on its own (0 when the start cost paid it);
 * - won: the payouts of the opened bonuses; profit: won − total cost (negative is a loss);
 * - a bonus's multiplier: payout ÷ bet, rounded half up to 0.01x;
 * - best and worst: the highest and lowest multiplier opened so far;
 * - running average: won ÷ the bets of the opened bonuses (weighted by bet), half up;
 * - break-even: the average multiplier the unopened bonuses still need, (total cost − won) ÷ their
 *   bets, rounded UP so that paying it breaks even; 0 once in profit; null when none is left.
 */

export interface HuntBonusFigures {
  /** Bet size in hundredths, above 0. */
  betCents: bigint;
  /** What this bonus cost beyond the start cost, in hundredths (0 or more). */
  costCents: bigint;
  /** The payout once opened (hundredths, 0 or more); null while unopened. */
  payoutCents: bigint | null;
}

export interface HuntFigures {
  totalCostCents: bigint;
  wonCents: bigint;
  profitCents: bigint;
  openedCount: number;
  unopenedCount: number;
  /** Sum of the unopened bonuses' bets. */
  remainingBetCents: bigint;
  /** Hundredths of x; null when no bonus is left unopened. */
  breakEvenX: bigint | null;
  /** Hundredths of x; null until a bonus is opened. */
  bestX: bigint | null;
  worstX: bigint | null;
  averageX: bigint | null;
}

/** n ÷ d rounded half up, for n ≥ 0 and d > 0. */
export function divHalfUp(n: bigint, d: bigint): bigint {
  if (d <= 0n || n < 0n) throw new RangeError('divHalfUp needs n ≥ 0 and d > 0');
  return (2n * n + d) / (2n * d);
}

/** n ÷ d rounded up, for n ≥ 0 and d > 0. */
export function divCeil(n: bigint, d: bigint): bigint {
  if (d <= 0n || n < 0n) throw new RangeError('divCeil needs n ≥ 0 and d > 0');
  return (n + d - 1n) / d;
}

/** payout ÷ bet in hundredths of x, half up. */
export function multiplierX(payoutCents: bigint, betCents: bigint): bigint {
  return divHalfUp(payoutCents * 100n, betCents);
}

export function huntFigures(startCostCents: bigint, bonuses: readonly HuntBonusFigures[]): HuntFigures {
  let totalCost = startCostCents;
  let won = 0n;
  let openedBet = 0n;
  let remainingBet = 0n;
  let opened = 0;
  let best: bigint | null = null;
  let worst: bigint | null = null;
  for (const b of bonuses) {
    if (b.betCents <= 0n) throw new RangeError('A bet must be above 0');
    totalCost += b.costCents;
    if (b.payoutCents === null) {
      remainingBet += b.betCents;
      continue;
    }
    opened += 1;
    won += b.payoutCents;
    openedBet += b.betCents;
    const x = multiplierX(b.payoutCents, b.betCents);
    if (best === null || x > best) best = x;
    if (worst === null || x < worst) worst = x;
  }
  const needed = totalCost - won;
  return {
    totalCostCents: totalCost,
    wonCents: won,
    profitCents: won - totalCost,
    openedCount: opened,
    unopenedCount: bonuses.length - opened,
    remainingBetCents: remainingBet,
    breakEvenX: remainingBet === 0n ? null : needed <= 0n ? 0n : divCeil(needed * 100n, remainingBet),
    bestX: best,
    worstX: worst,
    averageX: opened === 0 ? null : divHalfUp(won * 100n, openedBet),
  };
}

/** 1234n → "12.34x". */
export function xToText(hundredths: bigint): string {
  const units = hundredths / 100n;
  const frac = (hundredths % 100n).toString().padStart(2, '0');
  return `${units}.${frac}x`;
}

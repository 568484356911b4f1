/**
 * Property test over random hunts (a seeded generator: fast-check is not a dependency). Each
 * figure is checked against its definition by another route: sums recomputed, multipliers
 * compared by cross-multiplication instead of division, the roundings bounded exactly.
 */
import { describe, expect, it } from 'vitest';
import { divCeil, divHalfUp, huntFigures, multiplierX, xToText, type HuntBonusFigures } from './arithmetic';

/** mulberry32: small, seeded, reproducible. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomHunt(next: () => number) {
  const int = (max: number) => Math.floor(next() * (max + 1));
  const cents = () => BigInt(int(next() < 0.1 ? 100 : next() < 0.5 ? 10_000 : 5_000_000));
  const start = cents();
  const bonuses: HuntBonusFigures[] = Array.from({ length: int(40) }, () => ({
    betCents: BigInt(1 + int(next() < 0.3 ? 99 : 100_000)),
    costCents: next() < 0.7 ? 0n : cents(),
    payoutCents: next() < 0.5 ? null : next() < 0.15 ? 0n : cents(),
  }));
  return { start, bonuses };
}

const RUNS = 2000;

describe('hunt arithmetic over random hunts', () => {
  it('totals, break-even, best, worst and average follow their definitions, exactly to the cent', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const { start, bonuses } = randomHunt(rng(seed));
      const f = huntFigures(start, bonuses);
      const opened = bonuses.filter((b) => b.payoutCents !== null);
      const unopened = bonuses.filter((b) => b.payoutCents === null);
      const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
      const ctx = `seed ${seed}`;

      const cost = start + sum(bonuses.map((b) => b.costCents));
      const won = sum(opened.map((b) => b.payoutCents!));
      expect(f.totalCostCents, ctx).toBe(cost);
      expect(f.wonCents, ctx).toBe(won);
      expect(f.profitCents, ctx).toBe(won - cost);
      expect(f.openedCount + f.unopenedCount, ctx).toBe(bonuses.length);
      expect(f.remainingBetCents, ctx).toBe(sum(unopened.map((b) => b.betCents)));

      // Break-even: the smallest 0.01x at which the unopened bets pay back what is still missing.
      const remaining = f.remainingBetCents;
      if (unopened.length === 0) expect(f.breakEvenX, ctx).toBeNull();
      else if (won >= cost) expect(f.breakEvenX, ctx).toBe(0n);
      else {
        const be = f.breakEvenX!;
        const missing = (cost - won) * 100n;
        expect(be * remaining >= missing, ctx).toBe(true);
        expect((be - 1n) * remaining < missing, ctx).toBe(true);
      }

      if (opened.length === 0) {
        expect([f.bestX, f.worstX, f.averageX], ctx).toEqual([null, null, null]);
        continue;
      }
      // Best and worst: the bonus with the highest (lowest) payout/bet, found by cross-multiplying.
      const byRatio = [...opened].sort((a, b) => {
        const l = a.payoutCents! * b.betCents;
        const r = b.payoutCents! * a.betCents;
        return l < r ? -1 : l > r ? 1 : 0;
      });
      const lo = byRatio[0]!;
      const hi = byRatio[byRatio.length - 1]!;
      expect(f.bestX, ctx).toBe(multiplierX(hi.payoutCents!, hi.betCents));
      expect(f.worstX, ctx).toBe(multiplierX(lo.payoutCents!, lo.betCents));
      expect(f.worstX! <= f.bestX!, ctx).toBe(true);

      // Average (weighted by bet), half up: within half a hundredth of won/bet, and between worst and best.
      const openedBet = sum(opened.map((b) => b.betCents));
      const diff = f.averageX! * openedBet - won * 100n; // in hundredths·bet
      expect(2n * diff <= openedBet && -2n * diff < openedBet, ctx).toBe(true);
      expect(f.averageX! >= f.worstX! - 1n && f.averageX! <= f.bestX! + 1n, ctx).toBe(true);
    }
  });

  it('the order bonuses were added in does not change the figures', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const { start, bonuses } = randomHunt(next);
      const shuffled = [...bonuses].sort(() => next() - 0.5);
      expect(huntFigures(start, shuffled)).toEqual(huntFigures(start, bonuses));
    }
  });

  it('rounds half up and up where documented', () => {
    expect(divHalfUp(5n, 2n)).toBe(3n);
    expect(divHalfUp(4n, 3n)).toBe(1n);
    expect(divCeil(4n, 3n)).toBe(2n);
    expect(divCeil(6n, 3n)).toBe(2n);
    // 1.00 bet, 0.125 can't exist; 3 cents on 8 cents' bet = 0.375x → 0.38x.
    expect(multiplierX(3n, 8n)).toBe(38n);
    expect(xToText(1234n)).toBe('12.34x');
    expect(xToText(5n)).toBe('0.05x');
    // A worked hunt: cost 100.00, bets 1.00 and 0.50, one opened at 20.00.
    const f = huntFigures(10_000n, [
      { betCents: 100n, costCents: 0n, payoutCents: 2_000n },
      { betCents: 50n, costCents: 0n, payoutCents: null },
    ]);
    expect(f.profitCents).toBe(-8_000n);
    expect(f.breakEvenX).toBe(16_000n); // 80.00 / 0.50 = 160x
    expect([f.bestX, f.worstX, f.averageX]).toEqual([2_000n, 2_000n, 2_000n]);
  });

  it('refuses a bet of 0', () => {
    expect(() => huntFigures(0n, [{ betCents: 0n, costCents: 0n, payoutCents: null }])).toThrow(RangeError);
  });
});

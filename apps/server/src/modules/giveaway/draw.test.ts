/**
 * The draw procedure: the shared code (packages/common/giveaway/draw.ts) against an independent
 * implementation of docs/features/giveaway.md#how-a-draw-is-verified, subLuck weighting checked
 * statistically, and the draw's sensitivity to seed and list.
 */
import { describe, expect, it } from 'vitest';
import { drawWinners, snapshotHashOf, type DrawEntry } from '@kickback/common/giveaway/draw';
import { independentDraw, independentSnapshotHash, sha256Hex } from '../../../test/independent-draw';
import { nodeDrawCrypto } from '../../lib/draw-crypto';

const entries = (weights: number[]): DrawEntry[] =>
  weights.map((weight, i) => ({ kickUserId: String(1000 + i * 7), username: `chatter${i}`, weight }));

describe('the draw procedure', () => {
  it('agrees with an independent implementation on every seed, list and winner count', async () => {
    for (let s = 0; s < 200; s++) {
      const seed = sha256Hex(`seed-${s}`);
      const list = entries(Array.from({ length: 1 + (s % 23) }, (_, i) => 1 + ((s + i) % 5)));
      const count = 1 + (s % 4);
      expect(await snapshotHashOf(nodeDrawCrypto, list)).toBe(independentSnapshotHash(list));
      expect(await drawWinners(nodeDrawCrypto, seed, list, count)).toEqual(independentDraw(seed, list, count));
    }
  });

  it('does not depend on the order the list arrives in', async () => {
    const list = entries([1, 3, 1, 5, 2, 1]);
    const seed = sha256Hex('order');
    const reversed = [...list].reverse();
    expect(await snapshotHashOf(nodeDrawCrypto, reversed)).toBe(await snapshotHashOf(nodeDrawCrypto, list));
    expect(await drawWinners(nodeDrawCrypto, seed, reversed, 3)).toEqual(
      await drawWinners(nodeDrawCrypto, seed, list, 3),
    );
  });

  it('a changed seed or a changed list gives a different result', async () => {
    const list = entries(Array(50).fill(1));
    let seedChanged = 0;
    let listChanged = 0;
    for (let s = 0; s < 20; s++) {
      const seed = sha256Hex(`s${s}`);
      const base = await drawWinners(nodeDrawCrypto, seed, list, 3);
      if ((await drawWinners(nodeDrawCrypto, sha256Hex(`t${s}`), list, 3)).join() !== base.join()) seedChanged++;
      const renamed = list.map((e, i) => (i === 10 ? { ...e, username: 'someone-else' } : e));
      if ((await drawWinners(nodeDrawCrypto, seed, renamed, 3)).join() !== base.join()) listChanged++;
    }
    // Three of fifty in order: two different inputs agree with chance about 1 in 117,600.
    expect(seedChanged).toBe(20);
    expect(listChanged).toBe(20);
    const list2 = entries([1, 1]);
    expect(await snapshotHashOf(nodeDrawCrypto, list2)).not.toBe(
      await snapshotHashOf(nodeDrawCrypto, [...list2, { kickUserId: '9', username: 'x', weight: 1 }]),
    );
  });

  it('several winners are distinct, and never more than the list holds', async () => {
    const list = entries([1, 5, 1]);
    const winners = await drawWinners(nodeDrawCrypto, sha256Hex('multi'), list, 10);
    expect(winners).toHaveLength(3);
    expect(new Set(winners).size).toBe(3);
  });

  it('weights win in proportion: chi-square over 12,000 seeded draws (subLuck 3 for two subscribers)', async () => {
    const weights = [1, 3, 1, 3, 1];
    const list = entries(weights);
    const total = weights.reduce((a, b) => a + b, 0);
    const wins = new Map<string, number>();
    const draws = 12_000;
    for (let s = 0; s < draws; s++) {
      const [w] = await drawWinners(nodeDrawCrypto, sha256Hex(`chi-${s}`), list, 1);
      wins.set(w!, (wins.get(w!) ?? 0) + 1);
    }
    let chi2 = 0;
    for (const [i, e] of list.entries()) {
      const expected = (draws * weights[i]!) / total;
      chi2 += ((wins.get(e.kickUserId) ?? 0) - expected) ** 2 / expected;
    }
    // 4 degrees of freedom: 18.47 is the 0.1% critical value. The seeds are fixed, so this is not
    // flaky: it either passes every time or the weighting is wrong.
    expect(chi2).toBeLessThan(18.47);
    // And the other way: without the weights (all 1) the same counts would be far off.
    let chi2Unweighted = 0;
    for (const e of list) {
      const expected = draws / list.length;
      chi2Unweighted += ((wins.get(e.kickUserId) ?? 0) - expected) ** 2 / expected;
    }
    expect(chi2Unweighted).toBeGreaterThan(100);
  });
});

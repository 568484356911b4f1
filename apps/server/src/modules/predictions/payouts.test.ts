/**
 * The payout arithmetic through the real ledger, over random pools: chatters bet random stakes on
 * random answers through the signed webhook, the admin resolves a random answer (or cancels), and
 * after each prediction the settlement adds up (paid + remainder = pool), every winner gets at least
 * the stake back, every loser loses exactly the stake, a refund or cancel gives every stake back, no
 * stake stays in escrow, and the ledger invariant holds (each balance is the sum of its ledger rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import { predictionSettlements } from '../../db/schema/predictions';
import { buildTestApp, type TestApp } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import {
  ANSWERS,
  escrow,
  linkedChatter,
  openPrediction,
  repliesTo,
  say,
  type Chatter,
} from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
beforeAll(warmUp, WARM_UP_TIMEOUT);
afterAll(async () => {
  await t?.close();
});

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('prediction payouts through the ledger', () => {
  it('over random pools: the settlement adds up, winners keep at least their stake, the ledger holds', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fans: Chatter[] = [];
    for (let i = 0; i < 6; i++) fans.push(await linkedChatter(t, String(8800 + i), { points: '100000' }));
    const balance = async (c: Chatter) => toCents((await t.reload(c.user.id)).points);
    const next = rng(42);
    let remainders = 0n;

    for (let round = 0; round < 8; round++) {
      const { id } = await openPrediction(t, admin, { question: `Round ${round}?` });
      const before = new Map<string, bigint>();
      const stakes = new Map<string, { answerId: number; cents: bigint }>();
      for (const fan of fans) {
        before.set(fan.user.id, await balance(fan));
        if (next() < 0.25) continue; // some sit this one out
        const answerId = 1 + Math.floor(next() * ANSWERS.length);
        const cents = 1n + BigInt(Math.floor(next() * 500_000));
        const { messageId } = await say(t, fan, `!bet ${answerId} ${centsToText(cents)}`);
        expect((await repliesTo(t, messageId))[0], `round ${round}`).toContain('bet taken');
        stakes.set(fan.user.id, { answerId, cents });
      }
      const pool = [...stakes.values()].reduce((s, b) => s + b.cents, 0n);
      const cancel = round % 4 === 3;
      const winning = 1 + Math.floor(next() * ANSWERS.length);
      const res = await t.call({
        method: 'POST',
        url: `/api/predictions/${id}/${cancel ? 'cancel' : 'resolve'}`,
        as: admin,
        ...(cancel ? {} : { body: { answerId: winning } }),
      });
      expect(res.statusCode, res.body).toBe(200);

      const [settled] = await t.database.db
        .select()
        .from(predictionSettlements)
        .where(eq(predictionSettlements.predictionId, id));
      const winnersPool = [...stakes.values()].filter((b) => b.answerId === winning).reduce((s, b) => s + b.cents, 0n);
      const outcome = cancel ? 'cancelled' : winnersPool === 0n ? 'refunded' : 'resolved';
      expect(settled?.outcome, `round ${round}`).toBe(outcome);
      expect(toCents(settled!.pool)).toBe(pool);
      expect(toCents(settled!.paid) + toCents(settled!.remainder)).toBe(pool);
      if (outcome !== 'resolved') expect(toCents(settled!.remainder)).toBe(0n);
      remainders += toCents(settled!.remainder);

      for (const fan of fans) {
        const change = (await balance(fan)) - before.get(fan.user.id)!;
        const bet = stakes.get(fan.user.id);
        if (!bet) expect(change).toBe(0n);
        else if (outcome !== 'resolved') expect(change, `round ${round}: refunded`).toBe(0n);
        else if (bet.answerId === winning) {
          expect(change, `round ${round}: a winner`).toBeGreaterThanOrEqual(0n);
          // Rounded down: the share is at most the exact proportion of the losers' pool.
          expect(change * winnersPool <= (pool - winnersPool) * bet.cents).toBe(true);
        } else expect(change, `round ${round}: a loser`).toBe(-bet.cents);
      }
      const held = await escrow(t);
      expect(held.stakes).toBe('0.00');
      expect(toCents(held.ledgerNet)).toBe(remainders); // what stays with the house is the remainders
      expect(await ledgerMismatches(t)).toEqual([]);
    }
  });
});

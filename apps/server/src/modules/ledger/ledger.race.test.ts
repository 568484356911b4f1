/**
 * The ledger under real concurrency (test/race-database: PostgreSQL, or skipped loudly): the
 * balance condition of applyBalanceChange is re-checked on the row it locked, so concurrent
 * spending never goes below zero and every refusal is an InsufficientBalanceError.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';
import { applyBalanceChange, InsufficientBalanceError } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildRaceApp();
});
afterAll(async () => {
  await t?.close();
});

describeRace('ledger: concurrent spending of one balance', () => {
  it('40 concurrent debits of 1.25 from a balance of 10: exactly 8 pass, the rest are refused, balance 0', async () => {
    const u = await t.signIn();
    await givePoints(t, u.user.id, '10');
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        t.database.db.transaction((tx) =>
          applyBalanceChange(tx, { userId: u.user.id, currency: 'points', delta: '-1.25', reason: 'order' }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refusals).toHaveLength(32);
    for (const r of refusals) expect(r.reason).toBeInstanceOf(InsufficientBalanceError);
    expect((await t.reload(u.user.id)).points).toBe('0.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

/**
 * The prize under real concurrency (test/race-database: PostgreSQL, or skipped loudly): twenty
 * simultaneous recordings of the final — one finishes the battle under its row lock and pays, the
 * others find it finished and are refused; the winner is paid once and the ledger balances.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { BattleState } from '@kickback/common/hubs/battle';
import { ledger } from '../../db/schema/ledger';
import type { TestApp, TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildRaceApp();
  admin = await t.signIn({ role: 'Admin' });
});
afterAll(async () => {
  await t?.close();
});

describeRace('battles: the final recorded twenty times at once', () => {
  it('pays the prize exactly once', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/admin/battles',
      as: admin,
      body: { title: 'Race battle', size: 4, registrationMinutes: 30, prize: { kind: 'points', points: '1234.56' } },
    });
    const id = created.json<{ id: string }>().id;
    const a = await t.signIn();
    const b = await t.signIn();
    for (const u of [a, b])
      expect((await t.call({ method: 'POST', url: `/api/battles/${id}/enter`, as: u })).statusCode).toBe(200);
    const closed = await t.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    expect(closed.json<BattleState>().currentMatchNo).toBe(2);

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call({
          method: 'POST',
          url: `/api/admin/battles/${id}/matches/2/result`,
          as: admin,
          body: { a: { cost: '10', win: '30' }, b: { cost: '10', win: '20' } },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    const paid = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'battle_prize'), eq(ledger.reference, `battle:${id}`)));
    expect(paid).toHaveLength(1);
    expect(paid[0]!.delta).toBe('1234.56');
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

/**
 * Slot calls under real concurrency (test/race-database: PostgreSQL, or skipped loudly), and the
 * same runs on PGlite for the ledger's sake: 200 paid calls at once from one viewer allowed one
 * call charge once; clearing the queue while calls arrive refunds each unplayed call exactly once;
 * two removals of one call refund it once. The settings row's lock (calls.ts) is what serialises
 * the checks; the call row's lock and the refund's claim keep a refund single.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../../test/app';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function scenarios(app: () => TestApp, size: { callers: number; fans: number }) {
  let seq = 0;
  const rules = async (over: Record<string, unknown>) => {
    const t = app();
    const admin = await t.signIn({ role: 'Admin', name: 'Race Host' });
    const res = await t.call({
      method: 'PUT',
      url: '/api/admin/slot-calls/rules',
      as: admin,
      body: {
        maxPerViewer: 1,
        cooldownSeconds: 0,
        cost: 10,
        linkedOnly: false,
        subsOnly: false,
        maxQueue: 1000,
        unknownSlots: 'accept',
        blacklist: [],
        payoutMultiplier: 100,
        payoutPoints: 0,
        ...over,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.database.db.execute(sql`UPDATE slot_call_settings SET is_open = true`);
    return admin;
  };
  const linked = async (points: string) => {
    const t = app();
    const u = await t.signIn({ name: `caller${++seq}` });
    const kickId = `race${seq}-${Math.random().toString(36).slice(2, 8)}`;
    await t.database.db.update(users).set({ kickId, kickUsername: kickId }).where(eq(users.id, u.user.id));
    await givePoints(t, u.user.id, points);
    return {
      user: { id: u.user.id, username: u.user.username, kickId, kickUsername: kickId, excluded: false },
      kickId,
    };
  };
  const callAs = (who: Awaited<ReturnType<typeof linked>>, slot: string) =>
    app().app.slotCalls.call(
      {
        messageId: `msg-${++seq}-${Math.random()}`,
        kickUserId: who.kickId,
        kickUsername: who.kickId,
        isSubscriber: false,
        linkedUser: who.user,
        typed: slot,
      },
      async () => true,
    );
  const balance = async (userId: string) =>
    (await app().database.db.select({ p: users.points }).from(users).where(eq(users.id, userId)))[0]!.p;
  const count = async (reason: string, reference?: string) =>
    rowsOf<{ n: number }>(
      await app().database.db.execute(
        sql`SELECT count(*)::int AS n FROM ledger WHERE reason = ${reason} ${reference ? sql`AND reference = ${reference}` : sql``}`,
      ),
    )[0]!.n;

  it(`${size.callers} simultaneous paid calls from one viewer allowed one: one call, one charge`, async () => {
    const t = app();
    await t.database.db.execute(sql`UPDATE slot_calls SET status = 'cleared' WHERE status IN ('queued', 'playing')`);
    await rules({ maxPerViewer: 1, cost: 10 });
    const fan = await linked('1000');
    const charges = await count('slot_call');
    t.app.slotCalls.hooks.afterSettingsLock = () => pause(2);
    try {
      const outcomes = await Promise.all(
        Array.from({ length: size.callers }, (_, i) => callAs(fan, `Mental ${i % 3}`)),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok && 'reason' in o && o.reason.includes('already have 1 call'))).toHaveLength(
        size.callers - 1,
      );
    } finally {
      t.app.slotCalls.hooks.afterSettingsLock = undefined;
    }
    expect(await count('slot_call')).toBe(charges + 1);
    expect(await balance(fan.user.id)).toBe('990.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('clearing the queue while calls arrive refunds each unplayed call exactly once', async () => {
    const t = app();
    const admin = await rules({ maxPerViewer: 3, cost: 10 });
    const fans = await Promise.all(Array.from({ length: size.fans }, () => linked('100')));
    const calls = fans.flatMap((f) => [callAs(f, 'Sugar Rush'), callAs(f, 'Le Bandit'), callAs(f, 'Mental')]);
    const clears = [5, 15, 30].map(async (ms) => {
      await pause(ms);
      return t.call({ method: 'POST', url: '/api/admin/slot-calls/clear', as: admin });
    });
    await Promise.all([...calls, ...clears]);
    const last = await t.call({ method: 'POST', url: '/api/admin/slot-calls/clear', as: admin });
    expect(last.statusCode).toBe(200);
    const per = rowsOf<{ reference: string; charges: number; refunds: number }>(
      await t.database.db.execute(sql`
        SELECT reference, count(*) FILTER (WHERE reason = 'slot_call')::int AS charges,
               count(*) FILTER (WHERE reason = 'slot_call_refund')::int AS refunds
        FROM ledger WHERE reason IN ('slot_call', 'slot_call_refund')
          AND user_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(fans.map((f) => f.user.id))}::jsonb)::uuid)
        GROUP BY reference`),
    );
    expect(per.length).toBeGreaterThan(0);
    for (const row of per) expect([row.reference, row.charges, row.refunds]).toEqual([row.reference, 1, 1]);
    for (const f of fans) expect(await balance(f.user.id)).toBe('100.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('two removals and a clear of one paid call at once refund it once', async () => {
    const t = app();
    const admin = await rules({ maxPerViewer: 1, cost: 10 });
    const fan = await linked('50');
    const made = await callAs(fan, 'Reactoonz');
    expect(made.ok).toBe(true);
    const id = made.ok ? made.call.id : '';
    t.app.slotCalls.hooks.beforeRefund = () => pause(20);
    try {
      const remove = () =>
        t.call({ method: 'POST', url: `/api/admin/slot-calls/${id}/resolve`, as: admin, body: { outcome: 'removed' } });
      const results = await Promise.all([
        remove(),
        remove(),
        t.call({ method: 'POST', url: '/api/admin/slot-calls/clear', as: admin }),
      ]);
      expect(results.map((r) => r.statusCode).filter((s) => s >= 500)).toEqual([]);
    } finally {
      t.app.slotCalls.hooks.beforeRefund = undefined;
    }
    expect(await count('slot_call_refund', id)).toBe(1);
    expect(await balance(fan.user.id)).toBe('50.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });
}

describe('slot calls at once (PGlite: one transaction at a time, the ledger still balances)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  scenarios(() => t, { callers: 30, fans: 5 });
});

describeRace('slot calls at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildRaceApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  scenarios(() => t, { callers: 200, fans: 20 });
});

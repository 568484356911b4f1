/**
 * Two kinds of "who may buy" (docs/features/store-limits.md#tier-only and
 * docs/features/stream-streaks.md#restoring-a-broken-streak): a tier-only product is sold to a
 * viewer whose highest milestone tier on the site this cycle is at least the product's, and the
 * streak restore is sold only to a viewer with a broken streak, restores it in the purchase's
 * transaction, and restores the same break once — also when one buyer sends twenty at once
 * (PostgreSQL).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import { milestoneLadders, milestoneProgress, milestoneTiers } from '../../db/schema/milestones';
import { orders, products } from '../../db/schema/store';
import { rowsOf } from '../../db/rows';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';

const order = (t: TestApp, as: TestUser, productId: number) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function ordersOf(t: TestApp, userId: string, productId: number): Promise<number> {
  const [n] = await t.database.db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.productId, productId)));
  return n?.n ?? 0;
}

async function buyer(t: TestApp, points = '1000'): Promise<TestUser> {
  const b = await t.signIn();
  await givePoints(t, b.user.id, points);
  return b;
}

describe('tier-only products', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await t.signIn({ role: 'Admin', name: 'Tierkeeper' });
    // Clash.gg's ladder, all-time (its cycle is `all`): Bronze 1,000, Silver 5,000, Gold 10,000.
    await t.database.db.insert(milestoneLadders).values({ site: 1, enabled: true, cycle: 'all_time' });
    await t.database.db.insert(milestoneTiers).values(
      [
        ['Bronze', '1000'],
        ['Silver', '5000'],
        ['Gold', '10000'],
      ].map(([name, threshold], i) => ({
        site: 1,
        position: i,
        name: name!,
        threshold: threshold!,
        rewardKind: 'points' as const,
        rewardAmount: '10',
      })),
    );
  });
  afterEach(async () => {
    await t?.close();
  });

  const wagered = (u: TestUser, amount: string) =>
    t.database.db
      .insert(milestoneProgress)
      .values({ site: 1, cycleKey: 'all', userId: u.user.id, wagered: amount, updatedAt: t.clock.now() });

  async function tierProduct(name: string, tier: string): Promise<number> {
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name, price: 5, category: 'Perks', restriction: { kind: 'tier', site: 1, tier } },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  it('sold from the tier up; below it, or with no tier, refused in words and nothing taken', async () => {
    const silverItem = await tierProduct('Silver lounge', 'Silver');
    const goldItem = await tierProduct('Gold lounge', 'Gold');
    const silver = await buyer(t);
    await wagered(silver, '6000');
    const none = await buyer(t);

    expect((await order(t, silver, silverItem)).statusCode).toBe(200);
    const tooLow = await order(t, silver, goldItem);
    expect(tooLow.statusCode).toBe(403);
    expect(tooLow.json().message).toBe('Only for viewers who reached Gold on Clash.gg this cycle.');
    expect(tooLow.json().message).toBe(storeMessages.tierOnly('Gold', 'Clash.gg'));

    const noTier = await order(t, none, silverItem);
    expect(noTier.statusCode).toBe(403);
    expect(noTier.json().message).toBe('Only for viewers who reached Silver on Clash.gg this cycle.');
    expect((await t.reload(none.user.id)).points).toBe('1000.00');
    expect(await ordersOf(t, none.user.id, silverItem)).toBe(0);

    // Higher than the tier counts too; the ladder switched off sells to nobody.
    const gold = await buyer(t);
    await wagered(gold, '12000');
    expect((await order(t, gold, silverItem)).statusCode).toBe(200);
    await t.database.db.update(milestoneLadders).set({ enabled: false }).where(eq(milestoneLadders.site, 1));
    expect((await order(t, gold, goldItem)).statusCode).toBe(403);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a tier the ladder does not have sells to nobody; the store card and the admin form carry the rule', async () => {
    const item = await tierProduct('Opal lounge', 'Opal');
    const whale = await buyer(t);
    await wagered(whale, '50000');
    expect((await order(t, whale, item)).statusCode).toBe(403);

    const listed = (await t.call({ url: '/api/Product/GetProducts' })).json();
    const card = (listed.data as Array<{ id: number; limits: unknown }>).find((p) => p.id === item);
    expect(card?.limits).toMatchObject({ restriction: { kind: 'tier', site: 1, tier: 'Opal' } });

    // A site without partner ids has no ladder: refused on save.
    const bad = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Howl lounge', price: 5, category: 'Perks', restriction: { kind: 'tier', site: 4, tier: 'Gold' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose a partner site whose players link a partner id.');
  });
});

let day = 0;
/** n more streams, each ended; returns their ids, oldest first. */
async function endedSessions(t: TestApp, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    day += 1;
    const start = new Date(Date.UTC(2026, 2, 1 + day, 20));
    const [row] = rowsOf<{ id: string | number }>(
      await t.database.db.execute(sql`
        INSERT INTO stream_sessions (started_at, ended_at)
        VALUES (${start.toISOString()}::timestamptz, ${new Date(start.getTime() + 3_600_000).toISOString()}::timestamptz)
        RETURNING id
      `),
    );
    ids.push(Number(row!.id));
  }
  return ids;
}

async function setStreak(t: TestApp, u: TestUser, s: { current: number; best: number; last: number; lost: number }) {
  await t.database.db.execute(sql`
    INSERT INTO stream_streaks (user_id, current, best, last_session_id, lost)
    VALUES (${u.user.id}, ${s.current}, ${s.best}, ${s.last}, ${s.lost})
  `);
}

const streakOf = async (t: TestApp, u: TestUser) => (await t.call({ url: '/api/me/streak', as: u })).json();

async function restoreProduct(t: TestApp): Promise<number> {
  const p = await addProduct(t, { name: `Streak restore ${Math.random()}`, price: '100' });
  await t.database.db
    .update(products)
    .set({ restriction: { kind: 'streak_restore' } })
    .where(eq(products.id, p.id));
  return p.id;
}

describe('the streak restore', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a streak that started again continues from the lost one, once; the second purchase is refused', async () => {
    const item = await restoreProduct(t);
    const [, , , s4] = await endedSessions(t, 4);
    // Attended 1 and 2 (a streak of 2), missed 3, attended 4: a new streak of 1, the 2 kept as lost.
    const fan = await buyer(t);
    await setStreak(t, fan, { current: 1, best: 2, last: s4!, lost: 2 });

    const first = await order(t, fan, item);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toMatch(/Your stream streak is back at 3/);
    expect(await streakOf(t, fan)).toMatchObject({ current: 3, best: 3, lost: 0 });

    const again = await order(t, fan, item);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have no broken streak to restore.');
    expect(await ordersOf(t, fan.user.id, item)).toBe(1);
    expect((await t.reload(fan.user.id)).points).toBe('900.00');
    expect(await streakOf(t, fan)).toMatchObject({ current: 3, lost: 0 });
  });

  it('a streak a finished stream ended carries on at the next stream', async () => {
    const item = await restoreProduct(t);
    const [s1] = await endedSessions(t, 2);
    const fan = await buyer(t);
    // Attended up to the first stream; the second went by without them: shown ended, 5 lost.
    await setStreak(t, fan, { current: 5, best: 5, last: s1!, lost: 0 });
    expect(await streakOf(t, fan)).toMatchObject({ current: 0, lost: 5 });
    expect((await order(t, fan, item)).statusCode).toBe(200);
    expect(await streakOf(t, fan)).toMatchObject({ current: 5, lost: 0 });
    expect((await order(t, fan, item)).json().message).toBe(storeMessages.noBrokenStreak);
  });

  it('no broken streak, or not enough points: refused, nothing taken and nothing restored', async () => {
    const item = await restoreProduct(t);
    const fresh = await buyer(t);
    const refused = await order(t, fresh, item);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('You have no broken streak to restore.');
    expect((await t.reload(fresh.user.id)).points).toBe('1000.00');

    const [, , s3] = await endedSessions(t, 3);
    const poor = await buyer(t, '10');
    await setStreak(t, poor, { current: 1, best: 4, last: s3!, lost: 4 });
    const broke = await order(t, poor, item);
    expect(broke.statusCode).toBe(409);
    expect(broke.json().message).toBe(storeMessages.insufficientPoints);
    expect(await streakOf(t, poor)).toMatchObject({ current: 1, lost: 4 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describeRace('the streak restore under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildRaceApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('20 restores sent at once by one buyer with one broken streak: one order, one restore', async () => {
    const item = await restoreProduct(t);
    const [, , s3] = await endedSessions(t, 3);
    const fan = await buyer(t);
    await setStreak(t, fan, { current: 1, best: 3, last: s3!, lost: 3 });
    const results = await Promise.all(Array.from({ length: 20 }, () => order(t, fan, item)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await ordersOf(t, fan.user.id, item)).toBe(1);
    expect(await streakOf(t, fan)).toMatchObject({ current: 4, lost: 0 });
    expect((await t.reload(fan.user.id)).points).toBe('900.00');
  });
});

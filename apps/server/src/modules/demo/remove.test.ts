import type pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, like } from 'drizzle-orm';
import type { GoLiveChecklist } from '@kickback/common/http/integrations';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { usingPostgres } from '../../../test/database';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { auditLog } from '../../db/schema/audit';
import { challenges } from '../../db/schema/challenges';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { leaderboardPeriods } from '../../db/schema/leaderboards';
import { ledger } from '../../db/schema/ledger';
import { orders, products } from '../../db/schema/store';
import { storeMessages } from '@kickback/common/http/store';
import { users } from '../../db/schema/users';
import { demoCatalogue } from '../store/demo';
import { DEMO_STEAM_ID_PATTERN, demoRemovalMessages } from './service';
import { seedDemoData } from './seed';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

const REMOVE = '/api/admin/demo-data/remove';
const remove = (as: TestUser | null) => t.call({ method: 'POST', url: REMOVE, as });
const buy = (as: TestUser, productId: number) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function productNamed(name: string) {
  const [row] = await t.database.db.select().from(products).where(eq(products.name, name));
  return row;
}

/** Everything of one user that removal must leave exactly as it was. */
async function holdingsOf(userId: string) {
  const db = t.database.db;
  const [user] = await db
    .select({ points: users.points, gems: users.gems, steamId: users.steamId, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  return {
    user,
    ledger: await db.select().from(ledger).where(eq(ledger.userId, userId)).orderBy(asc(ledger.id)),
    orders: await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.id)),
    fulfilment: await db
      .select()
      .from(fulfilmentItems)
      .where(eq(fulfilmentItems.userId, userId))
      .orderBy(asc(fulfilmentItems.id)),
  };
}

const demoAccounts = async () =>
  (await t.database.db.select({ id: users.id }).from(users).where(like(users.steamId, DEMO_STEAM_ID_PATTERN))).length;

describe('POST /api/admin/demo-data/remove', () => {
  it('removes the demo accounts, catalogue, challenges and seeded weeks; a real buyer keeps order, balance, ledger and fulfilment', async () => {
    t = await buildTestApp();
    await seedDemoData(t.app);
    const admin = await t.signIn({ role: 'Admin', name: 'Vex' });
    const moderator = await t.signIn({ role: 'Moderator' });

    // A real viewer buys a demo product and wins a demo challenge; a demo user buys another demo product and a real one.
    const real = await t.signIn({ name: 'RealViewer' });
    await givePoints(t, real.user.id, '50000');
    const card = (await productNamed('Steam Gift Card $10'))!;
    expect((await buy(real, card.id)).statusCode).toBe(200);
    const [won] = await t.database.db
      .update(challenges)
      .set({ winnerUserId: real.user.id })
      .where(eq(challenges.title, 'Crash Moonshot'))
      .returning();
    expect(won).toBeDefined();
    const realProduct = await addProduct(t, { name: 'Signed jersey', price: '100' });
    const luke = await t.signIn({ steamId: '76561199999999011' });
    await givePoints(t, luke.user.id, '20000');
    expect((await buy(luke, (await productNamed('Vex Logo Tee'))!.id)).statusCode).toBe(200);
    expect((await buy(luke, realProduct.id)).statusCode).toBe(200);

    const publicStore = async () => (await t.call({ url: '/api/Product/GetProducts' })).body;
    expect(await publicStore()).toContain('Karambit | Fade'); // cached now
    const demoAdmin = await t.signIn({ role: 'Admin', steamId: '76561199999999001' });
    const before = await holdingsOf(real.user.id);
    expect(before.orders).toHaveLength(1);
    expect(before.fulfilment).toHaveLength(1);
    const accounts = await demoAccounts();
    expect(accounts).toBeGreaterThanOrEqual(9);
    const seededWeeks = (await t.database.db.select().from(leaderboardPeriods)).length;

    // Only an admin, and not while signed in as a demo account.
    expect((await remove(null)).statusCode).toBe(401);
    expect((await remove(moderator)).statusCode).toBe(403);
    const refused = await remove(demoAdmin);
    expect([refused.statusCode, refused.json().message]).toEqual([409, demoRemovalMessages.signedInAsDemo]);
    expect(await demoAccounts()).toBe(accounts);

    const res = await remove(admin);
    expect(res.statusCode).toBe(200);
    const message = res.json().message as string;
    expect(message).toContain(`Removed ${accounts} demo accounts, ${demoCatalogue.length - 1} products`);
    expect(message).toContain('Kept 1 product real users ordered (now inactive) and 1 challenge a real user won.');

    expect(await demoAccounts()).toBe(0);
    expect(await holdingsOf(real.user.id)).toEqual(before);
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await productNamed('Steam Gift Card $10')).toMatchObject({ id: card.id, active: false });
    expect(await productNamed('Vex Logo Tee')).toBeUndefined();
    expect(await productNamed('Signed jersey')).toMatchObject({ active: true });
    expect((await t.database.db.select().from(products)).map((p) => p.name).sort()).toEqual([
      'Signed jersey',
      'Steam Gift Card $10',
    ]);
    expect((await t.database.db.select().from(challenges)).map((c) => c.title)).toEqual(['Crash Moonshot']);
    expect(await t.database.db.select().from(leaderboardPeriods)).toHaveLength(0);
    if (seededWeeks > 0) expect(message).toContain(`${seededWeeks} leaderboard week`);
    const store = await publicStore();
    expect(store).not.toContain('Karambit | Fade');
    expect(store).not.toContain('Steam Gift Card $10');

    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.demo_removed'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorUserId: admin.user.id,
      after: expect.objectContaining({
        accounts,
        productsRemoved: demoCatalogue.length - 1,
        productsDeactivated: 1,
        challengesKept: 1,
      }),
    });

    const list = (await t.call({ url: '/api/admin/go-live', as: admin })).json() as GoLiveChecklist;
    expect(list.sections.flatMap((s) => s.items).find((i) => i.id === 'demoData')).toMatchObject({ state: 'ready' });

    // Again: nothing left, nothing changed, no second audit row.
    const again = await remove(admin);
    expect([again.statusCode, again.json().message]).toEqual([200, demoRemovalMessages.nothingLeft]);
    expect(await holdingsOf(real.user.id)).toEqual(before);
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.demo_removed'))).toHaveLength(1);
  });

  it('on a site without demo data it changes nothing', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const mine = await addProduct(t, { name: 'AK-47 | Neon Rider', price: '10' }); // same name, not the demo image
    const res = await remove(admin);
    expect([res.statusCode, res.json().message]).toEqual([200, demoRemovalMessages.nothingLeft]);
    expect(await productNamed('AK-47 | Neon Rider')).toMatchObject({ id: mine.id, active: true });
  });
});

// The removal locks the demo products, then deletes them: an order of one that started meanwhile
// waits on that lock and must then answer as for an unknown product, taking nothing.
describe.skipIf(!usingPostgres())('on PostgreSQL: an order racing the removal of its demo product', () => {
  it('waits for the removal, then answers 404 and leaves the balance and ledger as they were', async () => {
    t = await buildTestApp();
    await seedDemoData(t.app);
    const buyer = await t.signIn({ name: 'RacingBuyer' });
    await givePoints(t, buyer.user.id, '50000');
    const tee = (await productNamed('Vex Logo Tee'))!;
    const pool = t.database.raw as pg.Pool;
    const removal = await pool.connect();
    try {
      await removal.query('BEGIN');
      await removal.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [tee.id]);
      let settled = false;
      const ordering = buy(buyer, tee.id).finally(() => (settled = true));
      // Wait until the order statement is held back by the removal's lock (or, failing that, has answered).
      while (!settled) {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if ((rows[0] as { n: number }).n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await removal.query('DELETE FROM products WHERE id = $1', [tee.id]);
      await removal.query('COMMIT');
      const res = await ordering;
      expect([res.statusCode, res.json().message]).toEqual([404, storeMessages.productNotFound]);
    } finally {
      removal.release();
    }
    expect((await t.reload(buyer.user.id)).points).toBe('50000.00');
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, buyer.user.id))).toEqual([]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

/**
 * Store limits under real concurrency (test/race-database: PostgreSQL, or skipped loudly): the
 * (buyer, product) slot that limits.ts locks before counting makes concurrent purchases by one
 * buyer run one after the other, so a limit or a cooldown admits exactly what it says.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { orders, products } from '../../db/schema/store';
import type { TestApp, TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';

let t: TestApp;
beforeAll(async () => {
  t = await buildRaceApp();
});
afterAll(async () => {
  await t?.close();
});

const order = (as: TestUser, productId: number) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function ordersOf(userId: string, productId: number): Promise<number> {
  const [n] = await t.database.db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.productId, productId)));
  return n?.n ?? 0;
}

describeRace('store limits: concurrent purchases by one buyer', () => {
  it('60 concurrent purchases of a "2 per week" product by one buyer: exactly 2, the rest refused with the next date', async () => {
    const buyer = await t.signIn({ name: 'Limitracer' });
    const product = await addProduct(t, { price: '5' });
    await t.database.db.update(products).set({ limitCount: 2, limitWindow: 'week' }).where(eq(products.id, product.id));
    await givePoints(t, buyer.user.id, '1000');
    const results = await Promise.all(Array.from({ length: 60 }, () => order(buyer, product.id)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 409)).toHaveLength(58);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toMatch(/^Limit: 2 per week — next on Monday 00:00 UTC\.$/);
    }
    expect(await ordersOf(buyer.user.id, product.id)).toBe(2);
    expect((await t.reload(buyer.user.id)).points).toBe('990.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('40 concurrent purchases of a product with a 1-hour cooldown: exactly 1', async () => {
    const buyer = await t.signIn({ name: 'Cooldownracer' });
    const product = await addProduct(t, { price: '1' });
    await t.database.db.update(products).set({ cooldownMinutes: 60 }).where(eq(products.id, product.id));
    await givePoints(t, buyer.user.id, '100');
    const results = await Promise.all(Array.from({ length: 40 }, () => order(buyer, product.id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toMatch(/^You can buy this again in (59 min|1 h)\.$/);
    }
    expect(await ordersOf(buyer.user.id, product.id)).toBe(1);
  });

  it('a limit is per buyer: 20 buyers at once each get their one', async () => {
    const product = await addProduct(t, { price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'ever' }).where(eq(products.id, product.id));
    const buyers = await Promise.all(Array.from({ length: 20 }, () => t.signIn()));
    for (const b of buyers) await givePoints(t, b.user.id, '10');
    const results = await Promise.all(buyers.flatMap((b) => [order(b, product.id), order(b, product.id)]));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(20);
    for (const b of buyers) expect(await ordersOf(b.user.id, product.id)).toBe(1);
  });
});

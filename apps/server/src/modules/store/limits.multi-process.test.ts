/**
 * Store limits on two real server processes sharing one PostgreSQL database and one Redis
 * (docs/features/store-limits.md#under-concurrency): one viewer's purchases of a "1 per week"
 * product with a cooldown, sent at once and split between the processes, make exactly one order,
 * charged once (the ledger agrees); many viewers buying a product with a small stock through both
 * processes never get more than the stock.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { ledger } from '../../db/schema/ledger';
import { orders, products } from '../../db/schema/store';
import { users } from '../../db/schema/users';
import { givePoints } from '../../../test/economy';
import { missing, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('store limits on two server processes sharing one PostgreSQL', () => {
  const mp = serversOnFreshDatabase({
    tag: 'store_mp',
    env: { RATE_LIMIT_PER_MINUTE: '100000' },
  });

  async function product(values: Partial<typeof products.$inferInsert>) {
    const [row] = await mp.database.db
      .insert(products)
      .values({ name: 'Two-process item', price: '7.50', category: 'Merch', delivery: 'none', ...values })
      .returning();
    return row!;
  }

  async function viewerWith(name: string, points: string) {
    const p = await mp.person(name);
    await givePoints(mp, p.user.id, points);
    return p;
  }

  async function buy(url: string, cookie: string, productId: number) {
    const res = await fetch(`${url}/api/Order/OrderProduct`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie },
      body: JSON.stringify({ productId }),
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  }

  const ordersOf = async (productId: number, userId?: string) =>
    (
      await mp.database.db
        .select({ n: count() })
        .from(orders)
        .where(
          userId ? and(eq(orders.productId, productId), eq(orders.userId, userId)) : eq(orders.productId, productId),
        )
    )[0]!.n;

  it('one viewer buying a "1 per week" product with a cooldown 30 times at once through both: one order, charged once', async () => {
    const buyer = await viewerWith('Weekly', '1000');
    const item = await product({ limitCount: 1, limitWindow: 'week', cooldownMinutes: 60 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => buy(mp.urls[i % 2]!, buyer.cookie, item.id)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^Limit: 1 per week — next on .+ 00:00 UTC\.$/);
    }
    expect(await ordersOf(item.id, buyer.user.id)).toBe(1);
    const [row] = await mp.database.db.select().from(users).where(eq(users.id, buyer.user.id));
    expect(row!.points).toBe('992.50');
    const [sum] = await mp.database.db
      .select({ total: sql<string>`sum(${ledger.delta})::text`, n: count() })
      .from(ledger)
      .where(and(eq(ledger.userId, buyer.user.id), eq(ledger.currency, 'points')));
    expect(sum).toEqual({ total: '992.50', n: 2 }); // the grant and one purchase
  });

  it('24 viewers buying a product with 5 in stock through both processes: 5 orders, stock 0', async () => {
    const item = await product({ stock: 5, price: '2' });
    const viewers = await Promise.all(Array.from({ length: 24 }, (_, i) => viewerWith(`Stock${i}`, '10')));
    const results = await Promise.all(viewers.map((v, i) => buy(mp.urls[i % 2]!, v.cookie, item.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('This product is sold out.');
    }
    expect(await ordersOf(item.id)).toBe(5);
    const [after] = await mp.database.db.select().from(products).where(eq(products.id, item.id));
    expect(after!.stock).toBe(0);
    const charged = await mp.database.db
      .select({ n: count() })
      .from(ledger)
      .where(
        and(
          eq(ledger.reason, 'order'),
          sql`${ledger.userId} IN (SELECT user_id FROM orders WHERE product_id = ${item.id})`,
        ),
      );
    expect(charged[0]!.n).toBe(5);
  });
});

/**
 * The store under real concurrency (test/race-database: PostgreSQL, or skipped loudly): the
 * balance re-checked under the buyer's row lock (modules/ledger/service.ts pointsDebitCtes), stock
 * taken once, a code sold once (`FOR UPDATE SKIP LOCKED` in order-placer.ts), a code in one pool.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ledger } from '../../db/schema/ledger';
import { orders, productCodes, products } from '../../db/schema/store';
import { users } from '../../db/schema/users';
import type { TestApp, TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildRaceApp();
  admin = await t.signIn({ role: 'Admin', name: 'Racekeeper' });
});
afterAll(async () => {
  await t?.close();
});

const order = (as: TestUser, productId: number) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function points(userId: string): Promise<string> {
  return (await t.reload(userId)).points;
}

async function buyer(amount: string): Promise<TestUser> {
  const b = await t.signIn();
  await givePoints(t, b.user.id, amount);
  return b;
}

const upload = (productId: number, text: string) =>
  t.call({ method: 'POST', url: `/api/admin/products/${productId}/codes`, as: admin, body: { text } });

async function codeProduct(name: string, price = '10') {
  const res = await t.call({
    method: 'POST',
    url: '/api/admin/products',
    as: admin,
    body: { name, price, category: 'Gift cards', stock: 99, delivery: 'code' },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number };
}

describeRace('store: concurrent orders never overspend or oversell', () => {
  it(`200 concurrent orders from one user whose balance covers exactly 7: 7 orders, balance 0`, async () => {
    const buyer = await t.signIn({ name: 'Racer' });
    const product = await addProduct(t, { price: '12.34' });
    await givePoints(t, buyer.user.id, '86.38'); // 7 × 12.34
    const results = await Promise.all(Array.from({ length: 200 }, () => order(buyer, product.id)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(7);
    expect(codes.filter((c) => c === 409)).toHaveLength(193);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe(storeMessages.insufficientPoints);
    }
    expect(await points(buyer.user.id)).toBe('0.00');
    const [n] = await t.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, buyer.user.id));
    expect(n?.n).toBe(7);
    const [items] = await t.database.db
      .select({ n: count() })
      .from(fulfilmentItems)
      .where(eq(fulfilmentItems.userId, buyer.user.id));
    expect(items?.n).toBe(7);
    const [sum] = await t.database.db
      .select({ total: sql<string>`sum(${ledger.delta})` })
      .from(ledger)
      .where(eq(ledger.userId, buyer.user.id));
    expect(Number(sum?.total)).toBe(0);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('100 concurrent orders for a product with stock 3 from different users: exactly 3', async () => {
    const product = await addProduct(t, { name: 'Rare knife', price: '10', stock: 3 });
    const buyers: TestUser[] = [];
    for (let i = 0; i < 100; i++) {
      const b = await t.signIn();
      await givePoints(t, b.user.id, '10');
      buyers.push(b);
    }
    const results = await Promise.all(buyers.map((b) => order(b, product.id)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().message === storeMessages.soldOut)).toBe(
      true,
    );
    const [left] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, product.id));
    expect(left?.stock).toBe(0);
    const [n] = await t.database.db.select({ n: count() }).from(orders).where(eq(orders.productId, product.id));
    expect(n?.n).toBe(3);
    const spent = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(
        sql`${users.id} IN (${sql.join(
          buyers.map((b) => sql`${b.user.id}`),
          sql`, `,
        )}) AND ${users.points} = 0`,
      );
    expect(spent).toHaveLength(3);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describeRace('store: codes under concurrent purchases and uploads', () => {
  it(`50 concurrent purchases of a product with 10 codes: exactly 10, each code sold once, each buyer sees only their own`, async () => {
    const p = await codeProduct('Key drop', '7.50');
    const codes = Array.from(
      { length: 10 },
      (_, i) => `DROP-${String(i).padStart(2, '0')}-${Math.random().toString(36).slice(2, 10)}`,
    );
    expect((await upload(p.id, codes.join('\n'))).json().added).toBe(10);
    const buyers: TestUser[] = [];
    for (let i = 0; i < 50; i++) buyers.push(await buyer('7.50'));

    const results = await Promise.all(buyers.map((b) => order(b, p.id)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().message === storeMessages.soldOut)).toBe(
      true,
    );
    const delivered = ok.map((r) => r.json().code as string);
    expect(new Set(delivered).size).toBe(10);
    expect([...delivered].sort()).toEqual([...codes].sort());

    const [sold] = await t.database.db
      .select({ n: count(), orders: sql<number>`count(DISTINCT ${productCodes.orderId})`.mapWith(Number) })
      .from(productCodes)
      .where(sql`${productCodes.productId} = ${p.id} AND ${productCodes.orderId} IS NOT NULL`);
    expect(sold).toEqual({ n: 10, orders: 10 });
    const [stock] = await t.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, p.id));
    expect(stock?.stock).toBe(0);
    const [items] = await t.database.db
      .select({ n: count() })
      .from(fulfilmentItems)
      .innerJoin(orders, sql`${fulfilmentItems.reference} = ${orders.id}::text AND ${fulfilmentItems.kind} = 'order'`)
      .where(sql`${orders.productId} = ${p.id} AND ${fulfilmentItems.status} = 'delivered'`);
    expect(items?.n).toBe(10);

    // Each buyer sees exactly their own code (or none), in My activity.
    for (const [i, b] of buyers.entries()) {
      const body = (await t.call({ url: '/api/me/orders', as: b })).body;
      const own = results[i]!.statusCode === 200 ? (results[i]!.json().code as string) : null;
      for (const c of codes) expect(body.includes(c), `buyer ${i} and ${c}`).toBe(c === own);
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it(`two uploads of the same code to two products at once: exactly one pool gets it`, async () => {
    for (let round = 0; round < 5; round++) {
      const a = await codeProduct(`Race A${round}`);
      const b = await codeProduct(`Race B${round}`);
      const code = `RACE-${round}-${Math.random().toString(36).slice(2, 10)}`;
      const results = await Promise.all([upload(a.id, code), upload(b.id, code)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const loser = results.find((r) => r.statusCode === 409)!;
      expect(loser.json().message).toBe(`Nothing was added. Refused: ${code} (already in another product's pool)`);
      const [rows] = await t.database.db
        .select({ n: count() })
        .from(productCodes)
        .where(sql`${productCodes.productId} IN (${a.id}, ${b.id})`);
      expect(rows?.n).toBe(1);
      const stocks = await t.database.db
        .select({ stock: products.stock })
        .from(products)
        .where(sql`${products.id} IN (${a.id}, ${b.id})`);
      expect(stocks.map((s) => s.stock).sort()).toEqual([0, 1]);
    }
  });
});

describeRace('store: the last item taken between our read and our decrement', () => {
  it('rolls the debit back and answers sold out', async () => {
    const buyer = await t.signIn({ name: 'Late' });
    await givePoints(t, buyer.user.id, '50');
    const product = await addProduct(t, { name: 'Last one', price: '20', stock: 1 });
    // Another buyer's transaction holds the row, about to take the last item.
    const other = await (t.database.raw as pg.Pool).connect();
    try {
      await other.query('BEGIN');
      await other.query('UPDATE products SET stock = stock - 1 WHERE id = $1', [product.id]);
      const pending = order(buyer, product.id); // reads stock 1, debits, then waits for the row
      await new Promise((r) => setTimeout(r, 300));
      await other.query('COMMIT');
      const res = await pending;
      expect([res.statusCode, res.json().message]).toEqual([409, storeMessages.soldOut]);
    } finally {
      other.release();
    }
    expect(await points(buyer.user.id)).toBe('50.00');
    const [n] = await t.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, buyer.user.id));
    expect(n?.n).toBe(0);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

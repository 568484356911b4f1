import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ledger } from '../../db/schema/ledger';
import { orders, products } from '../../db/schema/store';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { seedStore, demoCatalogue } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const order = (as: TestUser | null, productId: unknown) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function points(userId: string): Promise<string> {
  return (await t.reload(userId)).points;
}

describe('GET /api/Product/GetProducts', () => {
  it('lists active products (highest price first) with their categories, to anyone', async () => {
    const local = await buildTestApp();
    try {
      const a = await addProduct(local, { name: 'Cap', price: '50.5', category: 'Merch', imageUrl: '/store/cap.svg' });
      await addProduct(local, { name: 'Gone', price: '10', category: 'Retired', active: false });
      const b = await addProduct(local, { name: 'Knife', price: '900', category: 'Skins', stock: 2 });
      const res = await local.call({ url: '/api/Product/GetProducts' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: [
          { id: b.id, name: 'Knife', price: 900, image: null, category: 'Skins', stock: 2, delivery: 'none' },
          {
            id: a.id,
            name: 'Cap',
            price: 50.5,
            image: '/store/cap.svg',
            category: 'Merch',
            stock: null,
            delivery: 'none',
          },
        ],
        categories: ['Merch', 'Skins'],
      });
    } finally {
      await local.close();
    }
  });

  it('the demo catalogue seeds once, in several categories, with shipped images', async () => {
    const local = await buildTestApp();
    try {
      await seedStore(local.app);
      await seedStore(local.app);
      const body = (await local.call({ url: '/api/Product/GetProducts' })).json();
      expect(body.data).toHaveLength(demoCatalogue.length);
      expect(body.categories).toEqual(['Experiences', 'Gift cards', 'Merch', 'Skins']);
      for (const p of body.data) expect(p.image).toMatch(/^\/store\/[\w-]+\.svg$/);
    } finally {
      await local.close();
    }
  });
});

describe('POST /api/Order/OrderProduct', () => {
  it('deducts the price, records the order, the ledger row and a pending fulfilment item, in one go', async () => {
    const buyer = await t.signIn({ name: 'Buyer' });
    const product = await addProduct(t, { name: 'Hoodie', price: '150.25', stock: 5 });
    await givePoints(t, buyer.user.id, '200');
    const res = await order(buyer, product.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: storeMessages.orderPlaced('Hoodie'),
      orderId: expect.any(Number),
      code: null,
    });
    expect(await points(buyer.user.id)).toBe('49.75');
    const [row] = await t.database.db.select().from(orders).where(eq(orders.userId, buyer.user.id));
    expect(row).toMatchObject({ productId: product.id, productName: 'Hoodie', price: '150.25' });
    const [stock] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, product.id));
    expect(stock?.stock).toBe(4);
    const entries = await t.database.db.select().from(ledger).where(eq(ledger.userId, buyer.user.id));
    expect(entries.find((e) => e.reason === 'order')).toMatchObject({
      delta: '-150.25',
      balanceAfter: '49.75',
      reference: String(row!.id),
      memo: 'Hoodie',
    });
    const [item] = await t.database.db
      .select()
      .from(fulfilmentItems)
      .where(eq(fulfilmentItems.reference, String(row!.id)));
    expect(item).toMatchObject({
      kind: 'order',
      userId: buyer.user.id,
      status: 'pending',
      description: 'Hoodie',
      amount: '150.25',
      unit: 'points',
      refundCurrency: 'points',
      refundAmount: '150.25',
    });
    // The signed-in user (what the web refreshes) shows the new balance.
    expect((await t.call({ url: '/api/User/ping', as: buyer })).json().points).toBe(49.75);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses, changing nothing: signed out 401, bad id 400, unknown 404, inactive / sold out / too dear 409', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '100');
    const inactive = await addProduct(t, { active: false, price: '1' });
    const soldOut = await addProduct(t, { stock: 0, price: '1' });
    const dear = await addProduct(t, { price: '100.01' });
    const cheap = await addProduct(t, { price: '1' });
    const cases: Array<[TestUser | null, unknown, number, string | RegExp]> = [
      [null, cheap.id, 401, 'Sign in required.'],
      [buyer, 'abc', 400, /productId/],
      [buyer, -1, 400, /productId/],
      [buyer, 1.5, 400, /productId/],
      [buyer, 999_999, 404, storeMessages.productNotFound],
      [buyer, inactive.id, 409, storeMessages.inactive],
      [buyer, soldOut.id, 409, storeMessages.soldOut],
      [buyer, dear.id, 409, storeMessages.insufficientPoints],
    ];
    for (const [as, productId, status, message] of cases) {
      const res = await order(as, productId);
      expect(res.statusCode, `${String(productId)}`).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect((await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: buyer, body: {} })).statusCode).toBe(
      400,
    );
    expect(await points(buyer.user.id)).toBe('100.00');
    const [n] = await t.database.db.select({ n: count() }).from(orders).where(eq(orders.userId, buyer.user.id));
    expect(n?.n).toBe(0);
    // Insufficient funds did not take the stock either.
    const limited = await addProduct(t, { price: '500', stock: 1 });
    expect((await order(buyer, limited.id)).statusCode).toBe(409);
    const [left] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, limited.id));
    expect(left?.stock).toBe(1);
  });
});

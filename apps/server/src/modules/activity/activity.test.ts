import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { addProduct, givePoints } from '../../../test/economy';
import { enqueueFulfilment } from '../fulfilment/service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('My activity', () => {
  it("lists only the user's own ledger, newest first, paged, and their orders with status", async () => {
    const me = await t.signIn();
    const other = await t.signIn();
    await givePoints(t, other.user.id, '5');
    for (let i = 1; i <= 24; i++) await givePoints(t, me.user.id, String(i));
    const product = await addProduct(t, { name: 'Mousepad', price: '30' });
    await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: me, body: { productId: product.id } });

    const first = (await t.call({ url: '/api/me/activity', as: me })).json();
    expect(first).toMatchObject({ total: 25, page: 1, pageSize: 20 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({
      currency: 'points',
      delta: -30,
      balanceAfter: 270,
      reason: 'order',
      memo: 'Mousepad',
    });
    expect(first.items[1]).toMatchObject({ delta: 24, reason: 'admin_grant' });
    const second = (await t.call({ url: '/api/me/activity?page=2', as: me })).json();
    expect(second.items.map((e: { delta: number }) => e.delta)).toEqual([5, 4, 3, 2, 1]);

    const orders = (await t.call({ url: '/api/me/orders', as: me })).json();
    expect(orders.items).toEqual([
      expect.objectContaining({ productName: 'Mousepad', price: 30, status: 'pending', note: null, handledAt: null }),
    ]);
    expect((await t.call({ url: '/api/me/orders', as: other })).json().items).toEqual([]);
  });

  it("lists the user's own payouts (not orders), newest first, with the status the admin set", async () => {
    const me = await t.signIn();
    const other = await t.signIn();
    await givePoints(t, me.user.id, '100');
    const product = await addProduct(t, { name: 'Cap', price: '10' });
    await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: me, body: { productId: product.id } });
    const daily = await enqueueFulfilment(t.database.db, {
      kind: 'daily_reward',
      reference: `test-daily:${me.user.id}`,
      userId: me.user.id,
      description: 'Daily reward (Roobet) for 2026-11-20',
      amount: '14.27',
      unit: 'USD',
    });
    await enqueueFulfilment(t.database.db, {
      kind: 'challenge',
      reference: `test-challenge:${me.user.id}`,
      userId: me.user.id,
      description: 'Challenge prize: Plinko Edge',
      amount: 75,
      unit: 'USD',
    });
    await enqueueFulfilment(t.database.db, {
      kind: 'challenge',
      reference: `test-challenge:${other.user.id}`,
      userId: other.user.id,
      description: 'Not mine',
      amount: 5,
      unit: 'USD',
    });
    const admin = await t.signIn({ role: 'Admin' });
    const delivered = await t.call({
      method: 'POST',
      url: `/api/admin/fulfilment/${daily}/deliver`,
      as: admin,
      body: { note: 'Tip 8812' },
    });
    expect(delivered.statusCode).toBe(200);

    const payouts = (await t.call({ url: '/api/me/payouts', as: me })).json();
    expect(payouts).toMatchObject({ total: 2, page: 1 });
    expect(payouts.items).toEqual([
      expect.objectContaining({
        kind: 'challenge',
        description: 'Challenge prize: Plinko Edge',
        amount: 75,
        unit: 'USD',
        status: 'pending',
      }),
      expect.objectContaining({
        kind: 'daily_reward',
        amount: 14.27,
        status: 'delivered',
        note: 'Tip 8812',
        handledAt: expect.any(String),
      }),
    ]);
    expect((await t.call({ url: '/api/me/payouts' })).statusCode).toBe(401);
  });

  it('needs sign-in and a sane page', async () => {
    const me = await t.signIn();
    expect((await t.call({ url: '/api/me/activity' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/me/orders' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/me/activity?page=0', as: me })).statusCode).toBe(400);
  });
});

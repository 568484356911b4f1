import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { fulfilmentMessages } from '@kickback/common/http/fulfilment';
import { auditLog } from '../../db/schema/audit';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';
import { enqueueFulfilment } from './service';
import { describeRace, useRaceApp } from '../../../test/race-database';

let t: TestApp;
let admin: TestUser;
let admin2: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Ops' });
  admin2 = await t.signIn({ role: 'Admin', name: 'Ops2' });
});
afterAll(async () => {
  await t.close();
});

async function buy(price = '40'): Promise<{ buyer: TestUser; itemId: number }> {
  const buyer = await t.signIn({ name: `buyer${Math.random().toString(36).slice(2, 7)}` });
  await givePoints(t, buyer.user.id, '100');
  const product = await addProduct(t, { name: 'Gift card', price });
  const res = await t.call({
    method: 'POST',
    url: '/api/Order/OrderProduct',
    as: buyer,
    body: { productId: product.id },
  });
  expect(res.statusCode).toBe(200);
  const list = await t.call({ url: '/api/admin/fulfilment?status=pending&kind=order', as: admin });
  const item = list.json().items.find((i: { user: { id: string } }) => i.user.id === buyer.user.id);
  return { buyer, itemId: item.id };
}

const deliver = (id: number, as: TestUser | null, body?: unknown) =>
  t.call({ method: 'POST', url: `/api/admin/fulfilment/${id}/deliver`, as, ...(body ? { body } : {}) });
const reject = (id: number, as: TestUser | null, body?: unknown) =>
  t.call({ method: 'POST', url: `/api/admin/fulfilment/${id}/reject`, as, ...(body ? { body } : {}) });

describe('admin fulfilment queue', () => {
  it("lists items newest first with the recipient's linked accounts, filterable by status and kind", async () => {
    const { buyer, itemId } = await buy();
    await t.database.db
      .update(users)
      .set({ kickUsername: 'kickbuyer', discordUsername: 'disc#1', roobetName: 'roo', clashId: 'c1' })
      .where(eq(users.id, buyer.user.id));
    await t.database.db.transaction((tx) =>
      enqueueFulfilment(tx, {
        kind: 'daily_reward',
        reference: `claim:${buyer.user.id}`,
        userId: buyer.user.id,
        description: 'Daily reward day 3 (Roobet)',
        amount: '2.5',
        unit: 'USD',
      }),
    );
    const all = (await t.call({ url: '/api/admin/fulfilment', as: admin })).json();
    expect(all.kinds).toEqual(expect.arrayContaining(['daily_reward', 'order']));
    expect(all.items[0]).toMatchObject({ kind: 'daily_reward', amount: 2.5, unit: 'USD', refund: null });
    const orders = (await t.call({ url: '/api/admin/fulfilment?kind=order&status=pending', as: admin })).json();
    const mine = orders.items.find((i: { id: number }) => i.id === itemId);
    expect(mine).toMatchObject({
      kind: 'order',
      description: 'Gift card',
      amount: 40,
      unit: 'points',
      status: 'pending',
      refund: { currency: 'points', amount: 40 },
      user: {
        id: buyer.user.id,
        kickUsername: 'kickbuyer',
        discordUsername: 'disc#1',
        roobetName: 'roo',
        clashId: 'c1',
        steamId: buyer.user.steamId,
      },
    });
    expect(
      orders.items.every((i: { kind: string; status: string }) => i.kind === 'order' && i.status === 'pending'),
    ).toBe(true);
    expect(orders.pendingCount).toBeGreaterThanOrEqual(2);
    expect((await t.call({ url: '/api/admin/fulfilment?status=lost', as: admin })).statusCode).toBe(400);
  });

  it('marks delivered with a note; the buyer sees it in My activity; a second action is refused', async () => {
    const { buyer, itemId } = await buy();
    const res = await deliver(itemId, admin, { note: 'Tip id 12345' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(fulfilmentMessages.delivered);
    const mine = (await t.call({ url: '/api/me/orders', as: buyer })).json();
    expect(mine.items[0]).toMatchObject({
      productName: 'Gift card',
      price: 40,
      status: 'delivered',
      note: 'Tip id 12345',
    });
    const again = await reject(itemId, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(fulfilmentMessages.alreadyHandled('delivered'));
    expect((await t.reload(buyer.user.id)).points).toBe('60.00');
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'fulfilment.deliver'), eq(auditLog.targetId, String(itemId))));
    expect(entry).toMatchObject({
      actorLabel: 'Ops',
      before: { status: 'pending' },
      after: { status: 'delivered', note: 'Tip id 12345' },
    });
  });

  it('two rejects racing (no deliver): exactly one refund, audited with before and after', async () => {
    for (let round = 0; round < 5; round++) {
      const { buyer, itemId } = await buy('10');
      const results = await Promise.all([reject(itemId, admin), reject(itemId, admin2)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await t.reload(buyer.user.id)).points).toBe('100.00');
      const audits = await t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'fulfilment.reject'), eq(auditLog.targetId, String(itemId))));
      expect(audits).toHaveLength(1);
      expect(audits[0]?.after).toMatchObject({ status: 'rejected', refund: { currency: 'points', amount: '10.00' } });
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('the refund in the reject message is written the way the site writes amounts (2,500.00)', async () => {
    const buyer = await t.signIn({ name: 'bigbuyer' });
    await givePoints(t, buyer.user.id, '2500');
    const product = await addProduct(t, { name: 'Big gift card', price: '2500' });
    const order = await t.call({
      method: 'POST',
      url: '/api/Order/OrderProduct',
      as: buyer,
      body: { productId: product.id },
    });
    expect(order.statusCode).toBe(200);
    const list = await t.call({ url: '/api/admin/fulfilment?status=pending&kind=order', as: admin });
    const item = list.json().items.find((i: { user: { id: string } }) => i.user.id === buyer.user.id);
    const res = await reject(item.id, admin);
    expect(res.json().message).toBe('Rejected; 2,500.00 points refunded.');
  });

  it('items without a refund reject without touching balances', async () => {
    const user = await t.signIn();
    const id = await t.database.db.transaction((tx) =>
      enqueueFulfilment(tx, {
        kind: 'challenge',
        reference: `challenge:${user.user.id}`,
        userId: user.user.id,
        description: 'Challenge prize',
        amount: 50,
        unit: 'USD',
      }),
    );
    const res = await reject(id!, admin);
    expect(res.json().message).toBe(fulfilmentMessages.rejected);
    expect((await t.reload(user.user.id)).points).toBe('0.00');
  });

  it('is admin only; unknown ids 404; over-long notes 400', async () => {
    const { buyer, itemId } = await buy();
    expect((await t.call({ url: '/api/admin/fulfilment' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/fulfilment', as: buyer })).statusCode).toBe(403);
    expect((await deliver(itemId, buyer)).statusCode).toBe(403);
    expect((await reject(itemId, null)).statusCode).toBe(401);
    expect((await deliver(99_999_999, admin)).statusCode).toBe(404);
    expect((await reject(99_999_999, admin)).json().message).toBe(fulfilmentMessages.notFound);
    const long = await deliver(itemId, admin, { note: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/note/);
    expect((await deliver(itemId, admin)).statusCode).toBe(200);
  });
});

describeRace('fulfilment: two admins reject at once', () => {
  // The file's app runs on PGlite: this block has its own, on PostgreSQL.
  useRaceApp(async (app) => {
    const saved = { t, admin, admin2 };
    t = app;
    admin = await app.signIn({ role: 'Admin', name: 'Ops' });
    admin2 = await app.signIn({ role: 'Admin', name: 'Ops2' });
    return () => ({ t, admin, admin2 } = saved);
  });

  it('rejecting refunds exactly once, even when two admins reject at once', async () => {
    const { buyer, itemId } = await buy('33.33');
    expect((await t.reload(buyer.user.id)).points).toBe('66.67');
    const results = await Promise.all([
      reject(itemId, admin, { note: 'Out of stock' }),
      reject(itemId, admin2, { note: 'Duplicate' }),
      reject(itemId, admin),
      deliver(itemId, admin2),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    const winner = results.find((r) => r.statusCode === 200)!;
    const refunds = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, buyer.user.id), eq(ledger.reason, 'order_refund')));
    if (winner.json().message === fulfilmentMessages.delivered) {
      expect(refunds).toHaveLength(0);
    } else {
      expect(winner.json().message).toBe(fulfilmentMessages.rejectedWithRefund('33.33 points'));
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ delta: '33.33', balanceAfter: '100.00' });
      expect((await t.reload(buyer.user.id)).points).toBe('100.00');
      const mine = (await t.call({ url: '/api/me/orders', as: buyer })).json();
      expect(mine.items[0].status).toBe('rejected');
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

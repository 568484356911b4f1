/**
 * Store limits (docs/features/store-limits.md): who may buy, a limit per window, a cooldown, the
 * admin's fields, and "notify me when back in stock" with its site notification and Discord DM.
 * The concurrency of the limits is limits.race.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import { kickChatActivity } from '../../db/schema/chat';
import { discordBroadcastRecipients, discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { notifications } from '../../db/schema/notifications';
import { products, storeRestockRequests } from '../../db/schema/store';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints } from '../../../test/economy';
import { windowOf } from './limits';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Limitkeeper' });
});
afterAll(async () => {
  await t?.close();
});

const order = (as: TestUser, productId: number) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });

async function buyer(): Promise<TestUser> {
  const b = await t.signIn();
  await givePoints(t, b.user.id, '1000');
  return b;
}

describe('windows', () => {
  it('a day starts at UTC midnight, a week on Monday 00:00 UTC, a cycle at its anchor plus whole periods', () => {
    const now = new Date('2026-12-09T15:30:00Z'); // a Wednesday
    expect(windowOf('day', now, null)).toEqual({
      start: new Date('2026-12-09T00:00:00Z'),
      next: new Date('2026-12-10T00:00:00Z'),
    });
    expect(windowOf('week', now, null)).toEqual({
      start: new Date('2026-12-07T00:00:00Z'),
      next: new Date('2026-12-14T00:00:00Z'),
    });
    expect(windowOf('week', new Date('2026-12-13T23:59:00Z'), null).start).toEqual(new Date('2026-12-07T00:00:00Z'));
    const cycle = { anchor: new Date('2026-11-01T12:00:00Z'), days: 14 };
    expect(windowOf('cycle', now, cycle)).toEqual({
      start: new Date('2026-11-29T12:00:00Z'),
      next: new Date('2026-12-13T12:00:00Z'),
    });
    expect(windowOf('ever', now, null)).toEqual({ start: null, next: null });
  });
});

describe('refusals', () => {
  it('a one-per-person product is bought once; the second says why', async () => {
    const b = await buyer();
    const p = await addProduct(t, { name: 'Once ever', price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'ever' }).where(eq(products.id, p.id));
    expect((await order(b, p.id)).statusCode).toBe(200);
    const again = await order(b, p.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Limit: 1 per person — you have bought it already.');
  });

  it('a per-day limit names the next day', async () => {
    const b = await buyer();
    const p = await addProduct(t, { name: 'Daily', price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'day' }).where(eq(products.id, p.id));
    expect((await order(b, p.id)).statusCode).toBe(200);
    const again = await order(b, p.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Limit: 1 per day — next on [A-Z][a-z]+day 00:00 UTC\.$/);
  });

  it('a subscribers-only product: refused without a subscription, sold with one', async () => {
    const b = await buyer();
    const p = await addProduct(t, { name: 'Subs hoodie', price: '1' });
    await t.database.db
      .update(products)
      .set({ restriction: { kind: 'subscribers' } })
      .where(eq(products.id, p.id));
    const refused = await order(b, p.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(storeMessages.subscribersOnly);
    await t.database.db.update(users).set({ kickId: 'kick-sub-1' }).where(eq(users.id, b.user.id));
    await t.database.db.insert(kickChatActivity).values({
      kickUserId: 'kick-sub-1',
      kickUsername: 'subber',
      isSubscriber: false,
      subscribedUntil: new Date(Date.now() + 86_400_000),
      updatedAt: new Date(),
    });
    expect((await order(b, p.id)).statusCode).toBe(200);
    expect((await t.reload(b.user.id)).points).toBe('999.00');
  });

  it('a restriction this release does not know refuses', async () => {
    const b = await buyer();
    const p = await addProduct(t, { name: 'Tier item', price: '1' });
    await t.database.db
      .update(products)
      .set({ restriction: { kind: 'tier', tier: 3 } })
      .where(eq(products.id, p.id));
    expect((await order(b, p.id)).statusCode).toBe(403);
  });

  it('a rejected (refunded) order does not count toward the limit', async () => {
    const b = await buyer();
    const p = await addProduct(t, { name: 'Refundable', price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'week' }).where(eq(products.id, p.id));
    const first = await order(b, p.id);
    expect(first.statusCode).toBe(200);
    await t.database.db.execute(
      sql`UPDATE fulfilment_items SET status = 'rejected' WHERE kind = 'order' AND reference = ${String(first.json().orderId)}`,
    );
    expect((await order(b, p.id)).statusCode).toBe(200);
  });
});

describe('admin fields', () => {
  it('saves the limits and shows them in the catalogue; a half limit is refused on its field', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: {
        name: 'Weekly case',
        price: 10,
        category: 'Cases',
        limitCount: 1,
        limitWindow: 'week',
        cooldownMinutes: 30,
        restriction: { kind: 'subscribers' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().limits).toEqual({
      limitCount: 1,
      limitWindow: 'week',
      limitSite: null,
      cooldownMinutes: 30,
      restriction: { kind: 'subscribers' },
    });
    const catalogue = await t.call({ url: '/api/Product/GetProducts' });
    const listed = (catalogue.json().data as Array<{ name: string; limits?: unknown }>).find(
      (p) => p.name === 'Weekly case',
    );
    expect(listed?.limits).toMatchObject({ limitCount: 1, limitWindow: 'week' });

    const half = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Half', price: 10, category: 'Cases', limitCount: 2 },
    });
    expect(half.statusCode).toBe(400);
    expect(half.json().fields).toEqual([{ path: 'limitWindow', message: 'Choose the window the limit counts in.' }]);

    const noSite = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Cycle', price: 10, category: 'Cases', limitCount: 2, limitWindow: 'cycle', limitSite: 999 },
    });
    expect(noSite.statusCode).toBe(400);
    expect(noSite.json().message).toBe('Choose a leaderboard that exists.');
  });
});

describe('back in stock', () => {
  it('askers get one site notification and a Discord DM (when linked) per restock', async () => {
    const linked = await t.signIn({ name: 'Asker linked' });
    const plain = await t.signIn({ name: 'Asker plain' });
    await t.database.db
      .update(users)
      .set({ discordId: '777000111', discordUsername: 'asker' })
      .where(eq(users.id, linked.user.id));
    const created = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Rare knife', price: 10, category: 'Skins', stock: 0 },
    });
    const id = created.json().id as number;
    const ask = (as: TestUser | null) => t.call({ method: 'POST', url: `/api/store/products/${id}/restock-alert`, as });
    expect((await ask(null)).statusCode).toBe(401);
    const asked = await ask(linked);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(storeMessages.restockRequested('Rare knife'));
    expect((await ask(linked)).statusCode).toBe(200); // twice is one request
    expect((await ask(plain)).statusCode).toBe(200);

    const restock = (stock: number) =>
      t.call({
        method: 'PUT',
        url: `/api/admin/products/${id}`,
        as: admin,
        body: { name: 'Rare knife', price: 10, category: 'Skins', stock },
      });
    expect((await restock(2)).statusCode).toBe(200);
    expect((await restock(3)).statusCode).toBe(200); // still in stock: nobody is told twice

    const mine = await t.call({ url: '/api/notifications', as: linked });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      unread: 1,
      items: [
        { kind: 'store.restock', text: 'Rare knife is back in stock in the store.', link: '/store', read: false },
      ],
    });
    expect((await t.call({ url: '/api/notifications', as: plain })).json().unread).toBe(1);
    const recipients = await t.database.db
      .select({ userId: discordBroadcastRecipients.userId, message: discordBroadcasts.message })
      .from(discordBroadcastRecipients)
      .innerJoin(discordBroadcasts, eq(discordBroadcasts.id, discordBroadcastRecipients.broadcastId));
    expect(recipients.filter((r) => r.message.startsWith('Rare knife'))).toEqual([
      { userId: linked.user.id, message: 'Rare knife is back in stock in the store. Buy it before it goes again.' },
    ]);
    expect(
      await t.database.db.select().from(storeRestockRequests).where(eq(storeRestockRequests.productId, id)),
    ).toEqual([]);

    // In stock: asking is refused; sold out and restocked again: told again.
    expect((await ask(plain)).statusCode).toBe(409);
    await restock(0);
    expect((await ask(plain)).statusCode).toBe(200);
    await restock(1);
    expect((await t.call({ url: '/api/notifications', as: plain })).json().unread).toBe(2);
  });

  it("marks only the reader's own notifications read", async () => {
    const a = await t.signIn();
    const b = await t.signIn();
    await t.database.db.insert(notifications).values([
      { userId: a.user.id, kind: 'test', text: 'For a' },
      { userId: b.user.id, kind: 'test', text: 'For b' },
    ]);
    const bList = (await t.call({ url: '/api/notifications', as: b })).json();
    const stolen = await t.call({
      method: 'POST',
      url: '/api/notifications/read',
      as: a,
      body: { ids: [bList.items[0].id] },
    });
    expect(stolen.statusCode).toBe(200);
    expect((await t.call({ url: '/api/notifications', as: b })).json().unread).toBe(1);
    const all = await t.call({ method: 'POST', url: '/api/notifications/read', as: a, body: {} });
    expect(all.json().message).toBe('1 notification marked read.');
    expect((await t.call({ url: '/api/notifications', as: a })).json()).toMatchObject({
      unread: 0,
      items: [{ read: true }],
    });
  });
});

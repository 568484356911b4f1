import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../db/schema/sessions';
import type { UserRow } from '../db/schema/users';
import { sha256Hex } from './random';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { redisForTest, testRedisUrl } from '../../test/redis';
import { addProduct, givePoints } from '../../test/economy';
import { SessionCache } from './session-cache';

const user = (id: string) => ({ id }) as UserRow;
const session = (id: string, userId: string, expiresAt = new Date(10_000_000)) => ({
  id,
  user: user(userId),
  expiresAt,
});

describe('SessionCache', () => {
  it('serves an entry for its TTL only, and never past the session expiry', () => {
    const cache = new SessionCache(5_000, 10);
    cache.set(session('a', 'u1'), 1_000);
    expect(cache.get('a', 5_999)?.user.id).toBe('u1');
    expect(cache.get('a', 6_000)).toBeNull();
    cache.set(session('b', 'u1', new Date(2_000)), 1_000);
    expect(cache.get('b', 1_999)).not.toBeNull();
    expect(cache.get('b', 2_000)).toBeNull();
    cache.set(session('c', 'u1', new Date(500)), 1_000);
    expect(cache.get('c', 1_000)).toBeNull();
  });

  it('is bounded: the oldest entry goes first', () => {
    const cache = new SessionCache(5_000, 2);
    cache.set(session('a', 'u1'), 0);
    cache.set(session('b', 'u2'), 0);
    cache.set(session('c', 'u3'), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeNull();
    expect(cache.get('c', 1)).not.toBeNull();
  });

  it('evicts a session, or every session of a user, and tells listeners', () => {
    const cache = new SessionCache();
    const heard: unknown[] = [];
    cache.onEvict((e) => heard.push(e));
    cache.set(session('a', 'u1'), 0);
    cache.set(session('b', 'u1'), 0);
    cache.set(session('c', 'u2'), 0);
    cache.evict({ sessionId: 'c' });
    expect(cache.get('c', 1)).toBeNull();
    cache.evict({ userId: 'u1' });
    expect(cache.size).toBe(0);
    cache.set(session('d', 'u3'), 0);
    cache.evictLocally({ userId: 'u3' });
    expect(cache.size).toBe(0);
    expect(heard).toEqual([{ sessionId: 'c' }, { userId: 'u1' }]);
  });
});

describe('identity-only routes read sessions through the cache', () => {
  let t: TestApp;
  let productId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    productId = (await addProduct(t, { name: 'Sticker', price: '1', category: 'Merch' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const order = (as: TestUser) => t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId } });
  const sessionIdOf = (u: TestUser) => sha256Hex(u.cookie.split('=')[1]!);

  it('caches the session of an order, and signing out ends access at once', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10');
    expect((await order(buyer)).statusCode).toBe(200);
    expect(t.app.sessionCache.get(sessionIdOf(buyer), t.clock.now().getTime())?.user.id).toBe(buyer.user.id);

    const out = await t.call({ url: '/auth/signout', as: buyer });
    expect(out.statusCode).toBe(200);
    expect(t.app.sessionCache.get(sessionIdOf(buyer), t.clock.now().getTime())).toBeNull();
    expect((await order(buyer)).statusCode).toBe(401);
  });

  it('a role revoked through the admin API takes effect on the next request', async () => {
    const boss = await t.signIn({ role: 'Admin' });
    const other = await t.signIn({ role: 'Admin' });
    await givePoints(t, other.user.id, '10');
    expect((await order(other)).statusCode).toBe(200); // cached now
    expect((await t.call({ url: '/api/admin/users', as: other })).statusCode).not.toBe(403);

    const revoked = await t.call({
      method: 'POST',
      url: `/api/admin/users/${other.user.id}/role`,
      as: boss,
      body: { role: 'User' },
    });
    expect(revoked.statusCode).toBe(200);
    expect(t.app.sessionCache.get(sessionIdOf(other), t.clock.now().getTime())).toBeNull();
    expect((await t.call({ url: '/api/admin/users', as: other })).statusCode).toBe(403);
    expect((await order(other)).statusCode).toBe(200); // still a signed-in user
  });

  it('a session deleted elsewhere stops working within the TTL; expiry is honoured', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10');
    expect((await order(buyer)).statusCode).toBe(200);
    // Another process signs the session out (the row goes, this process is not told).
    await t.database.db.delete(sessions).where(eq(sessions.id, sessionIdOf(buyer)));
    t.clock.advance(5_000);
    expect((await order(buyer)).statusCode).toBe(401);

    const late = await t.signIn();
    await givePoints(t, late.user.id, '10');
    const expiresAt = new Date(t.clock.now().getTime() + 2_000);
    await t.database.db
      .update(sessions)
      .set({ expiresAt })
      .where(eq(sessions.id, sessionIdOf(late)));
    expect((await order(late)).statusCode).toBe(200); // cached, 2 s before the session expires
    t.clock.advance(1_999);
    expect((await order(late)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await order(late)).statusCode).toBe(401);
  });
});

const missing = await redisForTest('session cache sync test');

describe.skipIf(missing !== null)('with Redis, evictions reach the other processes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: `kbtest:sc:${randomBytes(4).toString('hex')}:` };
    a = await buildTestApp({ env });
    // A second process on the same database.
    b = await buildTestApp({ env, database: a.database as TestApp['database'] & { drop(): Promise<void> } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('signing out on one process ends access on the other at once', async () => {
    const productId = (await addProduct(a, { name: 'Pin', price: '1', category: 'Merch' })).id;
    const buyer = await a.signIn();
    await givePoints(a, buyer.user.id, '10');
    const buy = (on: TestApp) =>
      on.call({ method: 'POST', url: '/api/Order/OrderProduct', as: buyer, body: { productId } });
    expect((await buy(a)).statusCode).toBe(200); // cached on a
    expect((await b.call({ url: '/auth/signout', as: buyer })).statusCode).toBe(200);
    await expect.poll(() => a.app.sessionCache.size, { timeout: 20_000 }).toBe(0);
    expect((await buy(a)).statusCode).toBe(401);
  });
});

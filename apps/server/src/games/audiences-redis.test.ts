/**
 * Audiences across processes: two app instances on one database, each with its own Socket.IO
 * server, joined only through Redis (the streams adapter), as two processes behind a load
 * balancer are. A change made on one reaches each audience on the other with its own cut; a
 * user's sockets on both get what is sent to that user; the admins on both get theirs.
 *
 * Needs Redis (TEST_REDIS_URL, else redis://127.0.0.1:6379): skipped outside CI when it is not
 * there, with the reason printed; in CI a missing Redis fails it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { HighLowStatus, highLowHub, type HighLowState } from '@kickback/common/testing/high-low';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { registerHighLow } from '../../test/high-low-game';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisMissing(): Promise<string | null> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return `Redis at ${redisUrl} is not reachable (${(err as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

const missing = await redisMissing();
if (missing) {
  if (process.env.CI) throw new Error(`audiences across processes: ${missing}`);
  console.log(`audiences across processes SKIPPED: ${missing}`);
}

describe.skipIf(missing !== null)('audiences across two processes joined by Redis', () => {
  const prefix = `kbtest:aud:${randomBytes(4).toString('hex')}:`;
  const clients: HubClient[] = [];
  const apps: TestApp[] = [];
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let game: ReturnType<typeof registerHighLow>;
  let urls: [string, string];
  let admin: TestUser;
  let owner: TestUser;
  const clock = new WallClock();

  beforeAll(async () => {
    database = await openTestDatabase();
    const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
    const a = await buildTestApp({ database, clock, env, routes: (app) => void (game = registerHighLow(app)) });
    const b = await buildTestApp({ database, clock, env, routes: (app) => void registerHighLow(app) });
    apps.push(a, b);
    urls = [await listen(a.app), await listen(b.app)];
    admin = await a.signIn({ role: 'Admin', name: 'Host' });
    owner = await a.signIn({ name: 'Olive' });
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const a of apps) await a.close().catch(() => undefined);
    await database?.drop();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const connect = (url: string, gameId: string, who: TestUser | null) => {
    const c = new HubClient(url, highLowHub, { query: { gameid: gameId }, ...(who ? { cookie: who.cookie } : {}) });
    clients.push(c);
    return c.connected();
  };

  it('cuts the state per audience on the other process, and reaches one user and the admins there', async () => {
    const [a, b] = urls;
    const gameId = await game.create(owner.user.id, { secret: 7, seconds: 5, prizeCents: 500n });
    const ownerOnA = await connect(a, gameId, owner);
    const ownerOnB = await connect(b, gameId, owner);
    const hostOnB = await connect(b, gameId, admin);
    const visitorOnB = await connect(b, gameId, null);

    await ownerOnA.ok('Start'); // the change and its emit happen on A
    const picked = await ownerOnA.ok<HighLowState>('Guess', 'high');
    const v3 = (c: HubClient) => c.waitFor<HighLowState>('ReceiveGameState', (s) => s.version === 3, 15_000);
    expect(await v3(ownerOnB)).toMatchObject({ pick: 'high', secret: null });
    expect(await v3(hostOnB)).toMatchObject({ pick: null, secret: 7 });
    expect(await v3(visitorOnB)).toMatchObject({ pick: null, secret: null });
    for (const c of [ownerOnB, hostOnB, visitorOnB]) {
      expect(c.events<HighLowState>('ReceiveGameState').map((s) => s.version)).toEqual([2, 3]);
    }

    // The deadline fires on whichever process gets there first; both owner tabs hear of the win.
    const revealed = await visitorOnB.waitFor<HighLowState>(
      'ReceiveGameState',
      (s) => s.status === HighLowStatus.Revealed,
      15_000,
    );
    expect(revealed).toMatchObject({ secret: 7, pick: 'high', won: '5.00' });
    expect(new Date(picked.phaseEndsAt!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await ownerOnA.waitFor('YouWon', () => true, 15_000)).toEqual({ gameId, amount: '5.00' });
    expect(await ownerOnB.waitFor('YouWon', () => true, 15_000)).toEqual({ gameId, amount: '5.00' });
    expect(await hostOnB.waitFor('Settled', () => true, 15_000)).toEqual({ gameId, won: '5.00' });
    for (const c of [hostOnB, visitorOnB, ownerOnA]) await c.ok('GetGameState'); // round trips after the emits
    expect(visitorOnB.events('YouWon')).toEqual([]);
    expect(hostOnB.events('YouWon')).toEqual([]);
    expect(visitorOnB.events('Settled')).toEqual([]);
    expect(ownerOnA.events('Settled')).toEqual([]);
    expect(ownerOnA.events('YouWon')).toHaveLength(1);
  });
});

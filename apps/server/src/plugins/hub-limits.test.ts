/**
 * What one person may ask of the hubs however many sockets they open: a call budget per user
 * (per address for visitors) shared by all their sockets and, through Redis, every process; a cap
 * on open sockets; and a room's state broadcasts folded so a flood of changes is a few frames.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { defaultHubLimits, type HubLimits } from '../lib/hub-limits';
import { roomOf } from '../modules/split-or-steal/repository';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { redisForTest, testRedisUrl } from '../../test/redis';

const clients: HubClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

async function newGame(t: TestApp, admin: TestUser): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    body: { reward: 1, counterInSeconds: 5, isPrivate: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().gameId as string;
}

/** Visitors come from 203.0.113.7 (through a trusted proxy): loopback peers are not limited per address. */
function socket(url: string, gameId: string, who: TestUser | null, from = '203.0.113.7'): HubClient {
  const c = new HubClient(url, splitOrStealHub, {
    query: { gameid: gameId },
    headers: { 'x-forwarded-for': from },
    ...(who ? { cookie: who.cookie } : {}),
  });
  clients.push(c);
  return c;
}

/** One call from each socket at once; how many were answered ok. */
async function oneCallEach(sockets: HubClient[]): Promise<number> {
  const results = await Promise.all(sockets.map((s) => s.call('GetGameState')));
  for (const r of results) if (!r.ok) expect(r.error).toBe('Too many requests. Please slow down.');
  return results.filter((r) => r.ok).length;
}

// A budget of 60 calls a minute: no window boundary falls inside a test.
const tight: HubLimits = {
  ...defaultHubLimits,
  userCallsPerSecond: 1,
  ipCallsPerSecond: 1,
  windowSeconds: 60,
  socketsPerUser: 200,
  socketsPerIp: 200,
  strikes: 1000,
};

describe('call budgets', () => {
  let t: TestApp;
  let url: string;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new WallClock(), socketLimits: tight, env: { TRUST_PROXY: '1' } });
    url = await listen(t.app);
    admin = await t.signIn({ role: 'Admin' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('100 sockets of one user share that user’s budget', async () => {
    const gameId = await newGame(t, admin);
    const player = await t.signIn({ name: 'Hundred' });
    const sockets = Array.from({ length: 100 }, () => socket(url, gameId, player));
    await Promise.all(sockets.map((s) => s.connected()));
    expect(await oneCallEach(sockets)).toBe(60);
    // Another user is not affected.
    const other = await socket(url, gameId, await t.signIn()).connected();
    expect(await other.call('GetGameState')).toMatchObject({ ok: true });
  });

  it('visitors’ sockets from one address share that address’s budget', async () => {
    const gameId = await newGame(t, admin);
    const sockets = Array.from({ length: 100 }, () => socket(url, gameId, null));
    await Promise.all(sockets.map((s) => s.connected()));
    expect(await oneCallEach(sockets)).toBe(60);
    // Another address is not affected.
    expect(
      await socket(url, gameId, null, '198.51.100.9')
        .connected()
        .then((s) => s.call('GetGameState')),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe('socket caps', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp({
      socketLimits: { ...defaultHubLimits, socketsPerUser: 3, socketsPerIp: 4 },
      env: { TRUST_PROXY: '1' },
    });
    url = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuse a user’s socket beyond the cap, on any hub, until one closes', async () => {
    const admin = await t.signIn({ role: 'Admin' });
    const gameId = await newGame(t, admin);
    const me = await t.signIn();
    const open = [socket(url, gameId, me), socket(url, gameId, me), socket(url, gameId, me)];
    await Promise.all(open.map((s) => s.connected()));
    const fourth = socket(url, gameId, me);
    expect((await fourth.refused()).data?.code).toBe('too_many');
    open[0]!.close();
    await open[0]!.until(() => !open[0]!.socket.connected, 'closed');
    await new Promise((r) => setTimeout(r, 100)); // the server hears the close
    await socket(url, gameId, me).connected();
    // Visitors are counted per address.
    const visitors = Array.from({ length: 4 }, () => socket(url, gameId, null));
    await Promise.all(visitors.map((s) => s.connected()));
    expect((await socket(url, gameId, null).refused()).data?.code).toBe('too_many');
    await socket(url, gameId, null, '198.51.100.9').connected(); // another address
    // Loopback peers (a local proxy without TRUST_PROXY, benchmarks) are not capped per address.
    const local = Array.from({ length: 6 }, () => socket(url, gameId, null, '127.0.0.1'));
    await Promise.all(local.map((s) => s.connected()));
  });
});

describe('behind a proxy that appends the client (TRUST_PROXY as a hop count or the proxy address)', () => {
  for (const trust of ['1', '127.0.0.1']) {
    it(`TRUST_PROXY=${trust}: a new forged leftmost address per socket and per call is still one address`, async () => {
      const t = await buildTestApp({
        clock: new WallClock(),
        socketLimits: { ...tight, socketsPerIp: 4 },
        env: { TRUST_PROXY: trust },
      });
      try {
        const url = await listen(t.app);
        const gameId = await newGame(t, await t.signIn({ role: 'Admin' }));
        const forged = (n: number) => socket(url, gameId, null, `192.0.2.${n}, 203.0.113.77`);
        const open = [1, 2, 3, 4].map(forged);
        await Promise.all(open.map((s) => s.connected()));
        expect((await forged(5).refused()).data?.code).toBe('too_many');
        // The four share the real address's call budget (60 a minute): 60 answered of 4 × 20.
        const calls = await Promise.all(open.flatMap((s) => Array.from({ length: 20 }, () => s.call('GetGameState'))));
        expect(calls.filter((r) => r.ok)).toHaveLength(60);
        // Another real client is not affected.
        await socket(url, gameId, null, '192.0.2.1, 203.0.113.78').connected();
      } finally {
        for (const c of clients.splice(0)) c.close();
        await t.close();
      }
    });
  }
});

describe('coalescing a room’s state broadcasts', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp({ socketLimits: { ...defaultHubLimits, coalesceMs: 3000 } });
    url = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends the first change at once and folds a flood into one more frame with the newest state', async () => {
    const admin = await t.signIn({ role: 'Admin' });
    const gameId = await newGame(t, admin);
    const watcher = await socket(url, gameId, null).connected();
    const frames = () => watcher.events<{ version: number }>('ReceiveGameState');
    const emit = (version: number) =>
      t.app.realtime.emitPerAudience(splitOrStealHub, roomOf(gameId), 'ReceiveGameState', {
        watcher: { id: gameId, version } as never,
      });

    const started = Date.now();
    emit(1);
    await watcher.waitFor<{ version: number }>('ReceiveGameState', (s) => s.version === 1);
    // Not held for the window (3 s: wide enough that a starved CI machine's delay is not mistaken
    // for it).
    expect(Date.now() - started).toBeLessThan(2500);
    for (let v = 2; v <= 500; v++) emit(v);
    await watcher.waitFor<{ version: number }>('ReceiveGameState', (s) => s.version === 500, 20_000);
    expect(frames().map((f) => f.version)).toEqual([1, 500]);
  });
});

const missing = await redisForTest('hub budgets across processes');

describe.skipIf(missing !== null)('a user’s budget across two processes joined by Redis', () => {
  const prefix = `kbtest:budget:${randomBytes(4).toString('hex')}:`;
  const apps: TestApp[] = [];
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  afterAll(async () => {
    for (const a of apps) await a.close().catch(() => undefined);
    await database?.drop();
    const redis = new Redis(testRedisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('is one budget: 40 sockets on each process still get 60 calls in all', async () => {
    database = await openTestDatabase();
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: prefix, TRUST_PROXY: '1' };
    apps.push(
      await buildTestApp({ database, env, socketLimits: tight }),
      await buildTestApp({ database, env, socketLimits: tight }),
    );
    const urls = [await listen(apps[0]!.app), await listen(apps[1]!.app)];
    const admin = await apps[0]!.signIn({ role: 'Admin' });
    const gameId = await newGame(apps[0]!, admin);
    const player = await apps[0]!.signIn({ name: 'TwoPlaces' });
    const sockets = urls.flatMap((u) => Array.from({ length: 40 }, () => socket(u, gameId, player)));
    await Promise.all(sockets.map((s) => s.connected()));
    expect(await oneCallEach(sockets)).toBe(60);
  });
});

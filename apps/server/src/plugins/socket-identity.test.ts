/**
 * A socket keeps the identity of its handshake, so a change of identity closes it: sign-out closes
 * that session's sockets (not the user's other sessions), a role change or an exclusion closes all
 * of the user's, on every process (across Redis). The client reconnects and the handshake reads
 * the session afresh.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { giveawayHub } from '@kickback/common/hubs/giveaway';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { redisForTest, testRedisUrl } from '../../test/redis';

const clients: HubClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

function open(url: string, hub: typeof splitOrStealHub | typeof giveawayHub, who: TestUser, query = {}) {
  const c = new HubClient(url, hub, { query, cookie: who.cookie });
  clients.push(c);
  return c.connected();
}

async function privateGame(t: TestApp, admin: TestUser, p1: TestUser, p2: TestUser): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    body: { reward: 5, counterInSeconds: 5, isPrivate: true, player1UserId: p1.user.id, player2UserId: p2.user.id },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().gameId as string;
}

const disconnected = (c: HubClient) => c.until(() => !c.socket.connected, 'disconnect', 5000);

describe('one process', () => {
  let t: TestApp;
  let url: string;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new WallClock() });
    url = await listen(t.app);
    admin = await t.signIn({ role: 'Admin', name: 'Host' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sign-out closes that session’s sockets: the private game is no longer readable through them', async () => {
    const alice = await t.signIn({ name: 'Alice' });
    const bob = await t.signIn({ name: 'Bob' });
    const aliceOtherTab = { ...alice, cookie: (await t.signIn({ steamId: alice.user.steamId })).cookie };
    const gameId = await privateGame(t, admin, alice, bob);
    const before = await open(url, splitOrStealHub, alice, { gameid: gameId });
    const other = await open(url, splitOrStealHub, aliceOtherTab, { gameid: gameId });
    expect(await before.ok('GetGameState')).toMatchObject({ id: gameId });

    const res = await t.call({ url: '/auth/signout', as: alice });
    expect(res.statusCode).toBeLessThan(400);
    await disconnected(before);
    expect(before.socket.connected).toBe(false);
    // Reconnecting with the dead cookie is a visitor's socket: the game is private to it.
    const again = await open(url, splitOrStealHub, alice, { gameid: gameId });
    expect(await again.ok('GetGameState')).toBeNull();
    // Her other session is untouched.
    expect(other.socket.connected).toBe(true);
    expect(await other.ok('GetGameState')).toMatchObject({ id: gameId });
  });

  it('a demoted admin’s giveaway socket is closed and, reconnected, gets no admin events', async () => {
    const host = await t.signIn({ role: 'Admin', name: 'Deputy' });
    const deputy = await open(url, giveawayHub, host);
    const boss = await open(url, giveawayHub, admin);
    await boss.ok('ClearParticipants');
    await deputy.waitFor('ReceiveParticipants');
    const firstId = deputy.socket.id;

    const res = await t.call({
      method: 'POST',
      url: `/api/admin/users/${host.user.id}/role`,
      as: admin,
      body: { role: 'User' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Closed by the server; the web client then reconnects, with a fresh identity: a User's.
    await disconnected(deputy);
    deputy.socket.connect();
    await deputy.until(() => deputy.socket.connected && deputy.socket.id !== firstId, 'reconnect', 5000);
    deputy.received.splice(0);
    await boss.ok('ClearParticipants');
    await boss.waitFor('ReceiveParticipants', () => boss.events('ReceiveParticipants').length >= 2);
    expect(await deputy.call('GetState')).toMatchObject({ ok: false });
    expect(deputy.events('ReceiveParticipants')).toEqual([]);
  });

  it('an exclusion closes every socket of the user', async () => {
    const carol = await t.signIn({ name: 'Carol' });
    const dave = await t.signIn({ name: 'Dave' });
    const gameId = await privateGame(t, admin, carol, dave);
    const a = await open(url, splitOrStealHub, carol, { gameid: gameId });
    const b = await open(
      url,
      splitOrStealHub,
      { ...carol, cookie: (await t.signIn({ steamId: carol.user.steamId })).cookie },
      { gameid: gameId },
    );
    const daves = await open(url, splitOrStealHub, dave, { gameid: gameId });
    const res = await t.call({
      method: 'POST',
      url: `/api/admin/users/${carol.user.id}/excluded`,
      as: admin,
      body: { excluded: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    await disconnected(a);
    await disconnected(b);
    expect(daves.socket.connected).toBe(true);
  });
});

const missing = await redisForTest('socket identity across processes');

describe.skipIf(missing !== null)('two processes joined by Redis', () => {
  const prefix = `kbtest:sid:${randomBytes(4).toString('hex')}:`;
  const apps: TestApp[] = [];
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let urls: [string, string];

  beforeAll(async () => {
    database = await openTestDatabase();
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: prefix };
    const clock = new WallClock();
    apps.push(await buildTestApp({ database, clock, env }), await buildTestApp({ database, clock, env }));
    urls = [await listen(apps[0]!.app), await listen(apps[1]!.app)];
  });
  afterAll(async () => {
    for (const a of apps) await a.close().catch(() => undefined);
    await database?.drop();
    const redis = new Redis(testRedisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('sign-out on one process closes the session’s socket on the other', async () => {
    const [a] = apps as [TestApp, TestApp];
    const admin = await a.signIn({ role: 'Admin', name: 'Host' });
    const erin = await a.signIn({ name: 'Erin' });
    const fred = await a.signIn({ name: 'Fred' });
    const gameId = await privateGame(a, admin, erin, fred);
    const onB = await open(urls[1], splitOrStealHub, erin, { gameid: gameId });
    const fredOnB = await open(urls[1], splitOrStealHub, fred, { gameid: gameId });
    expect(await onB.ok('GetGameState')).toMatchObject({ id: gameId });
    expect((await a.call({ url: '/auth/signout', as: erin })).statusCode).toBeLessThan(400);
    await disconnected(onB);
    expect(fredOnB.socket.connected).toBe(true);
  });
});

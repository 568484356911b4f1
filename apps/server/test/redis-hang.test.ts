/**
 * A Redis that hangs under two server processes: the test's own redis-server is paused (SIGSTOP:
 * connections stay open, nothing answers) and resumed (SIGCONT). Unlike a Redis that is gone, no
 * connection closes, so only command timeouts tell (lib/redis.ts): both processes go `degraded`
 * with no request but `/healthz` (the heartbeat notices the hang), requests answer as fast as with
 * Redis up (compared with the same run's own figures), the hang is logged once, a broadcast
 * reaches the process's own sockets — and after SIGCONT both processes are healthy again and a
 * broadcast on one reaches sockets on the other, a game's frames included.
 *
 * Needs PostgreSQL and the `redis-server` binary (docs/operations-redis-outage.md#when-redis-goes-away).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveawayHub } from '@kickback/common/hubs/giveaway';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { COMMAND_TIMEOUT_MS, HEARTBEAT_MS } from '../src/lib/redis';
import { HubClient } from './hub-client';
import { broadcastReaches, health, OwnRedisPair, ownRedisPairMissing, until } from './own-redis-pair';

const missing = await ownRedisPairMissing();
if (missing) {
  if (process.env.CI) throw new Error(`Redis hang test: ${missing}`);
  console.log(`Redis hang test SKIPPED: ${missing}`);
}

it('notices a hang within a second by design: a heartbeat, then a command timeout and its confirmation', () => {
  expect(HEARTBEAT_MS + 2 * COMMAND_TIMEOUT_MS).toBeLessThan(1000);
});

describe.skipIf(missing !== null)('a Redis that hangs under two server processes', () => {
  const pair = new OwnRedisPair('redis_hang');
  const { clients } = pair;

  beforeAll(() => pair.start());
  afterAll(() => pair.stop());

  it('goes degraded on its own, keeps answering as fast as with Redis up, and rejoins on SIGCONT', async () => {
    const { urls } = pair;
    const host = await pair.person('Host', 'Admin');
    const [onA, onB] = await Promise.all(
      urls.map((url) => new HubClient(url, giveawayHub, { query: {}, cookie: host.cookie }).connected()),
    );
    clients.push(onA!, onB!);
    await broadcastReaches(onA!, onB!);
    // More sockets for the timed hub calls: one socket's own budget is a burst of 20 calls.
    const callers = await Promise.all(
      [0, 1, 0, 1, 0, 1].map((i) =>
        new HubClient(urls[i]!, giveawayHub, { query: {}, cookie: host.cookie }).connected(),
      ),
    );
    clients.push(...callers);

    const sender = { userId: '7700102', username: 'hang_fan' };
    const measure = (rounds: number) => pair.measure(rounds, host.cookie, callers, sender);
    const healthy = await measure(60);

    // Redis hangs: its connections stay open and nothing answers. Only /healthz is asked meanwhile.
    pair.redis!.kill('SIGSTOP');
    const noticedAfter = await Promise.all(
      urls.map((url) => until(async () => (await health(url))?.status === 'degraded', 'degraded')),
    );
    console.log('degraded after (ms):', noticedAfter);
    for (const url of urls) {
      expect(await health(url)).toMatchObject({ status: 'degraded', database: 'postgres', redis: 'unreachable' });
      expect(await (await fetch(`${url}/metrics`)).text()).toMatch(/^kickback_redis_up 0$/m);
    }

    // A request that still waited on Redis would take its command timeout (300 ms) or more: the
    // typical one stays near the healthy median, the slowest near the healthy p99. Measured up to
    // three times, as in redis-outage.test.ts (docs/conventions.md#timeouts).
    const tooSlow = (down: Awaited<ReturnType<typeof measure>>) => [
      ...Object.entries(down.median)
        .filter(([kind, ms]) => ms >= Math.max(COMMAND_TIMEOUT_MS / 2, 2 * healthy.median[kind]!))
        .map(([kind, ms]) => `${kind} median ${ms} ms`),
      ...Object.entries(down.p99)
        .filter(([kind, ms]) => ms >= Math.max(COMMAND_TIMEOUT_MS, 3 * healthy.p99[kind]!))
        .map(([kind, ms]) => `${kind} p99 ${ms} ms`),
    ];
    let slow: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const down = await measure(100);
      slow = tooSlow(down);
      console.log('latency (ms) with Redis up:', healthy, `with Redis hanging (attempt ${attempt}):`, down);
      if (slow.length === 0) break;
    }
    expect(slow, 'requests too slow in every attempt while Redis hung').toEqual([]);

    // A broadcast still reaches this process's own sockets; the hang is logged once per process.
    await broadcastReaches(onA!, onA!);
    // Log lines reach standard output in batches within 250 ms (docs/operations.md#logs).
    for (const { log } of pair.servers.members)
      await expect.poll(() => log.join('').match(/Redis unreachable/g) ?? []).toHaveLength(1);

    // Redis answers again (with its data): both processes rejoin, and frames cross again both ways.
    pair.redis!.kill('SIGCONT');
    const rejoined = await Promise.all(
      urls.map((url) => until(async () => (await health(url))?.status === 'ok', 'ok')),
    );
    console.log('rejoined after (ms):', rejoined);
    for (const url of urls) expect(await (await fetch(`${url}/metrics`)).text()).toMatch(/^kickback_redis_up 1$/m);
    await broadcastReaches(onA!, onB!);
    await broadcastReaches(onB!, onA!);
    // A game's frames cross again: a player joins on A, a spectator on B gets the new state.
    const created = await fetch(`${urls[0]}/api/SplitOrStealGame/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie: host.cookie },
      body: JSON.stringify({ reward: 1, counterInSeconds: 60 }),
    });
    expect(created.status).toBe(200);
    const { gameId } = (await created.json()) as { gameId: string };
    const alice = await pair.person('Alice', 'User');
    const spectator = new HubClient(urls[1], splitOrStealHub, { query: { gameid: gameId } });
    const player = new HubClient(urls[0], splitOrStealHub, { query: { gameid: gameId }, cookie: alice.cookie });
    clients.push(spectator, player);
    await Promise.all([spectator.connected(), player.connected()]);
    await player.ok('JoinGame', 1);
    await spectator.waitFor<SplitOrStealState>('ReceiveGameState', (state) => state.version >= 2, 20_000);
    for (const { log } of pair.servers.members)
      await expect.poll(() => log.join('').match(/Redis reachable again/g) ?? []).toHaveLength(1);
  });
});

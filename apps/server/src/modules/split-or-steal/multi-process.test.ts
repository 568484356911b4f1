/**
 * Two real server processes sharing one PostgreSQL database and one Redis: a player connected to
 * one process and a spectator connected to the other see the same game states in the same order,
 * whichever process made the change or fired the deadline.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { HubClient } from '../../../test/hub-client';
import { missing, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('two server processes on one PostgreSQL and one Redis', () => {
  const mp = serversOnFreshDatabase({ tag: 'mp' });
  const { person } = mp;
  const clients: HubClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  it('a player on one process and a spectator on the other see the same states in order', async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host', 'Admin');
    const alice = await person('Alice');
    const bob = await person('Bob');
    const res = await fetch(`${a}/api/SplitOrStealGame/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie: host.cookie },
      body: JSON.stringify({ reward: 9.99, counterInSeconds: 5 }),
    });
    expect(res.status).toBe(200);
    const { gameId } = (await res.json()) as { gameId: string };

    const connect = async (url: string, cookie?: string) => {
      const c = new HubClient(url, splitOrStealHub, { query: { gameid: gameId }, ...(cookie ? { cookie } : {}) });
      clients.push(c);
      return c.connected();
    };
    const player = await connect(a, alice.cookie); // on process A
    const spectator = await connect(b); // on process B
    const opponent = await connect(b, bob.cookie); // on process B

    // Each player acts from the state their own screen shows: a step waits until the acting
    // client has the state it follows (one made on the other process arrives through Redis).
    const shown = (c: HubClient, version: number) =>
      c.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.version >= version, 20_000);
    await player.ok('JoinGame', 1); // change made on A
    await shown(opponent, 2);
    await opponent.ok('JoinGame', 2); // change made on B; B schedules the deadline
    await spectator.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3, 20_000);
    await player.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3, 20_000);
    const balls = await player.ok<Record<string, number>>('GetAnswerContext');
    await player.ok('UpdateSelection', balls.player1_Answer1 === 2 ? 1 : 2); // Alice splits, on A
    await shown(opponent, 5);
    await opponent.ok('UpdateSelection', 1); // on B
    const ended = await spectator.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4, 20_000);
    await player.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4, 20_000);
    await opponent.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4, 20_000);

    const seen = (c: HubClient) =>
      c.events<SplitOrStealState>('ReceiveGameState').map((s) => `${s.version}:${s.status}`);
    expect(seen(player)).toEqual(seen(spectator));
    expect(seen(opponent)).toEqual(seen(spectator));
    expect(seen(spectator)).toEqual(['2:2', '3:6', '4:3', '5:3', '6:3', '7:4']);
    expect(ended.player1!.winnings! + ended.player2!.winnings!).toBeGreaterThanOrEqual(0);
  });
});

/**
 * Split or Steal's per-audience states: while the players choose, each player's own state (pushed
 * and read) carries their own two balls and nobody else's; a spectator's and an admin's carry none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GAME_SECONDS } from '@kickback/common/games/split-or-steal';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const clients: HubClient[] = [];

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  alice = await t.signIn({ name: 'Alice' });
  bob = await t.signIn({ name: 'Bob' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(gameId: string, who: TestUser | null): Promise<HubClient> {
  const client = new HubClient(url, splitOrStealHub, {
    query: { gameid: gameId },
    ...(who ? { cookie: who.cookie } : {}),
  });
  clients.push(client);
  return client.connected();
}

const hidden = { player1_Answer1: 0, player1_Answer2: 0, player2_Answer1: 0, player2_Answer2: 0 };

describe('per-audience states', () => {
  it("a player's own state carries their own balls while choosing; nobody else's does", async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/SplitOrStealGame/create',
      as: admin,
      // The longest choosing phase: it ends when the test moves the clock, not while a slow machine works.
      body: { reward: 5, counterInSeconds: MAX_GAME_SECONDS, isPrivate: false },
    });
    const gameId = res.json().gameId as string;
    const p1 = await connect(gameId, alice);
    const p2 = await connect(gameId, bob);
    const watcher = await connect(gameId, null);
    const host = await connect(gameId, admin);

    const waiting = await p1.ok<SplitOrStealState>('JoinGame', 1);
    expect(waiting.answerContext).toEqual(hidden); // not before the choosing phase
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    clock.set(new Date(new Date(starting.phaseEndsAt!).getTime() + 1));
    await t.app.timers.runDue();

    const pushed1 = await p1.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    const pushed2 = await p2.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    const aliceBalls = await p1.ok<Record<string, number>>('GetAnswerContext');
    const bobBalls = await p2.ok<Record<string, number>>('GetAnswerContext');
    expect(pushed1.answerContext).toEqual(aliceBalls);
    expect(pushed2.answerContext).toEqual(bobBalls);
    expect(aliceBalls.player1_Answer1).not.toBe(0);
    expect(aliceBalls.player2_Answer1).toBe(0);
    expect(bobBalls.player1_Answer1).toBe(0);
    expect((await p1.ok<SplitOrStealState>('GetGameState')).answerContext).toEqual(aliceBalls);

    const watched = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    expect(watched.answerContext).toEqual(hidden);
    expect((await host.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3)).answerContext).toEqual(
      hidden,
    );
    expect((await watcher.ok<SplitOrStealState>('GetGameState')).answerContext).toEqual(hidden);

    // A player's action answers their own state too.
    const picked = await p1.ok<SplitOrStealState>('UpdateSelection', 1);
    expect(picked.answerContext).toEqual(aliceBalls);
    await t.call({ method: 'POST', url: `/api/SplitOrStealGame/${gameId}/cancel`, as: admin });
  });
});

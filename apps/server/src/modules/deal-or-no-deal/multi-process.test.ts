/**
 * Deal or No Deal on real server processes sharing one PostgreSQL database and one Redis:
 * - the owner on one process and a spectator on the other see the same states in the same order;
 * - a process killed with SIGKILL mid-game and started again resumes the game in the same state,
 *   with the same boxes holding the same amounts, and the game plays on to the end.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealHub, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { liveGames } from '../../db/schema/games';
import { HubClient } from '../../../test/hub-client';
import { missing, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('Deal or No Deal on server processes sharing PostgreSQL and Redis', () => {
  const mp = serversOnFreshDatabase({ tag: 'dond' });
  const { person } = mp;
  const clients: HubClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  async function createGame(url: string, playerUserId: string, cookie: string): Promise<string> {
    const res = await fetch(`${url}/api/DealOrNoDeal/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie },
      body: JSON.stringify({ playerUserId, isPrivate: false, reward: 0, Amounts: [...DEFAULT_AMOUNTS] }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { gameId: string }).gameId;
  }

  const connect = async (url: string, gameId: string, cookie?: string, reconnection = false) => {
    const c = new HubClient(url, dealOrNoDealHub, {
      query: { gameid: gameId },
      ...(cookie ? { cookie } : {}),
      reconnection,
    });
    clients.push(c);
    return c.connected();
  };

  /** Opens the next shut box that is not the owner's. */
  const openNext = (owner: HubClient, s: DealOrNoDealState) =>
    owner.ok<DealOrNoDealState>('SelectBox', s.boxesInfo.find((b) => !b.isOpened && b.id !== s.primaryBoxId)!.id);

  it('the owner on one process and a spectator on the other see the same states in order', async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host', 'Admin');
    const olive = await person('Olive');
    const gameId = await createGame(a, olive.user.id, host.cookie);
    const ownerOnA = await connect(a, gameId, olive.cookie);
    const ownerOnB = await connect(b, gameId, olive.cookie);
    const spectator = await connect(b, gameId);

    // An owner moves from the state their own screen shows: each move waits until the moving
    // client has the state it follows (a state made on the other process arrives through Redis, and
    // a move made before it arrived would be shown before it on that client).
    const shown = (c: HubClient, s: DealOrNoDealState) =>
      c.waitFor<DealOrNoDealState>('GameStateChange', (x) => x.version >= s.version);
    let s = await ownerOnA.ok<DealOrNoDealState>('StartGame');
    await shown(ownerOnB, s);
    s = await ownerOnB.ok<DealOrNoDealState>('SelectBox', 12);
    for (let k = 0; k < 6; k++) {
      const mover = k % 2 ? ownerOnA : ownerOnB;
      await shown(mover, s);
      s = await openNext(mover, s);
    }
    expect(s.status).toBe(4);
    await shown(ownerOnA, s);
    const won = await ownerOnA.ok<DealOrNoDealState>('AnswerOffer', true);
    expect(won.status).toBe(6);
    // The win screen's deadline fires on whichever process sweeps first.
    await spectator.waitFor<DealOrNoDealState>('GameStateChange', (x) => x.status === 0, 30_000);
    await ownerOnA.waitFor<DealOrNoDealState>('GameStateChange', (x) => x.status === 0, 30_000);

    const seen = (c: HubClient) =>
      c.events<DealOrNoDealState>('GameStateChange').map((x) => `${x.version}:${x.status}`);
    expect(seen(ownerOnA)).toEqual(seen(spectator));
    expect(seen(ownerOnB)).toEqual(seen(spectator));
    expect(seen(spectator)).toEqual(['2:2', '3:3', '4:3', '5:3', '6:3', '7:3', '8:3', '9:4', '10:6', '11:0']);
    expect(spectator.events('CaseOpened')).toHaveLength(6);
    expect(spectator.events<string>('PlaySound')).toContain('DealMusic');
  });

  it('a process killed with SIGKILL mid-game restarts into the same game, the same boxes holding the same amounts', async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host2', 'Admin');
    const olive = await person('Olive2');
    const gameId = await createGame(a, olive.user.id, host.cookie);
    const owner = await connect(a, gameId, olive.cookie, true);
    const spectator = await connect(b, gameId);

    await owner.ok('StartGame');
    let s = await owner.ok<DealOrNoDealState>('SelectBox', 3);
    for (let k = 0; k < 3; k++) s = await openNext(owner, s);
    const boardBefore = (
      (await mp.database.db.select().from(liveGames).where(eq(liveGames.id, gameId)))[0]!.state as {
        board: string[];
      }
    ).board;

    // SIGKILL process A: no shutdown hook runs.
    await mp.servers.kill(0);
    await owner.until(() => !owner.socket.connected, 'owner disconnected');
    await mp.servers.restart(0);
    await owner.until(() => owner.socket.connected, 'owner reconnected', 30_000);

    const resumed = await owner.ok<DealOrNoDealState>('GetGameState');
    expect(resumed).toEqual({ ...s, serverTime: resumed.serverTime });
    const boardAfter = (
      (await mp.database.db.select().from(liveGames).where(eq(liveGames.id, gameId)))[0]!.state as {
        board: string[];
      }
    ).board;
    expect(boardAfter).toEqual(boardBefore);

    // Play on to the end on the restarted process: the revealed board is the one dealt.
    for (let k = 0; k < 3; k++) s = await openNext(owner, s);
    expect(s.status).toBe(4);
    const won = await owner.ok<DealOrNoDealState>('AnswerOffer', true);
    expect(won.board).toEqual(boardBefore.map((c) => Number(c) / 100));
    await spectator.waitFor<DealOrNoDealState>('GameStateChange', (x) => x.status === 6, 20_000);
  });
});

/**
 * A restart mid-game on the embedded database: the server stops, a new one starts on the same
 * data and port; the game is in the same state with the same boxes holding the same amounts, the
 * owner's reconnecting client resyncs and plays on, and the win screen's deadline still fires.
 * (The SIGKILL variant on PostgreSQL is in ./multi-process.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealHub, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { liveGames } from '../../db/schema/games';
import type { TestApp } from '../../../test/app';
import { HubClient } from '../../../test/hub-client';
import { restartableApp } from '../../../test/restartable-app';

const server = restartableApp();

describe('restart mid-game', () => {
  it('resumes the same game with the same boxes, and plays on to the end', async () => {
    const first = await server.start();
    const url = server.url;
    const admin = await first.signIn({ role: 'Admin' });
    const olive = await first.signIn({ name: 'Olive' });
    const res = await first.call({
      method: 'POST',
      url: '/api/DealOrNoDeal/create',
      as: admin,
      body: { playerUserId: olive.user.id, Amounts: [...DEFAULT_AMOUNTS] },
    });
    const gameId = res.json().gameId as string;
    const board = async (db: TestApp) =>
      ((await db.database.db.select().from(liveGames).where(eq(liveGames.id, gameId)))[0]!.state as { board: string[] })
        .board;

    const owner = server.closeAfter(
      new HubClient(url, dealOrNoDealHub, { query: { gameid: gameId }, cookie: olive.cookie, reconnection: true }),
    );
    await owner.connected();
    await owner.ok('StartGame');
    let s = await owner.ok<DealOrNoDealState>('SelectBox', 10);
    const next = () => s.boxesInfo.find((b) => !b.isOpened && b.id !== s.primaryBoxId)!.id;
    for (let k = 0; k < 4; k++) s = await owner.ok<DealOrNoDealState>('SelectBox', next());
    const before = await board(first);

    await server.stop();
    await owner.until(() => !owner.socket.connected, 'disconnected');
    const second = await server.start(); // the same database and port
    await owner.until(() => owner.socket.connected, 'reconnected', 15_000);

    const resumed = await owner.ok<DealOrNoDealState>('GetGameState');
    expect(resumed).toEqual({ ...s, serverTime: resumed.serverTime });
    expect(await board(second)).toEqual(before);

    for (let k = 0; k < 2; k++) s = await owner.ok<DealOrNoDealState>('SelectBox', next());
    expect(s.status).toBe(4);
    const won = await owner.ok<DealOrNoDealState>('AnswerOffer', true);
    expect(won.board).toEqual(before.map((c) => Number(c) / 100));
    // The real in-process timer fires the win screen's deadline on the new process.
    await owner.waitFor<DealOrNoDealState>('GameStateChange', (x) => x.status === 0, 20_000);
  });
});

/**
 * A restart during the choosing phase: the server stops, a new one starts on the same database
 * and port; the game still ends at its stored deadline (within 1 s) with the right result, and
 * clients that reconnect resync with GetGameState.
 */
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { STEAL } from '@kickback/common/games/split-or-steal';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { ledger } from '../../db/schema/ledger';
import { HubClient } from '../../../test/hub-client';
import { restartableApp } from '../../../test/restartable-app';

const server = restartableApp();

describe('restart during the choosing phase', () => {
  it('ends the game at its deadline on the new process, pays once, and reconnecting clients resync', async () => {
    const first = await server.start();
    const url = server.url;
    const admin = await first.signIn({ role: 'Admin' });
    const alice = await first.signIn({ name: 'Alice' });
    const bob = await first.signIn({ name: 'Bob' });
    const res = await first.call({
      method: 'POST',
      url: '/api/SplitOrStealGame/create',
      as: admin,
      body: { reward: 4.2, counterInSeconds: 8 },
    });
    const gameId = res.json().gameId as string;

    const connect = (cookie?: string) => {
      const c = new HubClient(url, splitOrStealHub, {
        query: { gameid: gameId },
        ...(cookie ? { cookie } : {}),
        reconnection: true,
      });
      return server.closeAfter(c).connected();
    };
    const p1 = await connect(alice.cookie);
    const p2 = await connect(bob.cookie);
    const watcher = await connect();

    await p1.ok('JoinGame', 1);
    await p2.ok('JoinGame', 2);
    // The real in-process timer moves 6 → 3 after 3 seconds.
    const choosing = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3, 15_000);
    const balls = await p1.ok<Record<string, number>>('GetAnswerContext');
    const steal = balls.player1_Answer1 === STEAL ? 1 : 2;
    const picked = await p1.ok<SplitOrStealState>('UpdateSelection', steal);
    const deadline = new Date(choosing.phaseEndsAt!).getTime();

    // Stop the server mid-phase. Every client loses its connection.
    await server.stop();
    await watcher.until(() => !watcher.socket.connected && !p1.socket.connected, 'clients disconnected');
    expect(Date.now()).toBeLessThan(deadline);

    // A new process on the same database and port.
    const second = await server.start();

    // Clients reconnect by themselves and resync.
    await Promise.all([p1, p2, watcher].map((c) => c.until(() => c.socket.connected, 'reconnected', 15_000)));
    const resynced = await watcher.ok<SplitOrStealState>('GetGameState');
    expect(resynced.version).toBeGreaterThanOrEqual(picked.version);
    expect(resynced.player1!.selection).toBe(steal);
    expect([3, 4]).toContain(resynced.status);

    const ended =
      resynced.status === 4
        ? resynced
        : await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4, 15_000);
    const endedAt = watcher.received.find((r) => (r.payload as SplitOrStealState).status === 4)?.at ?? Date.now();
    expect(endedAt).toBeGreaterThanOrEqual(deadline);
    expect(endedAt - deadline).toBeLessThan(1000);
    expect(ended.player1).toMatchObject({ winnings: 4.2, isWinner: true });
    expect(ended.player2).toMatchObject({ winnings: 0, isWinner: false, selection: null });
    const p1State = await p1.ok<SplitOrStealState>('GetGameState');
    expect(p1State.status).toBe(4);

    const wins = await second.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'game_win'), eq(ledger.userId, alice.user.id)));
    expect(wins.map((w) => w.delta)).toEqual(['4.20']);
  });
});

/**
 * A restart while bets are open: the server stops, a new one starts on the same database and
 * port; the prediction still locks at its stored auto-lock time (within 1 s), and an overlay that
 * reconnects by itself gets the locked state.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { predictionHub, type PredictionState } from '@kickback/common/hubs/prediction';
import { liveGames } from '../../db/schema/games';
import { HubClient } from '../../../test/hub-client';
import { linkedChatter, openPrediction, say } from '../../../test/predictions';
import { restartableApp } from '../../../test/restartable-app';

const server = restartableApp();

describe('restart before the auto-lock', () => {
  it('locks at the stored time on the new process and the overlay resyncs', async () => {
    const first = await server.start();
    const url = server.url;
    const admin = await first.signIn({ role: 'Admin' });
    const fan = await linkedChatter(first, '8001', { points: '100' });
    const lockAt = Date.now() + 8_000;
    const { id } = await openPrediction(first, admin, { autoLockAt: new Date(lockAt).toISOString() });
    await say(first, fan, '!bet 2 25');

    const overlay = server.closeAfter(new HubClient(url, predictionHub, { query: {}, reconnection: true }));
    await overlay.connected();
    expect(await overlay.ok<PredictionState>('GetState')).toMatchObject({ id, state: 1 });

    await server.stop();
    await overlay.until(() => !overlay.socket.connected, 'overlay disconnected');
    expect(Date.now()).toBeLessThan(lockAt);

    const second = await server.start();
    // A deadline that passed while no process ran fires as soon as the new one is up.
    const dueFrom = Math.max(lockAt, Date.now());
    await overlay.until(() => overlay.socket.connected, 'reconnected', 15_000);
    const resynced = await overlay.ok<PredictionState>('GetState');
    expect(resynced.answers[1]!.participantCount).toBe(1);

    const locked =
      resynced.state === 3
        ? resynced
        : await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.id === id && s.state === 3, 20_000);
    // When it locked: the row's save time (the wall clock of the process that fired it).
    const [row] = await second.database.db.select().from(liveGames).where(eq(liveGames.id, id));
    const lockedAt = row!.updatedAt.getTime();
    expect(lockedAt).toBeGreaterThanOrEqual(lockAt);
    expect(lockedAt - dueFrom).toBeLessThan(1000);
    expect(locked.phaseEndsAt).toBeNull();
    // Bets are closed on the new process too.
    await say(second, fan, '!bet 2 25');
    expect((await second.reload(fan.user.id)).points).toBe('75.00');
  });
});

/**
 * A restart mid-battle on the embedded database: the server stops with the bracket drawn and a
 * match recorded, a new one starts on the same data and port; the watcher's reconnecting client
 * resyncs to the same bracket and the battle plays on to its prize. And a process that died
 * between the close and the draw: the next one draws the bracket when it is ready.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { snapshotOf, type BattleEntrant } from '@kickback/common/games/battle';
import { battleHub, type BattleState } from '@kickback/common/hubs/battle';
import { liveGames } from '../../db/schema/games';
import { buildTestApp, type TestApp } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import { HubClient } from '../../../test/hub-client';
import { restartableApp } from '../../../test/restartable-app';

const server = restartableApp();
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => undefined);
});

describe('restart mid-battle', () => {
  it('keeps the bracket and the results, and plays on to the prize', async () => {
    const first = await server.start();
    const url = server.url;
    const admin = await first.signIn({ role: 'Admin' });
    const created = await first.call({
      method: 'POST',
      url: '/api/admin/battles',
      as: admin,
      body: { title: 'Restart battle', size: 4, registrationMinutes: 30, prize: { kind: 'points', points: '100' } },
    });
    const id = created.json<{ id: string }>().id;
    for (let i = 0; i < 4; i++) {
      const u = await first.signIn();
      expect((await first.call({ method: 'POST', url: `/api/battles/${id}/enter`, as: u })).statusCode).toBe(200);
    }
    await first.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    const body = { a: { cost: '10', win: '50' }, b: { cost: '10', win: '20' } };
    const played = (
      await first.call({ method: 'POST', url: `/api/admin/battles/${id}/matches/0/result`, as: admin, body })
    ).json<BattleState>();
    expect(played.currentMatchNo).toBe(1);

    const watcher = server.closeAfter(new HubClient(url, battleHub, { query: { gameid: id }, reconnection: true }));
    await watcher.connected();

    await server.stop();
    await watcher.until(() => !watcher.socket.connected, 'disconnected');
    const second = await server.start();
    await watcher.until(() => watcher.socket.connected, 'reconnected', 15_000);

    const resumed = await watcher.ok<BattleState>('GetGameState');
    expect(resumed).toEqual({ ...played, serverTime: resumed.serverTime });

    const admin2 = await second.signIn({ role: 'Admin' });
    await second.call({ method: 'POST', url: `/api/admin/battles/${id}/matches/1/result`, as: admin2, body });
    const final = second.call({ method: 'POST', url: `/api/admin/battles/${id}/matches/2/result`, as: admin2, body });
    expect((await final).json<BattleState>().status).toBe('finished');
    const seen = await watcher.waitFor<BattleState>('BattleState', (s) => s.status === 'finished', 10_000);
    expect(seen.winner).not.toBeNull();
  });

  it('draws, when ready, a battle whose process died between the close and the draw', async () => {
    const db2 = await openTestDatabase();
    try {
      const a = await buildTestApp({ database: db2 });
      const admin = await a.signIn({ role: 'Admin' });
      const id = (
        await a.call({
          method: 'POST',
          url: '/api/admin/battles',
          as: admin,
          body: { title: 'Undrawn', size: 4, registrationMinutes: 30, prize: { kind: 'points', points: '1' } },
        })
      ).json<{ id: string }>().id;
      for (let i = 0; i < 3; i++) {
        await a.call({ method: 'POST', url: `/api/battles/${id}/enter`, as: await a.signIn() });
      }
      // What the close committed, with no draw after it.
      const [row] = await db2.db.select().from(liveGames).where(eq(liveGames.id, id));
      const entrants = (row!.state as { entrants: BattleEntrant[] }).entrants;
      await db2.db.execute(sql`
        UPDATE live_games SET state = state || jsonb_build_object('status', 'closed', 'snapshot', ${snapshotOf(entrants)}::text,
          'phaseEndsAt', null, 'phaseVersion', null)
        WHERE id = ${id}`);
      await a.close();

      const b = await buildTestApp({ database: db2 });
      apps.push(b);
      await expect
        .poll(async () => (await b.call({ url: '/api/battles' })).json<{ id: string; status: string }[]>()[0]!.status)
        .toBe('playing');
    } finally {
      await db2.drop();
    }
  });
});

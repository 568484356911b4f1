/**
 * A battle on real server processes sharing one PostgreSQL database and one Redis: a watcher on
 * one process sees every state the other process makes, in version order; a process killed with
 * SIGKILL mid-battle and started again resumes the same bracket with the same results, and the
 * battle plays on to its prize, paid once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { battleHub, type BattleState } from '@kickback/common/hubs/battle';
import { ledger } from '../../db/schema/ledger';
import { HubClient } from '../../../test/hub-client';
import { missing, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('a battle on server processes sharing PostgreSQL and Redis', () => {
  const mp = serversOnFreshDatabase({ tag: 'battle' });
  const { person } = mp;
  const clients: HubClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  async function call(url: string, cookie: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        'x-requested-with': 'kickback',
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as BattleState & { id: string } };
  }

  const result = { a: { cost: '10', win: '50' }, b: { cost: '10', win: '20' } };

  it('a watcher on the other process sees every state in order; SIGKILL mid-battle keeps the bracket', async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host', 'Admin');
    const created = await call(a, host.cookie, 'POST', '/api/admin/battles', {
      title: 'Two-process battle',
      size: 4,
      registrationMinutes: 30,
      prize: { kind: 'points', points: '321.09' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.id;
    const watcher = new HubClient(b, battleHub, { query: { gameid: id }, reconnection: true });
    clients.push(watcher);
    await watcher.connected();
    for (let i = 0; i < 4; i++) {
      const p = await person(`Entrant${i}`);
      expect((await call(i % 2 ? a : b, p.cookie, 'POST', `/api/battles/${id}/enter`)).status).toBe(200);
    }
    const closed = await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/close`);
    expect(closed.json.status).toBe('playing');
    const played = (await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/matches/0/result`, result)).json;
    await watcher.waitFor<BattleState>('BattleState', (s) => s.version === played.version, 20_000);
    const versions = watcher.events<BattleState>('BattleState').map((s) => s.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(versions.at(-1)).toBe(played.version);

    // SIGKILL process A: no shutdown hook runs; it starts again on the same data.
    await mp.servers.kill(0);
    await mp.servers.restart(0);
    const resumed = await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/draw`);
    expect({ ...resumed.json, serverTime: '' }).toEqual({ ...played, serverTime: '' });

    await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/matches/1/result`, result);
    const final = await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/matches/2/result`, result);
    expect(final.json.status).toBe('finished');
    const seen = await watcher.waitFor<BattleState>('BattleState', (s) => s.status === 'finished', 20_000);
    expect(seen.winner).toEqual(final.json.winner);
    const paid = await mp.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'battle_prize'), eq(ledger.reference, `battle:${id}`)));
    expect(paid.map((p) => p.delta)).toEqual(['321.09']);
  });
});

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
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { battleHub, type BattleState } from '@kickback/common/hubs/battle';
import { openDatabase, type Database } from '../../db/client';
import { migrate } from '../../db/migrate';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { createSession } from '../../lib/sessions';
import { upsertSteamUser } from '../auth/user-accounts';
import { HubClient } from '../../../test/hub-client';
import { admin, baseUrl, freePort, missing, redisUrl, serverDir, withDatabase } from '../../../test/multi-process';
import { nextSteamId } from '../../../test/app';

describe.skipIf(missing !== null)('a battle on server processes sharing PostgreSQL and Redis', () => {
  const dbName = `kb_battle_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const prefix = `kbtest:${dbName}:`;
  const secret = randomBytes(24).toString('hex');
  const processes: ChildProcess[] = [];
  const output: string[] = [];
  const clients: HubClient[] = [];
  let database: Database;
  let ports: number[] = [];
  let urls: string[] = [];

  /** Starts a server process on `port`; resolves when it answers /healthz. */
  async function startServer(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: withDatabase(baseUrl, dbName),
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: secret,
        DEMO_DATA: '0',
        LOG_LEVEL: 'warn',
        TIMER_SWEEP_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    processes.push(child);
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return child;
      if (Date.now() > deadline) throw new Error(`server ${url} did not start:\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url: withDatabase(baseUrl, dbName), poolSize: 2 });
    (database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(database);
    ports = [await freePort(), await freePort()];
    urls = ports.map((p) => `http://127.0.0.1:${p}`);
    await Promise.all(ports.map((p) => startServer(p)));
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(
      processes.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGTERM');
          }),
      ),
    );
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }, 30_000);

  async function person(name: string, role: 'User' | 'Admin' = 'User') {
    const steamId = nextSteamId();
    let user = await upsertSteamUser(
      database.db,
      steamId,
      { steamId, personaName: name, avatarUrl: null },
      [],
      new Date(),
    );
    if (role === 'Admin') {
      [user] = (await database.db.update(users).set({ role }).where(eq(users.id, user.id)).returning()) as [
        typeof user,
      ];
    }
    const { token } = await createSession(database.db, user.id, new Date(), 'test');
    return { user, cookie: `kb_session=${token}` };
  }

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
    const [a, b] = urls as [string, string];
    const host = await person('Host', 'Admin');
    const created = await call(a, host.cookie, 'POST', '/api/admin/battles', {
      title: 'Two-process battle',
      size: 4,
      registrationMinutes: 30,
      prize: { kind: 'points', points: '321.09' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.id;
    const watcher = new HubClient(b, battleHub, { query: { battleid: id }, reconnection: true });
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
    const victim = processes[0]!;
    const killed = new Promise((resolve) => victim.once('exit', resolve));
    victim.kill('SIGKILL');
    await killed;
    await startServer(ports[0]!);
    const resumed = await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/draw`);
    expect({ ...resumed.json, serverTime: '' }).toEqual({ ...played, serverTime: '' });

    await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/matches/1/result`, result);
    const final = await call(a, host.cookie, 'POST', `/api/admin/battles/${id}/matches/2/result`, result);
    expect(final.json.status).toBe('finished');
    const seen = await watcher.waitFor<BattleState>('BattleState', (s) => s.status === 'finished', 20_000);
    expect(seen.winner).toEqual(final.json.winner);
    const paid = await database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'battle_prize'), eq(ledger.reference, `battle:${id}`)));
    expect(paid.map((p) => p.delta)).toEqual(['321.09']);
  }, 120_000);
});

/**
 * Two real server processes sharing one PostgreSQL database and one Redis: a player connected to
 * one process and a spectator connected to the other see the same game states in the same order,
 * whichever process made the change or fired the deadline.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { openDatabase, type Database } from '../../db/client';
import { migrate } from '../../db/migrate';
import { users } from '../../db/schema/users';
import { createSession } from '../../lib/sessions';
import { upsertSteamUser } from '../auth/user-accounts';
import { HubClient } from '../../../test/hub-client';
import { admin, baseUrl, freePort, missing, redisUrl, serverDir, withDatabase } from '../../../test/multi-process';
import { nextSteamId } from '../../../test/app';

describe.skipIf(missing !== null)('two server processes on one PostgreSQL and one Redis', () => {
  const dbName = `kb_mp_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const prefix = `kbtest:${dbName}:`;
  const processes: ChildProcess[] = [];
  const output: string[] = [];
  const clients: HubClient[] = [];
  let database: Database;
  let urls: string[] = [];

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url: withDatabase(baseUrl, dbName), poolSize: 2 });
    (database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(database);
    const ports = [await freePort(), await freePort()];
    urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const secret = randomBytes(24).toString('hex');
    for (const port of ports) {
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
    }
    for (const url of urls) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(`${url}/healthz`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`server ${url} did not start:\n${output.join('')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }, 90_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(
      processes.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
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

  it('a player on one process and a spectator on the other see the same states in order', async () => {
    const [a, b] = urls as [string, string];
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

    await player.ok('JoinGame', 1); // change made on A
    await opponent.ok('JoinGame', 2); // change made on B; B schedules the deadline
    await spectator.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3, 20_000);
    const balls = await player.ok<Record<string, number>>('GetAnswerContext');
    await player.ok('UpdateSelection', balls.player1_Answer1 === 2 ? 1 : 2); // Alice splits, on A
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
  }, 60_000);
});

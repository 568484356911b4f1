/**
 * Two server processes on PostgreSQL and a Redis of their own, for the tests that take that Redis
 * away (redis-outage.test.ts) or hang it (redis-hang.test.ts): a fresh database, a redis-server on
 * a free port the test may stop, pause or start again, the two processes, and what such a test
 * asks of them — health, a broadcast crossing between sockets, and the latency of each kind of
 * request that meets Redis (docs/operations-redis-outage.md#when-redis-goes-away).
 */
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import type { HubClient } from './hub-client';
import { admin, baseUrl, freshDatabaseName, kickChat, person } from './multi-process';
import { postgresUnreachable } from './postgres-probe';
import { freePort, ServerProcesses, withDatabase } from './processes';
import { noRedisServer, startRedis, stop } from './redis-server';

/** Why the pair cannot run here (no redis-server binary, no PostgreSQL), or null. */
export async function ownRedisPairMissing(): Promise<string | null> {
  return noRedisServer ?? (await postgresUnreachable(baseUrl));
}

export interface Health {
  status: string;
  redis?: string;
}

/** What `/healthz` of `url` says, or null when it does not answer within 2 s. */
export async function health(url: string): Promise<Health | null> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    return (await res.json()) as Health;
  } catch {
    return null;
  }
}

/** Polls `check` until it holds; throws after `ms` (a hang is caught: docs/conventions.md#timeouts). */
export async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A giveaway change on `from` reaches the admin socket `to` (ReceiveWinners to the admins). */
export async function broadcastReaches(from: HubClient, to: HubClient, ms = 20_000): Promise<void> {
  const before = to.events('ReceiveWinners').length;
  await until(
    async () => {
      await from.ok('ClearRecentWinners');
      return to.events('ReceiveWinners').length > before;
    },
    'the broadcast to reach the other socket',
    ms,
  );
}

const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.99) - 1]!;

/** Median and p99 (ms) of each kind of request. */
export interface Latencies {
  p99: Record<string, number>;
  median: Record<string, number>;
}

export class OwnRedisPair {
  readonly dbName: string;
  readonly kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** Sockets the test opened: closed by stop(). */
  readonly clients: HubClient[] = [];
  redisPort = 0;
  /** The test's redis-server, or null while it is stopped. */
  redis: ChildProcess | null = null;
  database!: Database;
  servers!: ServerProcesses;
  urls: [string, string] = ['', ''];

  constructor(name: string) {
    this.dbName = freshDatabaseName(name);
  }

  /** Starts the Redis, migrates a fresh database and starts the two processes, both healthy. */
  async start(): Promise<void> {
    this.redisPort = await freePort();
    this.redis = await startRedis(this.redisPort);
    await admin(`CREATE DATABASE ${this.dbName}`);
    const url = withDatabase(baseUrl, this.dbName);
    this.database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    (this.database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(this.database);
    this.servers = await new ServerProcesses({
      count: 2,
      databaseUrl: url,
      redisUrl: `redis://127.0.0.1:${this.redisPort}`,
      redisPrefix: `kbtest:${this.dbName}:`,
      env: {
        NODE_ENV: 'development',
        SESSION_SECRET: randomBytes(24).toString('hex'),
        DEMO_DATA: '0',
        LOG_LEVEL: 'warn',
        METRICS_ALLOW: '127.0.0.1',
        RATE_LIMIT_PER_MINUTE: '100000',
        WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000',
        KICK_WEBHOOK_PUBLIC_KEY: this.kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
      ready: async (u) => (await health(u))?.status === 'ok',
    }).start();
    this.urls = this.servers.urls as [string, string];
  }

  /** Closes the sockets, stops the processes and the Redis (resumed first if paused), drops the database. */
  async stop(): Promise<void> {
    for (const c of this.clients) c.close();
    this.redis?.kill('SIGCONT');
    await this.servers?.stopAll();
    if (this.redis) await stop(this.redis);
    await this.database?.close();
    await admin(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`).catch(() => undefined);
  }

  /** Kills the Redis at once (SIGKILL), as when it crashes. */
  async killRedis(): Promise<void> {
    if (this.redis) await stop(this.redis, 'SIGKILL');
    this.redis = null;
  }

  /** Starts an empty Redis on the same port, as after a crash. */
  async restartRedis(): Promise<void> {
    this.redis = await startRedis(this.redisPort);
  }

  /** A person of `role` in the pair's database, with a session cookie. */
  person(name: string, role: 'User' | 'Admin') {
    return person(this.database, name, role);
  }

  /**
   * Times `rounds` of each kind of request that meets Redis — a cached read, a signed-in call, a hub
   * call (round robin over `callers`) and a signed Kick webhook from `sender` — alternating between
   * the processes. Every request must answer 200.
   */
  async measure(
    rounds: number,
    cookie: string,
    callers: HubClient[],
    sender: { userId: string; username: string },
  ): Promise<Latencies> {
    const latencies: Record<string, number[]> = { read: [], signedIn: [], hub: [], webhook: [] };
    const timed = async (kind: string, request: () => Promise<number>) => {
      const start = performance.now();
      const status = await request().catch((err: Error) => `${err.name}: ${err.message}`);
      latencies[kind]!.push(performance.now() - start);
      expect(status, kind).toBe(200);
    };
    const get = async (url: string, headers: Record<string, string>) =>
      (
        await fetch(url, {
          headers: { 'x-requested-with': 'kickback', ...headers },
          signal: AbortSignal.timeout(3000),
        })
      ).status;
    for (let i = 0; i < rounds; i++) {
      const url = this.urls[i % 2]!;
      const hub = callers[i % callers.length]!;
      await timed('read', () => get(`${url}/api/site`, {}));
      await timed('signedIn', () => get(`${url}/api/User/ping`, { cookie }));
      await timed('hub', async () => ((await hub.call('GetState')).ok ? 200 : 500));
      await timed('webhook', async () => {
        const res = await kickChat(url, this.kickKeys.privateKey, sender, `hello ${i}`, {
          signal: AbortSignal.timeout(3000),
        });
        return res.status;
      });
    }
    const sorted = Object.entries(latencies).map(([k, v]) => [k, [...v].sort((a, b) => a - b)] as const);
    return {
      p99: Object.fromEntries(sorted.map(([k, v]) => [k, Math.round(p99(v))])),
      median: Object.fromEntries(sorted.map(([k, v]) => [k, Math.round(v[v.length >> 1]!)])),
    };
  }
}

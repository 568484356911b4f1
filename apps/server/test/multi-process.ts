/**
 * What the multi-process tests share: the PostgreSQL and Redis they run against (or why they are
 * skipped; in CI a missing service is an error), a statement run as the PostgreSQL admin, and
 * `serversOnFreshDatabase`: N server processes (./processes.ts) on a fresh database of their own,
 * for one describe block, with a person to sign in as and a signed Kick chat delivery to send them.
 * docs/conventions.md#multi-process-tests shows a test using it.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { users } from '../src/db/schema/users';
import { signKickDelivery } from '../src/integrations/kick/signature';
import { kickTimestamp, simulatedChatMessage } from '../src/integrations/kick/simulator';
import { createSession } from '../src/lib/sessions';
import { ulid } from '../src/lib/ulid';
import { upsertSteamUser } from '../src/modules/auth/user-accounts';
import { nextSteamId } from './app';
import { postgresUnreachable } from './postgres-probe';
import { ServerProcesses, withDatabase, type ServerProcessesOptions } from './processes';

export const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<string | null> {
  const noPostgres = await postgresUnreachable(baseUrl);
  if (noPostgres) return noPostgres;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    return `Redis at ${redisUrl} is not reachable (${(err as Error).message})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

/** Why the multi-process tests cannot run here, or null. */
export const missing = await reachable();
if (missing) {
  if (process.env.CI) throw new Error(`multi-process test: ${missing}`);
  console.log(`multi-process test SKIPPED: ${missing}`);
}

export async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/** A fresh database's name: `kb_<tag>_<time>_<random>`. */
export function freshDatabaseName(tag: string): string {
  return `kb_${tag}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export interface FreshServers {
  readonly dbName: string;
  readonly databaseUrl: string;
  /** The Redis key prefix of these processes (their keys are deleted at the end). */
  readonly prefix: string;
  /** A connection of the test's own to the processes' database (migrated). */
  readonly database: Database;
  readonly servers: ServerProcesses;
  /** Each process's base URL, in order. */
  readonly urls: string[];
  /** Everything the processes printed. */
  output(): string;
  /** A user (an admin when asked) and a session cookie for them, made in the database. */
  person(name: string, role?: 'User' | 'Admin'): Promise<{ user: typeof users.$inferSelect; cookie: string }>;
}

/**
 * `count` server processes (default 2, from source) on a fresh PostgreSQL database and a Redis
 * prefix of their own, for the describe block this is called in: made in a beforeAll (database
 * created and migrated, processes started together and answering), removed in an afterAll
 * (processes stopped, database dropped, Redis keys deleted). The processes run as a developer's
 * would, without demo data, logging warnings, sweeping timers every second, with one session secret.
 */
export function serversOnFreshDatabase(
  opts: { tag: string; count?: number; env?: Record<string, string> } & Pick<ServerProcessesOptions, 'command'>,
): FreshServers {
  const dbName = freshDatabaseName(opts.tag);
  const databaseUrl = withDatabase(baseUrl, dbName);
  const prefix = `kbtest:${dbName}:`;
  const servers = new ServerProcesses({
    count: opts.count ?? 2,
    ...(opts.command ? { command: opts.command } : {}),
    databaseUrl,
    redisUrl,
    redisPrefix: prefix,
    env: {
      NODE_ENV: 'development',
      SESSION_SECRET: randomBytes(24).toString('hex'),
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      TIMER_SWEEP_MS: '1000',
      ...opts.env,
    },
  });
  let database: Database | null = null;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
    (database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(database);
    await servers.start();
  }, 120_000);

  afterAll(async () => {
    await servers.stopAll();
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }, 120_000);

  const db = () => {
    if (!database) throw new Error('the database is made in beforeAll');
    return database;
  };
  return {
    dbName,
    databaseUrl,
    prefix,
    servers,
    get database() {
      return db();
    },
    get urls() {
      return servers.urls;
    },
    output: () => servers.output(),
    person: (name, role = 'User') => person(db(), name, role),
  };
}

/** A user (an admin when asked) and a session cookie for them, made in `database`. */
export async function person(database: Database, name: string, role: 'User' | 'Admin' = 'User') {
  const steamId = nextSteamId();
  let user = await upsertSteamUser(
    database.db,
    steamId,
    { steamId, personaName: name, avatarUrl: null },
    [],
    new Date(),
  );
  if (role === 'Admin') {
    [user] = (await database.db.update(users).set({ role }).where(eq(users.id, user.id)).returning()) as [typeof user];
  }
  const { token } = await createSession(database.db, user.id, new Date(), 'test');
  return { user, cookie: `kb_session=${token}` };
}

const broadcasterId = loadConfig({ NODE_ENV: 'development' }).kick.broadcasterUserId ?? '1000001';

/**
 * A chat message as Kick delivers it: a `chat.message.sent` webhook delivery to `url`, signed
 * with `privateKey` (the processes trust its public key: KICK_WEBHOOK_PUBLIC_KEY), sent at `now`,
 * with Kick's message id `messageId` when given.
 */
export function kickChat(
  url: string,
  privateKey: KeyObject,
  sender: { userId: string; username: string },
  text: string,
  opts: { now?: Date; messageId?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const now = opts.now ?? new Date();
  const payload = simulatedChatMessage(
    { username: sender.username, subscriber: false, userId: sender.userId },
    text,
    { userId: broadcasterId, username: 'vex' },
    now,
  );
  if (opts.messageId) payload.message_id = opts.messageId;
  const body = Buffer.from(JSON.stringify(payload));
  const deliveryId = ulid(now);
  const timestamp = kickTimestamp(now);
  return fetch(`${url}/webhooks/kick`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'kick-event-message-id': deliveryId,
      'kick-event-subscription-id': '01JSUBSCRIPTION0000000000',
      'kick-event-signature': signKickDelivery(privateKey, deliveryId, timestamp, body),
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': 'chat.message.sent',
      'kick-event-version': '1',
    },
    body,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

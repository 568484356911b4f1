/**
 * What the multi-process tests share: the PostgreSQL and Redis they run against (or why they are
 * skipped; in CI a missing service is an error), a statement run as the PostgreSQL admin, and
 * `serversOnFreshDatabase`: N server processes (./processes.ts) on a fresh database of their own,
 * for one describe block, with a person to sign in as and a signed Kick chat delivery to send them.
 * docs/conventions.md#multi-process-tests shows a test using it.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { users } from '../src/db/schema/users';
import { signKickDelivery } from '../src/integrations/kick/signature';
import { kickBotSimulatorRoutes, KickSimulatorState } from '../src/integrations/kick/bot-simulator';
import { kickTimestamp, simulatedChatMessage, simulatedKickUserId } from '../src/integrations/kick/simulator';
import { KICK_SIMULATOR_PATH, loadConfig } from '../src/config';
import { systemClock } from '../src/lib/clock';
import { createSession } from '../src/lib/sessions';
import { ulid } from '../src/lib/ulid';
import { upsertSteamUser } from '../src/modules/auth/user-accounts';
import { nextSteamId } from './app';
import { postgresUnreachable } from './postgres-probe';
import { freePort, ServerProcesses, withDatabase, type ServerProcessesOptions } from './processes';

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
 * `count` server processes (default 2, the current source bundled: processes.ts's currentSource) on
 * a fresh PostgreSQL database and a Redis prefix of their own, for the describe block this is
 * called in: made in a beforeAll (database
 * created and migrated, processes started together and answering), removed in an afterAll
 * (processes stopped, database dropped, Redis keys deleted). The processes run as a developer's
 * would, without demo data, logging warnings, sweeping timers every second, with one session secret.
 */
export function serversOnFreshDatabase(
  opts: {
    tag: string;
    count?: number;
    /** More environment (a function: read when each process starts, after the other beforeAll hooks ran). */
    env?: Record<string, string> | (() => Record<string, string>);
    /** Run on the migrated database before the processes start (rows they read at start). */
    seed?: (database: Database) => Promise<void>;
  } & Pick<ServerProcessesOptions, 'command'>,
): FreshServers {
  const dbName = freshDatabaseName(opts.tag);
  const databaseUrl = withDatabase(baseUrl, dbName);
  const prefix = `kbtest:${dbName}:`;
  const sessionSecret = randomBytes(24).toString('hex');
  const servers = new ServerProcesses({
    count: opts.count ?? 2,
    ...(opts.command ? { command: opts.command } : {}),
    databaseUrl,
    redisUrl,
    redisPrefix: prefix,
    env: () => ({
      NODE_ENV: 'development',
      SESSION_SECRET: sessionSecret,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      TIMER_SWEEP_MS: '1000',
      ...(typeof opts.env === 'function' ? opts.env() : opts.env),
    }),
  });
  let database: Database | null = null;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
    (database.raw as pg.Pool).on('error', () => undefined); // the drop at the end ends its connections
    await migrate(database);
    await opts.seed?.(database);
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
 * with Kick's message id `messageId` when given, into `broadcasterUserId`'s channel (default: the
 * development configuration's).
 */
export function kickChat(
  url: string,
  privateKey: KeyObject,
  sender: { userId: string; username: string },
  text: string,
  opts: {
    now?: Date;
    messageId?: string;
    /** Kick's delivery id (a redelivery repeats it); default a new one. */
    deliveryId?: string;
    signal?: AbortSignal;
    broadcasterUserId?: string;
    badges?: string[];
  } = {},
): Promise<Response> {
  const now = opts.now ?? new Date();
  const payload = simulatedChatMessage(
    {
      username: sender.username,
      subscriber: false,
      userId: sender.userId,
      ...(opts.badges ? { badges: opts.badges } : {}),
    },
    text,
    { userId: opts.broadcasterUserId ?? broadcasterId, username: 'vex' },
    now,
  );
  if (opts.messageId) payload.message_id = opts.messageId;
  const body = Buffer.from(JSON.stringify(payload));
  const deliveryId = opts.deliveryId ?? ulid(now);
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

/**
 * One Kick for every process, as in production: the Kick simulator's API (`/dev/kick`:
 * OAuth, chat posts, message deletions and bans, state in memory) served by the test process on a
 * port of its own, for the describe block this is called in (call it before
 * `serversOnFreshDatabase`, and give the processes `env()`: a Kick app whose API and OAuth
 * addresses are this simulator's). A process's own simulator would not do: each one's state is in
 * memory and a process answers calls to its own address in-process (lib/loopback-fetch.ts), so a
 * token issued by one process's simulator is unknown to the other's.
 */
export function sharedKick(opts: { channel?: string } = {}) {
  const channel = opts.channel ?? 'vex';
  const state = new KickSimulatorState({ count: 1000, windowMs: 1000 });
  const config = {
    mode: 'kick' as const,
    clientId: 'kickback-two-process',
    clientSecret: randomBytes(16).toString('hex'),
    oauthUrl: '',
    apiUrl: '',
    redirectUri: '', // the first process's callback, set by `redirectTo` once its address is known
    scopes: '',
    tokenKey: null,
    tokenKeySource: null,
  };
  let server: FastifyInstance | null = null;
  let base = '';

  beforeAll(async () => {
    server = Fastify();
    server.decorate('clock', systemClock);
    await server.register(fastifyFormbody); // the consent form, as the app parses it
    await server.register((scope) => kickBotSimulatorRoutes(scope, { config, state, defaultUser: channel }), {
      prefix: KICK_SIMULATOR_PATH,
    });
    const port = await freePort();
    await server.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}${KICK_SIMULATOR_PATH}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  return {
    state,
    /** The processes' environment: a Kick app on this simulator, the channel `channel`'s. */
    env: (): Record<string, string> => ({
      KICK_CLIENT_ID: config.clientId,
      KICK_CLIENT_SECRET: config.clientSecret,
      KICK_API_URL: base,
      KICK_OAUTH_URL: base,
      KICK_BROADCASTER_USER_ID: simulatedKickUserId(channel),
    }),
    /** The bot is connected through the process at `url` (the consent sends the browser back there). */
    redirectTo(url: string) {
      config.redirectUri = `${url}/auth/kick/bot/callback`;
    },
  };
}

/**
 * "Connect Kick bot" through the process at `url` as an admin's browser does it against the shared
 * Kick simulator (`sharedKick`): start, consent as `kickUsername`, follow the callback. The tokens
 * are in the database, for every process.
 */
export async function connectKickBot(
  url: string,
  adminCookie: string,
  kick: { redirectTo(url: string): void },
  kickUsername = 'vex',
): Promise<void> {
  kick.redirectTo(url);
  const headers = { 'x-requested-with': 'kickback', cookie: adminCookie };
  const start = await fetch(`${url}/api/admin/integrations/kick-bot/connect`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
  if (start.status !== 200) throw new Error(`connect: ${start.status} ${await start.text()}`);
  const authorize = (await start.json()) as { url: string };
  const consent = await fetch(authorize.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: kickUsername, decision: 'allow' }).toString(),
    redirect: 'manual',
  });
  const callback = consent.headers.get('location');
  if (!callback) throw new Error(`consent: ${consent.status} ${await consent.text()}`);
  const done = await fetch(callback, { headers, redirect: 'manual' });
  const back = done.headers.get('location') ?? '';
  if (!back.includes('kickBot=connected')) throw new Error(`callback: ${done.status} ${back}`);
}

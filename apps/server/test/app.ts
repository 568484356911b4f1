/**
 * buildTestApp(): the real app on a fresh test database, with a manual clock, plus helpers to sign
 * in and call the API the way the web app does (CSRF header included).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Role } from '@kickback/common/http/auth';
import pino from 'pino';
import { afterEach } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { users, type UserRow } from '../src/db/schema/users';
import { ManualClock } from '../src/lib/clock';
import type { SocketLimits } from '../src/plugins/realtime';
import { createSession } from '../src/lib/sessions';
import { upsertSteamUser } from '../src/modules/auth/user-accounts';
import { openTestDatabase } from './database';

/** Collects the app's log lines so a test can assert what was logged. */
export class LogCapture {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly logger = pino({ level: 'debug' }, { write: (line: string) => this.lines.push(JSON.parse(line)) });
  find(msg: string): Record<string, unknown> | undefined {
    return this.lines.find((l) => l.msg === msg);
  }
}

export const TEST_PUBLIC_URL = 'http://kickback.test';

export interface TestUser {
  user: UserRow;
  cookie: string;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  clock: ManualClock;
  /** Creates a user (role User unless told) with a session; returns the row and its cookie. */
  signIn(opts?: { role?: Role; name?: string; steamId?: string }): Promise<TestUser>;
  /** Calls the app like the web app does: CSRF header, JSON body, the user's cookie. */
  call(opts: {
    method?: InjectOptions['method'];
    url: string;
    as?: TestUser | null;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** Reloads a user row. */
  reload(userId: string): Promise<UserRow>;
  close(): Promise<void>;
}

let steamCounter = 0;
export function nextSteamId(): string {
  steamCounter += 1;
  const n = (process.pid % 1000) * 1_000_000 + steamCounter;
  return `7656119${String(8_000_000_000 + n).padStart(10, '0')}`;
}

export async function buildTestApp(
  opts: {
    env?: Record<string, string>;
    clock?: ManualClock;
    networkFetch?: typeof fetch;
    logs?: LogCapture;
    /** Registers extra routes before the app is ready (e.g. a throwaway guarded route). */
    routes?: (app: FastifyInstance) => void;
    /** Hub limits other than the production defaults. */
    socketLimits?: SocketLimits;
    /** A built web app folder to serve (default none). */
    webDist?: string;
    /** Reuse a database (a restart on the same data); the caller drops it, close() does not. */
    database?: Database & { drop(): Promise<void> };
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DEMO_DATA: '0', ...opts.env });
  const database = opts.database ?? (await openTestDatabase());
  const clock = opts.clock ?? new ManualClock(new Date());
  const app = await buildApp({
    config: { ...config, database: { kind: 'pglite', dataDir: null } },
    database,
    clock,
    webDist: opts.webDist ?? null,
    ...(opts.networkFetch ? { networkFetch: opts.networkFetch } : {}),
    ...(opts.logs ? { loggerInstance: opts.logs.logger } : {}),
    ...(opts.socketLimits ? { socketLimits: opts.socketLimits } : {}),
  });
  opts.routes?.(app);
  await app.ready();

  const cookieName = 'kb_session';
  let closing: Promise<void> | undefined;
  return {
    app,
    config,
    database,
    clock,
    async signIn({ role = 'User', name, steamId } = {}) {
      const id = steamId ?? nextSteamId();
      let user = await upsertSteamUser(
        database.db,
        id,
        { steamId: id, personaName: name ?? `user${id.slice(-4)}`, avatarUrl: null },
        [],
        clock.now(),
      );
      if (user.role !== role) {
        [user] = (await database.db.update(users).set({ role }).where(eq(users.id, user.id)).returning()) as [UserRow];
      }
      const { token } = await createSession(database.db, user.id, clock.now(), 'test');
      return { user, cookie: `${cookieName}=${token}` };
    },
    call({ method = 'GET', url, as, body, headers }) {
      return app.inject({
        method,
        url,
        headers: {
          'x-requested-with': 'kickback',
          ...(as ? { cookie: as.cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
    },
    async reload(userId) {
      const [row] = await database.db.select().from(users).where(eq(users.id, userId));
      if (!row) throw new Error(`user ${userId} not found`);
      return row;
    },
    close() {
      // Once: a file whose next build failed closes the previous app again in its afterEach.
      closing ??= (async () => {
        await app.close();
        if (!opts.database) await database.drop();
      })();
      return closing;
    },
  };
}

/**
 * The apps a test file builds, closed after each test (their shared database dropped): `app()` one
 * on a database of its own, `twoProcesses()` two processes on one database, each with its own clock.
 */
export function appsClosedAfterEach() {
  const apps: TestApp[] = [];
  let shared: Awaited<ReturnType<typeof openTestDatabase>> | null = null;
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
    await shared?.drop();
    shared = null;
  });
  async function app(opts: Parameters<typeof buildTestApp>[0] = {}): Promise<TestApp> {
    const a = await buildTestApp(opts);
    apps.push(a);
    return a;
  }
  async function twoProcesses(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
    shared = await openTestDatabase();
    const a = await app({ database: shared, env });
    const b = await app({ database: shared, env, clock: new ManualClock(a.clock.now()) });
    return [a, b];
  }
  return { app, twoProcesses };
}

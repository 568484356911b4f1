/**
 * `npm run admin -- revoke` on PostgreSQL opens the database itself, outside the running server:
 * the server must still hear of it (PostgreSQL NOTIFY, without Redis) and close the demoted
 * moderator's sockets at once, so they stop receiving staff events; reconnected, the socket is
 * no longer staff.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres); skipped
 * with the reason printed when it is missing (an error in CI).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { giveawayHub } from '@kickback/common/hubs/giveaway';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { users } from '../db/schema/users';
import { createSession } from '../lib/sessions';
import { upsertSteamUser } from '../modules/auth/user-accounts';
import { nextSteamId, TEST_PUBLIC_URL } from '../../test/app';
import { HubClient, listen } from '../../test/hub-client';
import { admin, baseUrl } from '../../test/multi-process';
import { withDatabase } from '../../test/processes';
import { runCommand } from './run-command';

const missing = await admin('SELECT 1').then(
  () => null,
  (err: Error) => `PostgreSQL at ${baseUrl} is not reachable (${err.message})`,
);
if (missing) {
  if (process.env.CI) throw new Error(`CLI revoke on PostgreSQL test: ${missing}`);
  console.log(`CLI revoke on PostgreSQL test SKIPPED: ${missing}`);
}

describe.skipIf(missing !== null)('npm run admin -- revoke on PostgreSQL, with a server running', () => {
  const dbName = `kb_revoke_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = withDatabase(baseUrl, dbName);
  const saved = { ...process.env };
  const clients: HubClient[] = [];
  let database: Database;
  let app: FastifyInstance;
  let origin = '';

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
    await migrate(database);
    // The server: no Redis, so only PostgreSQL can carry the news.
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, DEMO_DATA: '0', PUBLIC_URL: TEST_PUBLIC_URL });
    app = await buildApp({ config, database, webDist: null, loggerInstance: pino({ level: 'warn' }) });
    origin = await listen(app);
  });

  afterAll(async () => {
    process.env = { ...saved };
    for (const c of clients) c.close();
    await app?.close();
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  });

  async function person(name: string, role: 'Moderator' | 'Admin') {
    const steamId = nextSteamId();
    const user = await upsertSteamUser(
      database.db,
      steamId,
      { steamId, personaName: name, avatarUrl: null },
      [],
      new Date(),
    );
    await database.db.update(users).set({ role }).where(eq(users.id, user.id));
    const { token } = await createSession(database.db, user.id, new Date(), 'test');
    return { user, cookie: `kb_session=${token}` };
  }

  const hubOf = (cookie: string) => {
    const client = new HubClient(origin, giveawayHub, { query: {}, cookie, origin: TEST_PUBLIC_URL });
    clients.push(client);
    return client.connected();
  };

  it("closes the demoted moderator's sockets at once: no more staff events, staff calls refused after reconnecting", async () => {
    const mod = await person('Mod', 'Moderator');
    const host = await person('Host', 'Admin');
    const modSocket = await hubOf(mod.cookie);
    const hostSocket = await hubOf(host.cookie);
    await modSocket.ok('GetState');
    // A staff event reaches the moderator while they are one.
    await hostSocket.ok('ClearRecentWinners');
    await modSocket.waitFor('ReceiveWinners');

    // The CLI, as `npm run admin -- revoke <steamId>` runs it: its own connection to the database.
    process.env = { ...saved, NODE_ENV: 'test', DATABASE_URL: url, REDIS_URL: '' };
    expect(await runCommand('revoke', { steamId: mod.user.steamId })).toMatch(/is now User/);

    await modSocket.until(() => !modSocket.socket.connected, 'the demoted socket to be closed', 3000);
    const heard = modSocket.events('ReceiveWinners').length;
    await hostSocket.ok('ClearRecentWinners');
    await hostSocket.waitFor('ReceiveWinners', () => hostSocket.events('ReceiveWinners').length >= 2);
    expect(modSocket.events('ReceiveWinners')).toHaveLength(heard);

    // Connecting again reads the new role: a plain user's socket, refused the staff calls.
    const again = await hubOf(mod.cookie);
    const state = await again.call('GetState');
    expect(state.ok).toBe(false);
  });
});

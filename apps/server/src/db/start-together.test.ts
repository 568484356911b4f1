/**
 * Two server processes starting at the same moment on an empty PostgreSQL with demo data on: both
 * come up (migrations and the demo seed run once, under one lock), and the seed is there once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * like the other multi-process tests; skipped outside CI with the reason printed when missing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { admin, baseUrl, freshDatabaseName, missing } from '../../test/multi-process';
import { ServerProcesses, withDatabase } from '../../test/processes';

describe.skipIf(missing !== null)('two processes starting together on an empty PostgreSQL', () => {
  const dbName = freshDatabaseName('start');
  const servers = new ServerProcesses({
    count: 2,
    databaseUrl: withDatabase(baseUrl, dbName),
    env: { NODE_ENV: 'development', DEMO_DATA: '1', LEADERBOARD_POLLER: '0', LOG_LEVEL: 'warn' },
  });

  afterAll(async () => {
    await servers.stopAll();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('both come up, and the demo data is seeded once', async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    await servers.start();
    const client = new pg.Client({ connectionString: withDatabase(baseUrl, dbName) });
    await client.connect();
    try {
      const { rows } = await client.query<{ all: string; names: string }>(
        'SELECT count(*) AS all, count(DISTINCT name) AS names FROM products',
      );
      expect(Number(rows[0]!.all)).toBeGreaterThan(0);
      expect(rows[0]!.all).toBe(rows[0]!.names);
    } finally {
      await client.end();
    }
    expect(servers.members.map((m) => m.child.exitCode ?? m.child.signalCode)).toEqual([null, null]);
  });
});

/**
 * Test databases: in-memory PGlite by default; a fresh database on the real PostgreSQL when
 * TEST_DATABASE_URL is set (created from a migrated template once per worker, dropped at the end).
 */
import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';

const testUrl = process.env.TEST_DATABASE_URL;

export function usingPostgres(): boolean {
  return Boolean(testUrl);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: testUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

// One migrated PGlite per worker, dumped once; each test database loads the dump (~4x faster
// than starting and migrating a new instance).
let pgliteTemplate: Promise<Blob> | null = null;

async function migratedPgliteDump(): Promise<Blob> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrate(database);
  const dump = await (database.raw as PGlite).dumpDataDir('none');
  await database.close();
  return dump;
}

export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  if (!testUrl) {
    pgliteTemplate ??= migratedPgliteDump();
    const database = await openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: await pgliteTemplate });
    return { ...database, drop: () => database.close() };
  }
  const name = `kb_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(testUrl, name), poolSize: 20 });
  await migrate(database);
  return {
    ...database,
    async drop() {
      // pool.end() resolves before every socket has closed; DROP … FORCE may then kill one, and an
      // idle client's error is re-emitted on the pool, which must not be an uncaught exception.
      (database.raw as pg.Pool).on('error', () => undefined);
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

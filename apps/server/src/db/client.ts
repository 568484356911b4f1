/**
 * Opens the database: embedded PGlite (a folder, or memory for tests) or a real PostgreSQL pool.
 * Both are driven through the same Drizzle query builder; `exec` runs multi-statement SQL
 * (migrations) on whichever is underneath.
 */
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { prepareDataDir } from './pglite-folder';

// numeric → string (exact), int8 → string as pg does; timestamps stay Date.
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs SQL text that may hold several statements, in one transaction. */
  execScript(sqlText: string): Promise<void>;
  /**
   * Runs one parameterised statement and returns its rows. With `name`, PostgreSQL prepares it once
   * per connection and reuses the plan (hot paths); the same text must always go with the name.
   */
  query<T extends Record<string, unknown>>(sqlText: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Runs `fn` while holding a database-wide advisory lock (a no-op on single-process PGlite). */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The driver underneath (PGlite instance or pg.Pool), for the few things Drizzle does not cover. */
  raw: PGlite | pg.Pool;
}

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir: string | null;
      /** A dumped data folder to start from (an in-memory database only). */
      loadDataDir?: Blob;
      /** PGlite's WebAssembly, compiled once by a caller that opens many (the tests). */
      wasmModule?: WebAssembly.Module;
    }
  | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'pglite') return openPglite(target.dataDir, target.loadDataDir, target.wasmModule);
  return openPostgres(target.url, target.poolSize ?? 10);
}

async function openPglite(
  dataDir: string | null,
  loadDataDir?: Blob,
  wasmModule?: WebAssembly.Module,
): Promise<Database> {
  // A fresh folder is made in a child process, which takes initdb's memory away with it.
  if (dataDir) await prepareDataDir(dataDir);
  const client = dataDir
    ? new PGlite(dataDir)
    : new PGlite({ ...(loadDataDir ? { loadDataDir } : {}), ...(wasmModule ? { pgliteWasmModule: wasmModule } : {}) });
  await client.waitReady;
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    raw: client,
    kind: 'pglite',
    async execScript(sqlText) {
      await client.transaction(async (tx) => {
        await tx.exec(sqlText);
      });
    },
    async query<T extends Record<string, unknown>>(sqlText: string, params: unknown[] = []) {
      const res = await client.query<T>(sqlText, params);
      return res.rows;
    },
    async withAdvisoryLock(_key, fn) {
      return fn();
    },
    async close() {
      await client.close();
    },
  };
}

/** How long an idle pooled connection is kept (pg's default is 10 s). */
export const POOL_IDLE_MS = 5 * 60_000;

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // Kept for minutes, not pg's 10 s: a chat that goes quiet and then bursts (a raid, a giveaway
  // key) would otherwise meet fresh connections, each costing PostgreSQL its catalog caches and this
  // process its prepared statements — measured as a 300 ms p99 in the first second of a burst.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: POOL_IDLE_MS });
  // An idle connection the server ends (restart, failover, a test's DROP DATABASE … FORCE) leaves
  // the pool, which then emits 'error'; unheard, that event would crash the process.
  pool.on('error', (err: Error & { code?: string }) => {
    if (err.code !== '57P01') console.error(`PostgreSQL: an idle connection failed: ${err.message}`);
  });
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool }) as unknown as Db;
  return {
    db,
    raw: pool,
    kind: 'postgres',
    async execScript(sqlText) {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        await conn.query(sqlText);
        await conn.query('COMMIT');
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    async query<T extends Record<string, unknown>>(sqlText: string, params: unknown[] = [], name?: string) {
      const res = await pool.query<T>(
        name ? { name, text: sqlText, values: params } : { text: sqlText, values: params },
      );
      return res.rows;
    },
    async withAdvisoryLock(key, fn) {
      const conn = await pool.connect();
      try {
        await conn.query('SELECT pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
        conn.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

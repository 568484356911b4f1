/**
 * What the multi-process tests share: the PostgreSQL and Redis they run against (or why they are
 * skipped; in CI a missing service is an error), the server folder to start processes from, a free
 * port, a database URL for a fresh database, and a statement run as the PostgreSQL admin.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresUnreachable } from './postgres-probe';

export const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
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

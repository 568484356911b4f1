/**
 * Applies the SQL files of `migrations/` in name order, each once, each in its own transaction.
 * The same files run on PGlite and PostgreSQL. On PostgreSQL an advisory lock keeps two starting
 * processes from migrating at once; the demo seed runs under the same lock (withMigrationLock).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const MIGRATION_LOCK = 7_240_513;

export function defaultMigrationsDir(): string {
  // In the source tree this is src/db/migrations; the server bundle copies it beside main.js.
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.join(here, 'migrations');
}

/**
 * Runs `fn` under the migration lock: start-up work that must happen once however many processes
 * start together (the demo seed: two processes seeding an empty database at once collide on its
 * unique keys). The second process waits, then finds the work done.
 */
export function withMigrationLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  return database.withAdvisoryLock(MIGRATION_LOCK, fn);
}

/** One migration this process applied, and how long it took (main.ts logs each once). */
export interface AppliedMigration {
  name: string;
  ms: number;
}

/**
 * Applies the migrations not applied yet; returns the names it applied. `onApplied` hears of each
 * as it commits: only the process that applied a migration hears of it, so a cluster's log has it once.
 */
export async function migrate(
  database: Database,
  dir = defaultMigrationsDir(),
  onApplied?: (migration: AppliedMigration) => void,
): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  return database.withAdvisoryLock(MIGRATION_LOCK, async () => {
    // Under the lock too: two processes creating the table at once collide in PostgreSQL's catalogue
    // even with IF NOT EXISTS.
    await database.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied: string[] = [];
    const done = new Set(
      (await database.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const body = readFileSync(path.join(dir, file), 'utf8');
      const started = performance.now();
      await database.execScript(
        `${body}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');`,
      );
      applied.push(file);
      onApplied?.({ name: file, ms: Math.round(performance.now() - started) });
    }
    return applied;
  });
}

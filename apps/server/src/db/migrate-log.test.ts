/**
 * Each migration is reported once, by the process that applied it (main.ts logs the reports,
 * docs/operations.md#upgrades): a fresh database hears of every file, in order; the next start
 * hears of none; a release that adds one hears of that one.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { defaultMigrationsDir, migrate, type AppliedMigration } from './migrate';

let database: Database | null = null;
const dir = mkdtempSync(path.join(tmpdir(), 'kb-migrate-log-'));
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('reports each migration once, when it is applied', async () => {
  const all = readdirSync(defaultMigrationsDir())
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const last = all.at(-1)!;
  cpSync(defaultMigrationsDir(), dir, { recursive: true, filter: (f) => !f.endsWith(last) });
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  const heard: AppliedMigration[] = [];
  await migrate(database, dir, (m) => heard.push(m));
  expect(heard.map((m) => m.name)).toEqual(all.slice(0, -1));
  expect(heard.every((m) => Number.isInteger(m.ms) && m.ms >= 0)).toBe(true);

  heard.length = 0;
  await migrate(database, dir, (m) => heard.push(m));
  expect(heard).toEqual([]);

  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  await migrate(database, dir, (m) => heard.push(m));
  expect(heard.map((m) => m.name)).toEqual([last]);
});

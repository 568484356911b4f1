/**
 * Test databases: a fresh database on the real PostgreSQL (a copy of a migrated template database,
 * dropped at the end) — TEST_DATABASE_URL, else the server at the default address when one answers;
 * in-memory PGlite in the PGlite set (TEST_DATABASE=pglite, apps/server/vitest.pglite.config.ts) or
 * where no PostgreSQL answers. Both start from a template migrated once and kept between runs under
 * the migrations' hash (docs/conventions.md#test-speed).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';
import { defaultMigrationsDir, migrate } from '../src/db/migrate';
import { postgresUnreachable } from './postgres-probe';

/** Where the suite's PostgreSQL is when TEST_DATABASE_URL does not say (the machine's, CI's). */
export const DEFAULT_TEST_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The PostgreSQL the test databases are made on, or undefined for PGlite. A named one
 * (TEST_DATABASE_URL) or CI's must answer; a developer without one gets PGlite and a loud line.
 */
async function chooseTestPostgres(): Promise<string | undefined> {
  if (process.env.TEST_DATABASE === 'pglite') return undefined;
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_POSTGRES;
  const missing = await postgresUnreachable(url);
  if (!missing) return url;
  if (process.env.TEST_DATABASE_URL || process.env.CI) throw new Error(`server tests: ${missing}`);
  console.warn(`\n!!! SERVER TESTS ON PGLITE: ${missing}; start PostgreSQL or set TEST_DATABASE_URL.\n`);
  return undefined;
}

const testUrl = await chooseTestPostgres();

/** The PostgreSQL the race tests chose while one of their blocks runs (test/race-database). */
let racePostgres: string | undefined;

/** While a race block runs, test databases are opened on this PostgreSQL (undefined: back to the default). */
export function openOnPostgres(url: string | undefined): void {
  racePostgres = url;
}

export function usingPostgres(): boolean {
  return Boolean(racePostgres ?? testUrl);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(sqlText: string, url = testUrl): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

// One migrated PGlite, dumped once for the whole run: each test database loads the dump (0.6 s,
// against 3.8 s to start and migrate a new instance). The dump is kept in the temporary folder
// under a name made of the migrations and the PGlite version, so every test file (each in its own
// process) and later runs load it, and a changed migration makes a new one. Loading is what the
// PGlite set spends most of its CPU on, so the dump leaves out template0 and template1 (nothing
// opens them: a third less to load), and each worker compiles PGlite's WebAssembly once
// (docs/conventions.md#test-speed).
let pgliteTemplate: Promise<Blob> | null = null;
let pgliteModule: Promise<WebAssembly.Module> | null = null;

/** The dump's format: part of its name, so a dump made the old way is never loaded. */
const DUMP_FORMAT = 'no-templates';

/** A short hash of the migrations (and, for PGlite, its version): the name of a migrated template. */
function migrationsHash(extra = ''): string {
  const dir = defaultMigrationsDir();
  const hash = createHash('sha256').update(extra);
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name)));
  return hash.digest('hex').slice(0, 16);
}

/** The folder of the PGlite in use (its package.json is not exported: found from its entry point). */
function pgliteRoot(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
}

/** WebAssembly.compile (Node's global; this project's TypeScript libraries declare only its types). */
function compileWasm(bytes: Uint8Array): Promise<WebAssembly.Module> {
  const wasm = (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<WebAssembly.Module> } })
    .WebAssembly;
  return wasm.compile(bytes);
}

function templateFile(): string {
  const version = readFileSync(path.join(pgliteRoot(), 'package.json'), 'utf8');
  return path.join(tmpdir(), `kickback-test-pglite-${migrationsHash(version + DUMP_FORMAT)}.tar`);
}

async function migratedPgliteDump(): Promise<Blob> {
  const file = templateFile();
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrate(database);
  const raw = database.raw as PGlite;
  for (const name of ['template0', 'template1']) {
    await raw.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await raw.exec(`DROP DATABASE ${name}`);
  }
  await raw.exec('CHECKPOINT');
  const dump = await raw.dumpDataDir('none');
  await database.close();
  // Written aside and renamed: a test file starting meanwhile never reads half a dump.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

// On PostgreSQL, a migrated template database made once (kept between runs, named by the
// migrations' hash): each test database is a copy of it, made in one CREATE DATABASE … TEMPLATE
// instead of running every migration again.
const postgresTemplates = new Map<string, Promise<string>>();

async function databaseExists(url: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

async function migratedPostgresTemplate(url: string): Promise<string> {
  const name = `kb_template_${migrationsHash()}`;
  if (await databaseExists(url, name)) return name;
  // Made aside and renamed when complete: a run starting meanwhile never copies half a template.
  const partial = `${name}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${partial}`, url);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(url, partial), poolSize: 2 });
  await migrate(database);
  await database.close();
  try {
    await adminQuery(`ALTER DATABASE ${partial} RENAME TO ${name}`, url);
  } catch (error) {
    await adminQuery(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`, url);
    if (!(await databaseExists(url, name))) throw error; // another run made it first: use theirs
  }
  return name;
}

/** CREATE DATABASE … TEMPLATE; retried while the template's last connection is still closing (55006). */
async function copyOf(url: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`, url);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A fresh test database: PGlite, or a scratch database on the PostgreSQL at `postgresUrl`
 * (TEST_DATABASE_URL by default; inside a race block, the server test/race-database found).
 */
export async function openTestDatabase(
  postgresUrl = racePostgres ?? testUrl,
): Promise<Database & { drop(): Promise<void> }> {
  if (!postgresUrl) {
    pgliteTemplate ??= migratedPgliteDump();
    pgliteModule ??= compileWasm(readFileSync(path.join(pgliteRoot(), 'dist', 'pglite.wasm')));
    const database = await openDatabase({
      kind: 'pglite',
      dataDir: null,
      loadDataDir: await pgliteTemplate,
      wasmModule: await pgliteModule,
    });
    return { ...database, drop: () => database.close() };
  }
  let template = postgresTemplates.get(postgresUrl);
  if (!template) {
    template = migratedPostgresTemplate(postgresUrl);
    postgresTemplates.set(postgresUrl, template);
  }
  const name = `kb_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await copyOf(postgresUrl, await template, name);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(postgresUrl, name), poolSize: 20 });
  return {
    ...database,
    async drop() {
      // pool.end() resolves before every socket has closed; DROP … FORCE may then kill one, and an
      // idle client's error is re-emitted on the pool, which must not be an uncaught exception.
      (database.raw as pg.Pool).on('error', () => undefined);
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, postgresUrl);
    },
  };
}

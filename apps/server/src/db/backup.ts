/**
 * Backups you can restore (docs/backups.md): every table of the site's database as gzipped JSON
 * lines, read in one REPEATABLE READ transaction so the file is one consistent moment of a running
 * site, on PGlite and PostgreSQL alike. A restore goes into a new database of the same schema
 * version: parents before children (foreign keys), identity columns kept, sequences moved past the
 * restored ids, all in one transaction.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client';
import { rowsOf } from './rows';

export const BACKUP_FORMAT = 'kickback-backup';
const BATCH = 2000;

interface Header {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** The schema the rows belong to: a restore needs exactly these migrations applied. */
  migrations: string[];
}

export class BackupError extends Error {}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The public base tables, each after every table it references (migrations' own table left out). */
async function tablesInOrder(db: DbOrTx): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
      ORDER BY table_name`),
  ).map((r) => r.name);
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'`),
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) {
    const strip = (s: string) => s.replace(/^public\./, '').replace(/^"|"$/g, '');
    if (strip(child) !== strip(parent)) parents.get(strip(child))?.add(strip(parent));
  }
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (done.has(table)) return;
    if (path.has(table)) throw new BackupError(`foreign keys form a cycle through ${table}`);
    path.add(table);
    for (const parent of parents.get(table) ?? []) visit(parent, path);
    path.delete(table);
    done.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

async function appliedMigrations(db: DbOrTx): Promise<string[]> {
  return rowsOf<{ name: string }>(await db.execute(sql`SELECT name FROM schema_migrations ORDER BY name`)).map(
    (r) => r.name,
  );
}

/** Writes the backup to `file`; answers how many tables and rows it holds. */
export async function writeBackup(db: Db, file: string, now = new Date()): Promise<{ tables: number; rows: number }> {
  // Opened first: an existing or unwritable file is refused before anything is read.
  const handle = await open(file, 'wx', 0o600);
  const gzip = createGzip();
  const out = handle.createWriteStream();
  const finished = once(out, 'finish');
  gzip.pipe(out);
  const write = async (line: unknown) => {
    if (!gzip.write(`${JSON.stringify(line)}\n`)) await once(gzip, 'drain');
  };
  let rows = 0;
  let tables = 0;
  try {
    await db.transaction(
      async (tx) => {
        const header: Header = {
          format: BACKUP_FORMAT,
          version: 1,
          createdAt: now.toISOString(),
          migrations: await appliedMigrations(tx),
        };
        await write(header);
        for (const table of await tablesInOrder(tx)) {
          tables += 1;
          await write({ table });
          // ctid is a stable order inside one snapshot: batches neither repeat nor skip a row.
          for (let offset = 0; ; offset += BATCH) {
            const batch = rowsOf<{ row: string }>(
              await tx.execute(
                sql.raw(
                  `SELECT row_to_json(t)::text AS row FROM ${ident(table)} t ORDER BY t.ctid LIMIT ${BATCH} OFFSET ${offset}`,
                ),
              ),
            );
            for (const { row } of batch) await write({ row: JSON.parse(row) as unknown });
            rows += batch.length;
            if (batch.length < BATCH) break;
          }
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    gzip.end();
    await finished;
  }
  return { tables, rows };
}

/** The lines of a backup file, parsed; a missing file or a file that is not gzip rejects. */
async function* readLines(file: string): AsyncGenerator<Record<string, unknown>> {
  const input = createReadStream(file);
  await once(input, 'open');
  const gunzip = createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  const decoder = new StringDecoder('utf8'); // a character may be split between two chunks
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    const text = rest + decoder.write(chunk);
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as Record<string, unknown>;
  }
  if (rest.trim() !== '') yield JSON.parse(rest) as Record<string, unknown>;
}

/**
 * Restores `file` into `db`, which must be migrated to the backup's schema and hold no users (a new
 * database: the rows its migrations put in are replaced). Answers how many tables and rows it restored.
 */
/** The `settings` row of the backup schedule (modules/backups): not carried over by a restore. */
export const BACKUP_SCHEDULE_ROW = 'backup_schedule';

export async function restoreBackup(db: Db, file: string): Promise<{ tables: number; rows: number }> {
  const lines = readLines(file);
  let header: Header;
  try {
    const first = await lines.next();
    header = first.value as unknown as Header;
    if (first.done || header.format !== BACKUP_FORMAT || header.version !== 1) throw new Error('not a backup');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).syscall === 'open') throw err;
    throw new BackupError(`${file} is not a Kickback backup (npm run backup writes them).`);
  }
  return db.transaction(async (tx) => {
    const migrations = await appliedMigrations(tx);
    if (migrations.join('\n') !== header.migrations.join('\n')) {
      const theirs = header.migrations.at(-1) ?? 'none';
      const ours = migrations.at(-1) ?? 'none';
      throw new BackupError(
        `The backup's schema (${theirs}) is not this version's (${ours}): restore it with the version of Kickback that made it, then upgrade.`,
      );
    }
    const tables = await tablesInOrder(tx);
    const [hasUsers] = rowsOf<{ any: boolean }>(await tx.execute(sql`SELECT EXISTS (SELECT 1 FROM users) AS any`));
    if (hasUsers?.any) {
      throw new BackupError('The database is not empty (it has users): restore into a new, empty database.');
    }
    // What the migrations themselves put in (default settings rows) makes way for the backup's rows.
    for (const table of [...tables].reverse()) await tx.execute(sql.raw(`DELETE FROM ${ident(table)}`));
    let table: string | null = null;
    let pending: unknown[] = [];
    let rows = 0;
    let count = 0;
    const flush = async () => {
      if (!table || pending.length === 0) return;
      // json_populate_recordset reads each value with its column's own type (numeric, jsonb, bytea…).
      await tx.execute(
        sql`INSERT INTO ${sql.raw(ident(table))} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::${sql.raw(ident(table))}, ${JSON.stringify(pending)}::json)`,
      );
      rows += pending.length;
      pending = [];
    };
    for await (const line of lines) {
      if (typeof line.table === 'string') {
        await flush();
        if (!tables.includes(line.table))
          throw new BackupError(`The backup has a table this version lacks: ${line.table}.`);
        table = line.table;
        count += 1;
      } else if ('row' in line) {
        pending.push(line.row);
        if (pending.length >= BATCH) await flush();
      }
    }
    await flush();
    // The backup schedule and its last-backup record were the old server's (its folder, its file, its
    // due time): this server starts its own, the first backup within a minute of its start.
    await tx.execute(sql`DELETE FROM settings WHERE key = ${BACKUP_SCHEDULE_ROW}`);
    // Identity and serial columns continue after the restored ids.
    const sequences = rowsOf<{ tbl: string; col: string; seq: string }>(
      await tx.execute(sql`
        SELECT c.table_name AS tbl, c.column_name AS col, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS seq
        FROM information_schema.columns c
        WHERE c.table_schema = 'public' AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`),
    );
    for (const { tbl, col, seq } of sequences) {
      await tx.execute(
        sql.raw(
          `SELECT setval('${seq.replace(/'/g, "''")}', COALESCE((SELECT max(${ident(col)}) FROM ${ident(tbl)}), 0) + 1, false)`,
        ),
      );
    }
    return { tables: count, rows };
  });
}

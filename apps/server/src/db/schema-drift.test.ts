/**
 * The SQL migrations are what the database is; the Drizzle schema is what the code believes it is.
 * This check applies every migration to a fresh in-memory PGlite and compares the result with the
 * tables Drizzle declares (every `pgTable` exported from `schema/`): tables, columns, types,
 * nullability, primary keys, unique constraints and indexes. A migration without its schema change
 * (or the reverse) fails here rather than as a query error in production.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { is } from 'drizzle-orm';
import { getTableConfig, IndexedColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { migrate } from './migrate';

/** Per table: column name → "type [not null]"; and its keys and indexes, one line each, sorted. */
type SchemaShape = Record<string, { columns: Record<string, string>; indexes: string[] }>;

const schemaDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema');

async function declaredTables(): Promise<PgTable[]> {
  const tables: PgTable[] = [];
  for (const file of readdirSync(schemaDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const exported = (await import(pathToFileURL(path.join(schemaDir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exported)) if (is(value, PgTable)) tables.push(value);
  }
  return tables;
}

/** Drizzle's SQL type names → PostgreSQL's `format_type` spelling. */
function canonicalType(sqlType: string): string {
  const t = sqlType.replace(/,\s+/g, ',');
  const aliases: Record<string, string> = {
    serial: 'integer',
    bigserial: 'bigint',
    smallserial: 'smallint',
    timestamp: 'timestamp without time zone',
    time: 'time without time zone',
  };
  return t
    .replace(/^(\w+)(?=(\[\])*$)/, (name: string) => aliases[name] ?? name)
    .replace(/^varchar/, 'character varying')
    .replace(/^char\b/, 'character');
}

function column(type: string, notNull: boolean): string {
  return `${type}${notNull ? ' not null' : ''}`;
}

function keyLine(kind: string, columns: string[], extra = ''): string {
  return `${kind} (${columns.join(', ')})${extra}`;
}

function describeDeclared(tables: PgTable[]): SchemaShape {
  const shape: SchemaShape = {};
  for (const table of tables) {
    const config = getTableConfig(table);
    const inCompositeKey = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
    const columns: Record<string, string> = {};
    const indexes: string[] = [];
    for (const c of config.columns) {
      // PostgreSQL makes every primary key column NOT NULL whether or not the schema says so.
      columns[c.name] = column(canonicalType(c.getSQLType()), c.notNull || c.primary || inCompositeKey.has(c.name));
      if (c.primary) indexes.push(keyLine('primary key', [c.name]));
      if (c.isUnique) indexes.push(keyLine('unique', [c.name]));
    }
    for (const pk of config.primaryKeys)
      indexes.push(
        keyLine(
          'primary key',
          pk.columns.map((c) => c.name),
        ),
      );
    for (const u of config.uniqueConstraints)
      indexes.push(
        keyLine(
          'unique',
          u.columns.map((c) => c.name),
        ),
      );
    for (const index of config.indexes) {
      const { name, unique, columns: on, where, method } = index.config;
      const keys = on.map((c) =>
        is(c, IndexedColumn) ? `${c.name}${c.indexConfig.order === 'desc' ? ' desc' : ''}` : 'expr',
      );
      const kind = `${unique ? 'unique index' : 'index'} ${name ?? '(unnamed)'} using ${method ?? 'btree'}`;
      indexes.push(keyLine(kind, keys, where ? ' where …' : ''));
    }
    shape[config.name] = { columns, indexes: indexes.sort() };
  }
  return shape;
}

async function describeMigrated(database: Database): Promise<SchemaShape> {
  const columns = await database.query<{ table: string; name: string; type: string; not_null: boolean }>(`
    SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
           a.attnotnull AS not_null
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relname <> 'schema_migrations'
    ORDER BY c.relname, a.attnum`);
  const indexes = await database.query<{
    table: string;
    name: string;
    constraint_type: string | null;
    is_unique: boolean;
    method: string;
    keys: string[];
    partial: boolean;
  }>(`
    SELECT t.relname AS table, i.relname AS name, con.contype AS constraint_type, x.indisunique AS is_unique,
           am.amname AS method, x.indpred IS NOT NULL AS partial,
           ARRAY(
             SELECT COALESCE(a.attname, 'expr') || CASE WHEN (x.indoption::int2[])[k.pos - 1] & 1 = 1 THEN ' desc' ELSE '' END
             FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, pos)
             LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
             ORDER BY k.pos
           )::text[] AS keys
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_am am ON am.oid = i.relam
    LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.contype IN ('p', 'u')
    WHERE n.nspname = 'public' AND t.relname <> 'schema_migrations'`);
  const shape: SchemaShape = {};
  for (const c of columns) {
    shape[c.table] ??= { columns: {}, indexes: [] };
    shape[c.table]!.columns[c.name] = column(c.type, c.not_null);
  }
  for (const i of indexes) {
    // Constraints are compared by their columns: Drizzle and PostgreSQL name them differently.
    const line =
      i.constraint_type === 'p'
        ? keyLine('primary key', i.keys)
        : i.constraint_type === 'u'
          ? keyLine('unique', i.keys)
          : keyLine(
              `${i.is_unique ? 'unique index' : 'index'} ${i.name} using ${i.method}`,
              i.keys,
              i.partial ? ' where …' : '',
            );
    shape[i.table]?.indexes.push(line);
  }
  for (const t of Object.values(shape)) t.indexes.sort();
  return shape;
}

function part<K extends 'columns' | 'indexes'>(shape: SchemaShape, key: K): Record<string, SchemaShape[string][K]> {
  return Object.fromEntries(Object.entries(shape).map(([table, t]) => [table, t[key]]));
}

let database: Database;
let migrated: SchemaShape;
let declared: SchemaShape;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrate(database);
  migrated = await describeMigrated(database);
  declared = describeDeclared(await declaredTables());
});
afterAll(async () => {
  await database?.close();
});

describe('the Drizzle schema and the SQL migrations', () => {
  it('have the same tables', () => {
    expect(Object.keys(declared).sort()).toEqual(Object.keys(migrated).sort());
  });

  it('have the same columns, with the same types and nullability', () => {
    expect(part(declared, 'columns')).toEqual(part(migrated, 'columns'));
  });

  it('have the same primary keys, unique constraints and indexes', () => {
    expect(part(declared, 'indexes')).toEqual(part(migrated, 'indexes'));
  });
});

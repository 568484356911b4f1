/**
 * 0970_store_codes_unique on a database whose pools already share codes: the copy kept is the sold
 * one (else the earliest), unsold copies elsewhere are removed and their stock recounted, a code
 * sold twice keeps both orders' rows, and from then on a code is unique across pools.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { defaultMigrationsDir, migrate } from '../../db/migrate';

let database: Database | null = null;
const dir = mkdtempSync(path.join(tmpdir(), 'kb-migrations-'));
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps one pool per code and leaves sold codes with their orders', async () => {
  cpSync(defaultMigrationsDir(), dir, { recursive: true, filter: (f) => !f.includes('0970_store_codes_unique') });
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrate(database, dir);
  for (const statement of [
    `INSERT INTO users (id, steam_id, username) VALUES
          ('00000000-0000-4000-8000-000000000001', '1', 'Buyer')`,
    `INSERT INTO products (id, name, price, category, stock, delivery) OVERRIDING SYSTEM VALUE VALUES
          (1, 'A', 1, 'x', 0, 'code'), (2, 'B', 1, 'x', 3, 'code'), (3, 'C', 1, 'x', 2, 'code')`,
    `INSERT INTO orders (id, user_id, product_id, product_name, price) OVERRIDING SYSTEM VALUE VALUES
          (10, '00000000-0000-4000-8000-000000000001', 1, 'A', 1),
          (11, '00000000-0000-4000-8000-000000000001', 2, 'B', 1),
          (12, '00000000-0000-4000-8000-000000000001', 3, 'C', 1)`,
    `INSERT INTO product_codes (id, product_id, code_hash, sealed, tail, order_id) OVERRIDING SYSTEM VALUE VALUES
          (1, 1, 'sold-in-a', 's', 't', 10),
          (2, 2, 'sold-in-a', 's', 't', NULL),
          (3, 2, 'twice', 's', 't', NULL),
          (4, 3, 'twice', 's', 't', NULL),
          (5, 2, 'sold-twice', 's', 't', 11),
          (6, 3, 'sold-twice', 's', 't', 12),
          (7, 2, 'alone', 's', 't', NULL)`,
  ])
    await database.query(statement);

  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  expect(await migrate(database, dir)).toEqual(['0970_store_codes_unique.sql']);

  const rows = await database.query<{ id: number; product_id: number; code_hash: string }>(
    'SELECT id::int, product_id::int, code_hash FROM product_codes ORDER BY id',
  );
  expect(rows).toEqual([
    { id: 1, product_id: 1, code_hash: 'sold-in-a' },
    { id: 3, product_id: 2, code_hash: 'twice' },
    { id: 5, product_id: 2, code_hash: 'sold-twice' },
    { id: 6, product_id: 3, code_hash: 'sold-twice~dup~6' },
    { id: 7, product_id: 2, code_hash: 'alone' },
  ]);
  const stock = await database.query<{ id: number; stock: number }>('SELECT id::int, stock FROM products ORDER BY id');
  expect(stock).toEqual([
    { id: 1, stock: 0 },
    { id: 2, stock: 2 },
    { id: 3, stock: 0 },
  ]);
  await expect(
    database.query(
      `INSERT INTO product_codes (id, product_id, code_hash, sealed, tail) OVERRIDING SYSTEM VALUE VALUES (100, 3, 'alone', 's', 't')`,
    ),
  ).rejects.toThrow(/product_codes_code_unique/);
});

/**
 * A backup of a site with users, orders, games and ledger rows, restored into a new database, holds
 * every row and balance unchanged (docs/backups.md). One of the PGlite set that proves the embedded
 * default (docs/conventions.md#test-speed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { buildTestApp, type TestApp } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { addProduct, givePoints, ledgerMismatches } from '../../test/economy';
import { warmUp, WARM_UP_TIMEOUT } from '../../test/warm';
import { runShellCommand } from '../modules/shell/commands';
import { BACKUP_SCHEDULE_ROW, restoreBackup, writeBackup } from './backup';
import type { Database } from './client';
import { settings } from './schema/audit';
import { images } from './schema/images';
import { products } from './schema/store';
import { rowsOf } from './rows';

let t: TestApp;
const opened: Array<Database & { drop(): Promise<void> }> = [];
const dir = mkdtempSync(path.join(tmpdir(), 'kickback-backup-'));
let n = 0;
const file = () => path.join(dir, `site-${++n}.kbk.gz`);

beforeAll(warmUp, WARM_UP_TIMEOUT);
afterEach(async () => {
  await t?.close();
  await Promise.all(opened.splice(0).map((d) => d.drop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function newDatabase() {
  const database = await openTestDatabase();
  opened.push(database);
  return database;
}

/** Every row of every table, as text, sorted: two databases with the same rows compare equal. */
async function snapshot(database: Database): Promise<Record<string, string[]>> {
  const tables = rowsOf<{ name: string }>(
    await database.db.execute(sql`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`),
  ).map((r) => r.name);
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    if (table === 'schema_migrations') continue;
    out[table] = rowsOf<{ row: string }>(
      await database.db.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM "${table}" t`)),
    )
      .map((r) => r.row)
      .sort();
  }
  return out;
}

/** A site with users, balances through the ledger, an order, live games and audit rows. */
async function livedInSite(): Promise<void> {
  const admin = await t.signIn({ role: 'Admin', name: 'Vex' });
  const viewer = await t.signIn({ name: 'LuckyLuke' });
  await givePoints(t, viewer.user.id, '2500.50');
  await givePoints(t, viewer.user.id, '12.25', 'gems');
  const product = await addProduct(t, { name: 'Hoodie', price: '1000', stock: 5 });
  const order = await t.call({
    method: 'POST',
    url: '/api/Order/OrderProduct',
    as: viewer,
    body: { productId: product.id },
  });
  expect(order.statusCode, order.body).toBe(200);
  const sos = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    body: { reward: 100, counterInSeconds: 60, isPrivate: false },
  });
  expect(sos.statusCode, sos.body).toBe(200);
  const dond = await t.call({
    method: 'POST',
    url: '/api/DealOrNoDeal/create',
    as: admin,
    body: { playerUserId: viewer.user.id, reward: 0, isPrivate: false, Amounts: [...DEFAULT_AMOUNTS] },
  });
  expect(dond.statusCode, dond.body).toBe(200);
  const gate = await t.call({
    method: 'PUT',
    url: '/api/admin/site/age-gate',
    as: admin,
    body: { enabled: false, text: 'Adults only.' },
  });
  expect(gate.statusCode).toBe(200);
  // An uploaded image: its bytes (every value 0–255) come back byte for byte.
  await t.database.db.insert(images).values({
    hash: 'ab'.repeat(32),
    contentType: 'image/png',
    bytes: Uint8Array.from({ length: 256 }, (_, i) => i),
    width: 1,
    height: 1,
    uploadedBy: admin.user.id,
  });
}

describe('backup and restore', () => {
  it('a restored site has every row and balance of the backed-up one, and new ids continue after the old', async () => {
    t = await buildTestApp();
    await livedInSite();
    const before = await snapshot(t.database);
    expect(before.users).toHaveLength(2);
    expect(before.ledger!.length).toBeGreaterThanOrEqual(3);
    expect(before.orders).toHaveLength(1);
    expect(before.images).toHaveLength(1);

    const backup = file();
    const written = await writeBackup(t.database.db, backup);
    expect(written.rows).toBe(Object.values(before).reduce((sum, rows) => sum + rows.length, 0));

    const fresh = await newDatabase();
    const restored = await restoreBackup(fresh.db, backup);
    expect(restored).toEqual(written);
    expect(await snapshot(fresh)).toEqual(before);
    expect(await ledgerMismatches({ ...t, database: fresh })).toEqual([]);

    // Identity columns go on after the restored ids instead of colliding with them.
    const [next] = await fresh.db.insert(products).values({ name: 'Cap', price: '10', category: 'Merch' }).returning();
    expect(next!.id).toBeGreaterThan(Math.max(...before.products!.map((r) => (JSON.parse(r) as { id: number }).id)));
  });

  it("a restore does not carry over the old server's backup schedule or its last backup", async () => {
    t = await buildTestApp();
    await livedInSite();
    await t.database.db.insert(settings).values({
      key: BACKUP_SCHEDULE_ROW,
      value: {
        nextAt: '2099-01-01T00:00:00.000Z',
        last: { at: '2026-01-01T00:00:00.000Z', file: '/old/server/kickback.kbk.gz', size: 10, error: null },
      },
    });
    const backup = file();
    await writeBackup(t.database.db, backup);
    const fresh = await newDatabase();
    await restoreBackup(fresh.db, backup);
    const keys = (await fresh.db.select({ key: settings.key }).from(settings)).map((r) => r.key);
    expect(keys).not.toContain(BACKUP_SCHEDULE_ROW);
    // The rest of the settings came back.
    expect(keys.length).toBeGreaterThan(0);
  });

  it('refuses a database that already has users, a file that is not a backup, and an existing file name', async () => {
    t = await buildTestApp();
    await livedInSite();
    const backup = file();
    await writeBackup(t.database.db, backup);
    const before = await snapshot(t.database);
    await expect(restoreBackup(t.database.db, backup)).rejects.toThrow(/not empty \(it has users\)/);
    expect(await snapshot(t.database)).toEqual(before);
    await expect(runShellCommand({ db: t.database.db }, 'backup', { file: backup })).rejects.toThrow(/exists/);
    const fresh = await newDatabase();
    await expect(runShellCommand({ db: fresh.db }, 'restore', { file: path.join(dir, 'nope.gz') })).rejects.toThrow(
      /No such file/,
    );
    await expect(runShellCommand({ db: fresh.db }, 'restore', { file: import.meta.filename })).rejects.toThrow(
      /not a Kickback backup/,
    );
    // Inside a running server a restore is refused: it goes into a database no server uses.
    await expect(runShellCommand({ db: fresh.db, app: t.app }, 'restore', { file: backup })).rejects.toThrow(/stop it/);
    expect(await runShellCommand({ db: fresh.db }, 'restore', { file: backup })).toMatch(
      /^Restored \d+ rows of \d+ tables/,
    );
  });
});

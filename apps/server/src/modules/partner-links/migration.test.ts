/**
 * 0600_partner_links on a database that already has partner ids: every id becomes a claimed link
 * (nothing credited is taken away), ids that were only unique case-insensitively keep the older
 * claim, and "mark all existing as verified" verifies exactly the migrated claims.
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

it('moves existing partner ids into claimed links and keeps balances', async () => {
  cpSync(defaultMigrationsDir(), dir, { recursive: true, filter: (f) => !f.includes('0600_partner_links') });
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrate(database, dir);
  // Before 0600 ids were unique only case-insensitively: "Neon Wolf" and "neonwolf" could coexist.
  await database.query(`
    INSERT INTO users (steam_id, username, points, clash_id, roobet_name, created_at) VALUES
      ('1', 'Old', 120.50, 'Neon Wolf', 'OldRoo', '2025-01-01'),
      ('2', 'Later', 7, 'other', NULL, '2025-02-01'),
      ('3', 'Spacey', 0, 'neonwolf', NULL, '2025-03-01')
  `);

  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  expect(await migrate(database, dir)).toEqual(['0600_partner_links.sql']);

  const links = await database.query<{
    username: string;
    field: string;
    value: string;
    name_key: string;
    state: string;
    migrated: boolean;
    proof_code: string | null;
  }>(`
    SELECT u.username, l.field, l.value, l.name_key, l.state, l.migrated, l.proof_code
    FROM partner_links l JOIN users u ON u.id = l.user_id ORDER BY u.created_at, l.field
  `);
  expect(links.map(({ proof_code, ...l }) => ({ ...l, hasCode: proof_code !== null }))).toEqual([
    {
      username: 'Old',
      field: 'clashId',
      value: 'Neon Wolf',
      name_key: 'neonwolf',
      state: 'claimed',
      migrated: true,
      hasCode: true,
    },
    {
      username: 'Old',
      field: 'roobetName',
      value: 'OldRoo',
      name_key: 'oldroo',
      state: 'claimed',
      migrated: true,
      hasCode: false,
    },
    {
      username: 'Later',
      field: 'clashId',
      value: 'other',
      name_key: 'other',
      state: 'claimed',
      migrated: true,
      hasCode: true,
    },
    {
      username: 'Spacey',
      field: 'clashId',
      value: 'neonwolf',
      name_key: 'neonwolf',
      state: 'rejected',
      migrated: true,
      hasCode: false,
    },
  ]);
  const after = await database.query<{ username: string; points: string; clash_id: string | null }>(
    `SELECT username, points::text, clash_id FROM users ORDER BY created_at`,
  );
  expect(after).toEqual([
    { username: 'Old', points: '120.50', clash_id: 'Neon Wolf' },
    { username: 'Later', points: '7.00', clash_id: 'other' },
    { username: 'Spacey', points: '0.00', clash_id: null },
  ]);
});

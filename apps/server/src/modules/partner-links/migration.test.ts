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
  // 1110 reads partner_links and 1330 indexes users.points_debt, which 0600 creates: all three wait
  // for the second pass.
  const later = ['0600_partner_links.sql', '1110_unpin_claims.sql', '1330_users_in_debt.sql'];
  cpSync(defaultMigrationsDir(), dir, {
    recursive: true,
    filter: (f) => !later.some((name) => f.endsWith(name)),
  });
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
  expect(await migrate(database, dir)).toEqual(later);

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

it('1110 undoes the partner ids pinned on unproven claims and keeps those of verified links', async () => {
  const own = mkdtempSync(path.join(tmpdir(), 'kb-migrations-'));
  const db = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    cpSync(defaultMigrationsDir(), own, { recursive: true, filter: (f) => !f.includes('1110_unpin_claims') });
    await migrate(db, own);
    await db.query(`
      INSERT INTO users (steam_id, username, created_at) VALUES
        ('11', 'Squatter', '2025-01-01'), ('12', 'Owner', '2025-01-02'), ('13', 'Proven', '2025-01-03')
    `);
    // The squatter claimed the name "neonwolf" and a poll pinned the id of the player called so.
    await db.query(`
      INSERT INTO partner_links (user_id, field, value, name_key, external_id, state, claimed_at, decided_at)
      SELECT id, 'clashId', v.value, v.key, v.ext, v.state, now(),
             CASE WHEN v.state = 'verified' THEN now() END
      FROM users u JOIN (VALUES ('11', 'NeonWolf', 'neonwolf', '777', 'claimed'),
                                ('13', 'Ember', 'ember', '888', 'verified'))
                   AS v(steam, value, key, ext, state) ON v.steam = u.steam_id
    `);
    cpSync(defaultMigrationsDir(), own, { recursive: true });
    expect(await migrate(db, own)).toContain('1110_unpin_claims.sql');
    const links = await db.query<{ value: string; external_id: string | null; state: string }>(
      `SELECT value, external_id, state FROM partner_links ORDER BY value`,
    );
    expect(links).toEqual([
      { value: 'Ember', external_id: '888', state: 'verified' },
      { value: 'NeonWolf', external_id: null, state: 'claimed' },
    ]);
    // The player's own id is his to claim now: nothing holds 777.
    const owner = await db.query(`SELECT 1 AS one FROM partner_links WHERE external_id = '777'`);
    expect(owner).toEqual([]);
  } finally {
    await db.close();
    rmSync(own, { recursive: true, force: true });
  }
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adminUserMessages } from '@kickback/common/http/admin-users';
import { buildApp } from '../../app';
import { runCommand } from '../../cli/run-command';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { acquireDataDirLock } from '../../db/data-lock';
import { migrate } from '../../db/migrate';
import { auditLog } from '../../db/schema/audit';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { runShellCommand } from '../shell/commands';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { pointsArgv } from './shell';

let t: TestApp;
let admin: TestUser;
let fan: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Boss' });
  fan = await t.signIn({ name: 'Fanatic' });
  await t.database.db
    .update(users)
    .set({ kickUsername: 'fan_kick', discordUsername: 'fan#0001', casesId: 'case9' })
    .where(eq(users.id, fan.user.id));
});
afterAll(async () => {
  await t.close();
});

const adjust = (userId: string, body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: `/api/admin/users/${userId}/balance`, as, body });

describe('Admin: Users API', () => {
  it('searches by name prefix or an exact linked id, with balances and linked accounts', async () => {
    const byName = (await t.call({ url: '/api/admin/users?query=fana', as: admin })).json();
    expect(byName.items).toHaveLength(1);
    expect(byName.items[0]).toMatchObject({
      id: fan.user.id,
      username: 'Fanatic',
      points: 0,
      gems: 0,
      role: 'User',
      excluded: false,
      kickUsername: 'fan_kick',
      discordUsername: 'fan#0001',
      casesId: 'case9',
    });
    expect((await t.call({ url: '/api/admin/users?query=FAN_KICK', as: admin })).json().items[0].id).toBe(fan.user.id);
    expect((await t.call({ url: `/api/admin/users?query=${fan.user.steamId}`, as: admin })).json().total).toBe(1);
    expect((await t.call({ url: '/api/admin/users', as: admin })).json().total).toBeGreaterThanOrEqual(2);
  });

  it('grants and deducts points or gems with a reason, through the ledger, audited', async () => {
    const grant = await adjust(fan.user.id, { currency: 'points', amount: 250.5, reason: 'Stream giveaway' });
    expect(grant.statusCode).toBe(200);
    expect(grant.json().user.points).toBe(250.5);
    expect(grant.json().message).toBe(adminUserMessages.adjusted('Fanatic +250.50 points, now 250.50'));
    const deduct = await adjust(fan.user.id, { currency: 'points', amount: '-50.5', reason: 'Duplicate grant' });
    expect(deduct.json().user.points).toBe(200);
    const gems = await adjust(fan.user.id, { currency: 'gems', amount: 3, reason: 'Bonus' });
    expect(gems.json().user.gems).toBe(3);
    const rows = await t.database.db.select().from(ledger).where(eq(ledger.userId, fan.user.id));
    expect(rows.map((r) => [r.reason, r.currency, r.delta, r.memo])).toEqual([
      ['admin_grant', 'points', '250.50', 'Stream giveaway'],
      ['admin_deduct', 'points', '-50.50', 'Duplicate grant'],
      ['admin_grant', 'gems', '3.00', 'Bonus'],
    ]);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, fan.user.id), eq(auditLog.action, 'user.deduct')));
    expect(audits[0]).toMatchObject({
      actorLabel: 'Boss',
      before: { points: '250.50' },
      after: { points: '200.00', amount: '-50.50', reason: 'Duplicate grant' },
    });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses bad adjustments, changing nothing', async () => {
    const before = await t.reload(fan.user.id);
    const cases: Array<[unknown, number, RegExp]> = [
      [{ currency: 'points', amount: 5 }, 400, /^Enter a reason\.$/],
      [{ currency: 'points', amount: 5, reason: '   ' }, 400, /^Enter a reason\.$/],
      [{ currency: 'points', amount: 'ten', reason: 'x' }, 400, /^Enter the amount as a number/],
      [{ currency: 'points', amount: 0, reason: 'x' }, 400, /^Enter an amount other than 0\.$/],
      [{ currency: 'points', amount: 1.005, reason: 'x' }, 400, /^Enter the amount as a number/],
      [{ currency: 'coins', amount: 1, reason: 'x' }, 400, /^Pick points or gems\.$/],
      [{ currency: 'points', amount: -1_000_000, reason: 'Too much' }, 409, /below 0/],
    ];
    for (const [body, status, message] of cases) {
      const res = await adjust(fan.user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(
      (await adjust('00000000-0000-4000-8000-000000000000', { currency: 'points', amount: 1, reason: 'x' })).statusCode,
    ).toBe(404);
    expect((await adjust('not-a-uuid', { currency: 'points', amount: 1, reason: 'x' })).statusCode).toBe(400);
    const after = await t.reload(fan.user.id);
    expect([after.points, after.gems]).toEqual([before.points, before.gems]);
  });

  it('changes role and excluded, audited; not your own role', async () => {
    const role = await t.call({
      method: 'POST',
      url: `/api/admin/users/${fan.user.id}/role`,
      as: admin,
      body: { role: 'Admin' },
    });
    expect(role.json()).toMatchObject({ message: adminUserMessages.roleChanged('Admin'), user: { role: 'Admin' } });
    // The new role applies at once: the fan can now reach admin routes.
    expect((await t.call({ url: '/api/admin/users', as: fan })).statusCode).toBe(200);
    await t.call({ method: 'POST', url: `/api/admin/users/${fan.user.id}/role`, as: admin, body: { role: 'User' } });
    expect((await t.call({ url: '/api/admin/users', as: fan })).statusCode).toBe(403);
    const own = await t.call({
      method: 'POST',
      url: `/api/admin/users/${admin.user.id}/role`,
      as: admin,
      body: { role: 'User' },
    });
    expect(own.statusCode).toBe(409);
    expect(
      (await t.call({ method: 'POST', url: `/api/admin/users/${fan.user.id}/role`, as: admin, body: { role: 'God' } }))
        .statusCode,
    ).toBe(400);

    const ex = await t.call({
      method: 'POST',
      url: `/api/admin/users/${fan.user.id}/excluded`,
      as: admin,
      body: { excluded: true },
    });
    expect(ex.json()).toMatchObject({ message: adminUserMessages.excluded, user: { excluded: true } });
    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, fan.user.id))).map((a) => [
      a.action,
      a.before,
      a.after,
    ]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['user.role', { role: 'User' }, { role: 'Admin' }],
        ['user.role', { role: 'Admin' }, { role: 'User' }],
        ['user.exclude', { excluded: false }, { excluded: true }],
      ]),
    );
    await t.call({
      method: 'POST',
      url: `/api/admin/users/${fan.user.id}/excluded`,
      as: admin,
      body: { excluded: false },
    });
  });

  it('is admin only', async () => {
    expect((await t.call({ url: '/api/admin/users' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/users', as: fan })).statusCode).toBe(403);
    expect((await adjust(fan.user.id, { currency: 'points', amount: 1, reason: 'x' }, fan)).statusCode).toBe(403);
    expect((await adjust(fan.user.id, { currency: 'points', amount: 1, reason: 'x' }, null)).statusCode).toBe(401);
  });
});

describe('npm run admin -- points', () => {
  it('grants and deducts by SteamID with a required reason, audited as the shell', async () => {
    const user = await t.signIn({ name: 'ShellFan' });
    const run = (argv: string[]) => runShellCommand({ db: t.database.db }, 'points', pointsArgv(argv));
    expect(await run([user.user.steamId, '120', '--reason', 'Won the quiz'])).toBe(
      adminUserMessages.adjusted('ShellFan +120.00 points, now 120.00'),
    );
    expect(await run([user.user.steamId, '-20.5', '--reason=Typo'])).toBe(
      adminUserMessages.adjusted('ShellFan -20.50 points, now 99.50'),
    );
    await expect(run([user.user.steamId, '10'])).rejects.toThrow(/reason/);
    await expect(run([user.user.steamId, 'lots', '--reason', 'x'])).rejects.toThrow(/amount/);
    await expect(run(['123', '10', '--reason', 'x'])).rejects.toThrow(/steamId/);
    await expect(run(['76561198999999999', '10', '--reason', 'x'])).rejects.toThrow(/No user with SteamID/);
    await expect(run([user.user.steamId, '-1000', '--reason', 'x'])).rejects.toThrow(/below 0/);
    expect((await t.reload(user.user.id)).points).toBe('99.50');
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.user.id), eq(auditLog.action, 'user.grant')));
    expect(audit).toMatchObject({ actorLabel: 'shell', actorUserId: null, after: { reason: 'Won the quiz' } });
  });
});

// The CLI on the embedded database (a PGlite folder, DATABASE_URL empty) in both cases, whatever
// database the rest of the file runs on.
describe('npm run admin -- points, as the CLI runs it', () => {
  const dirs: string[] = [];
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('goes through the running server that holds the embedded database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-points-'));
    dirs.push(dataDir);
    process.env = { ...saved, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' };
    const lock = await acquireDataDirLock(dataDir);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await migrate(database);
    const app = await buildApp({ config: loadConfig(), database, webDist: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await database.query("INSERT INTO users (steam_id, username) VALUES ('76561198000000002', 'Live')");
      expect(await runCommand('points', pointsArgv(['76561198000000002', '7.5', '--reason', 'via server']))).toBe(
        adminUserMessages.adjusted('Live +7.50 points, now 7.50'),
      );
      await expect(runCommand('points', pointsArgv(['76561198000000002', '-8', '--reason', 'x']))).rejects.toThrow(
        /below 0/,
      );
      const [row] = await database.query<{ points: string }>(
        "SELECT points FROM users WHERE steam_id = '76561198000000002'",
      );
      expect(row?.points).toBe('7.50');
    } finally {
      await app.close();
      await database.close();
      lock.release();
    }
  });

  it('runs on the embedded database when no server holds it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-points-'));
    dirs.push(dataDir);
    process.env = { ...saved, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' };
    await expect(runCommand('points', pointsArgv(['76561198000000001', '5', '--reason', 'x']))).rejects.toThrow(
      /must sign in once/,
    );
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.query("INSERT INTO users (steam_id, username) VALUES ('76561198000000001', 'Cli')");
    await database.close();
    expect(await runCommand('points', pointsArgv(['76561198000000001', '42', '--reason', 'scripted']))).toBe(
      adminUserMessages.adjusted('Cli +42.00 points, now 42.00'),
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { runShellCommand } from '../shell/commands';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('role changes from the shell and the audit log', () => {
  it('grant and revoke change the role, take effect on the next request, and are audited', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    const target = await t.signIn({ name: 'Modder' });
    expect(await runShellCommand({ db: t.database.db }, 'grant', { steamId: target.user.steamId })).toBe(
      `Modder (${target.user.steamId}) is now Admin.`,
    );
    expect((await t.call({ url: '/api/admin/audit', as: target })).statusCode).toBe(200);
    await runShellCommand({ db: t.database.db }, 'revoke', { steamId: target.user.steamId });
    expect((await t.call({ url: '/api/admin/audit', as: target })).statusCode).toBe(403);

    const res = await t.call({ url: '/api/admin/audit?action=user.role', as: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.items[0]).toMatchObject({
      actor: 'shell',
      action: 'user.role',
      targetId: target.user.id,
      before: { role: 'Admin' },
      after: { role: 'User' },
    });
    expect(body.actions).toContain('user.role');
  });

  it('refuses an unknown SteamID and a malformed one with a message', async () => {
    await expect(runShellCommand({ db: t.database.db }, 'grant', { steamId: '76561198999999999' })).rejects.toThrow(
      /No user with SteamID/,
    );
    await expect(runShellCommand({ db: t.database.db }, 'grant', { steamId: 'bob' })).rejects.toThrow(
      /Invalid arguments/,
    );
  });

  it('keeps the audit log admin-only and validates the page number', async () => {
    const user = await t.signIn();
    const admin = await t.signIn({ role: 'Admin' });
    expect((await t.call({ url: '/api/admin/audit' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/audit', as: user })).statusCode).toBe(403);
    const bad = await t.call({ url: '/api/admin/audit?page=zero', as: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/page/);
  });
});

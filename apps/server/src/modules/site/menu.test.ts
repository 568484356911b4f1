/**
 * Admin → Settings → Menu (docs/features/site-and-admin-tools.md#the-menu): the menus' order and
 * hidden features, saved on the server, served in `/api/site` (its cached read dropped at once),
 * audited; a menu that leaves a feature out or names one twice is refused with 400.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMenu, menuFeatureIds, type MenuEntry } from '@kickback/common/site-menu';
import { auditLog, settings } from '../../db/schema/audit';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin' });
});
afterAll(async () => {
  await t.close();
});

const URL = '/api/admin/site/menu';
const siteMenu = async (): Promise<MenuEntry[]> => (await t.call({ url: '/api/site' })).json().menu;

describe('the site menu', () => {
  it('is every feature, shown, in the list order until an admin changes it, with the new pages after the contract’s', async () => {
    const menu = await siteMenu();
    expect(menu).toEqual(defaultMenu);
    expect(menu.map((e) => e.id).slice(0, 7)).toEqual([
      'home',
      'leaderboard',
      'store',
      'daily-rewards',
      'challenges',
      'roobet-vip',
      'hunt',
    ]);
    expect(menu.map((e) => e.id)).toEqual(expect.arrayContaining(['live', 'raffles', 'battles', 'calls', 'earn']));
  });

  it('an admin reorders and hides; /api/site shows it at once, and it is audited', async () => {
    await siteMenu(); // cached now
    const next = [...defaultMenu].reverse().map((e) => ({ ...e, shown: e.id !== 'raffles' }));
    const res = await t.call({ method: 'PUT', url: URL, as: admin, body: { menu: next } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Settings successfully updated.');
    expect(await siteMenu()).toEqual(next);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.menu'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: admin.user.id, before: defaultMenu, after: next });
  });

  it('refuses a menu that leaves a feature out or names one twice, naming the field', async () => {
    const before = await siteMenu();
    const missing = await t.call({ method: 'PUT', url: URL, as: admin, body: { menu: defaultMenu.slice(1) } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: 'Name every feature: hide one instead of leaving it out.',
      fields: [{ path: 'menu' }],
    });
    const twice = await t.call({
      method: 'PUT',
      url: URL,
      as: admin,
      body: { menu: [...defaultMenu, { id: 'home', shown: false }] },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('Name each feature once.');
    const unknown = await t.call({
      method: 'PUT',
      url: URL,
      as: admin,
      body: { menu: [...defaultMenu, { id: 'casino', shown: true }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(await siteMenu()).toEqual(before);
  });

  it('is for admins only', async () => {
    const viewer = await t.signIn();
    const body = { menu: defaultMenu };
    expect((await t.call({ method: 'PUT', url: URL, as: viewer, body })).statusCode).toBe(403);
    expect((await t.call({ method: 'PUT', url: URL, as: null, body })).statusCode).toBe(401);
  });

  it('a stored menu from before a feature existed still lists it, shown, at the end', async () => {
    const old = menuFeatureIds.filter((id) => id !== 'earn').map((id) => ({ id, shown: id !== 'home' }));
    await t.database.db
      .insert(settings)
      .values({ key: 'menu', value: old })
      .onConflictDoUpdate({ target: settings.key, set: { value: old } });
    t.app.reads.invalidate('site');
    const menu = await siteMenu();
    expect(menu.at(-1)).toEqual({ id: 'earn', shown: true });
    expect(menu.find((e) => e.id === 'home')).toEqual({ id: 'home', shown: false });
  });
});

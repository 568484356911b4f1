import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

const gateOf = async () => (await t.call({ url: '/api/site' })).json().ageGate;

describe('the 18+ gate: site configuration an admin can change', () => {
  it('is on by default with the configured text', async () => {
    t = await buildTestApp();
    expect(await gateOf()).toEqual({ enabled: true, text: expect.stringContaining('18 or older') });
  });

  it('an admin turns it off and changes the text; /api/site shows it at once (the cached read is dropped) and the change is audited', async () => {
    t = await buildTestApp();
    expect((await gateOf()).enabled).toBe(true); // cached now
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({
      method: 'PUT',
      url: '/api/admin/site/age-gate',
      as: admin,
      body: { enabled: false, text: '  Adults only, where allowed.  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Settings successfully updated.',
      ageGate: { enabled: false, text: 'Adults only, where allowed.' },
    });
    expect(await gateOf()).toEqual({ enabled: false, text: 'Adults only, where allowed.' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.age_gate'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorUserId: admin.user.id,
      before: { enabled: true },
      after: { enabled: false },
    });
  });

  it('survives a restart (stored in settings, not in memory)', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    await t.call({ method: 'PUT', url: '/api/admin/site/age-gate', as: admin, body: { enabled: false, text: 'Off.' } });
    t.app.reads.invalidate('site'); // as a fresh process would: nothing cached
    expect(await gateOf()).toEqual({ enabled: false, text: 'Off.' });
  });

  it('only admins: 401 without sign-in, 403 for a user; bad input is 400 and changes nothing', async () => {
    t = await buildTestApp();
    const body = { enabled: false, text: 'x' };
    expect((await t.call({ method: 'PUT', url: '/api/admin/site/age-gate', body })).statusCode).toBe(401);
    const user = await t.signIn();
    expect((await t.call({ method: 'PUT', url: '/api/admin/site/age-gate', as: user, body })).statusCode).toBe(403);
    const admin = await t.signIn({ role: 'Admin' });
    const empty = await t.call({
      method: 'PUT',
      url: '/api/admin/site/age-gate',
      as: admin,
      body: { enabled: false, text: '   ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Enter the text visitors confirm');
    const long = await t.call({
      method: 'PUT',
      url: '/api/admin/site/age-gate',
      as: admin,
      body: { enabled: true, text: 'x'.repeat(1001) },
    });
    expect(long.statusCode).toBe(400);
    expect((await gateOf()).enabled).toBe(true);
  });
});

describe('a signed-in user’s confirmation is stored with the account', () => {
  it('ping says ageConfirmed false, then true after confirming, on any browser (session)', async () => {
    t = await buildTestApp();
    const me = await t.signIn();
    expect((await t.call({ url: '/api/User/ping', as: me })).json().ageConfirmed).toBe(false);
    const res = await t.call({ method: 'POST', url: '/api/User/age-confirmation', as: me });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ageConfirmed: true });
    const first = (await t.reload(me.user.id)).ageConfirmedAt;
    expect(first).toBeInstanceOf(Date);
    // A second browser signs in as the same user: the confirmation is already there.
    const other = await t.signIn({ steamId: me.user.steamId });
    expect((await t.call({ url: '/api/User/ping', as: other })).json().ageConfirmed).toBe(true);
    // Confirming again keeps the first time.
    t.clock.advance(60_000);
    await t.call({ method: 'POST', url: '/api/User/age-confirmation', as: other });
    expect((await t.reload(me.user.id)).ageConfirmedAt).toEqual(first);
  });

  it('needs a sign-in (401) and is CSRF-guarded like every /api write', async () => {
    t = await buildTestApp();
    expect((await t.call({ method: 'POST', url: '/api/User/age-confirmation' })).statusCode).toBe(401);
    const me = await t.signIn();
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/User/age-confirmation',
      headers: { cookie: me.cookie },
    });
    expect(noHeader.statusCode).toBe(403);
    expect((await t.call({ url: '/api/User/ping', as: me })).json().ageConfirmed).toBe(false);
  });
});

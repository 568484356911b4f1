import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDemoSteamId } from '@kickback/common/steam-id';
import { demoUsers } from '../../config';
import { buildTestApp, LogCapture, TEST_PUBLIC_URL, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

function cookiesOf(res: { headers: Record<string, unknown> }): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const out: Record<string, string> = {};
  for (const c of list) {
    const [pair] = String(c).split(';');
    const [k, v] = (pair ?? '').split('=');
    if (k) out[k] = v ?? '';
  }
  return out;
}

/** Runs sign-in through the dev provider up to the callback; returns the callback URL and state cookie. */
async function assertionFor(
  app: TestApp,
  steamid = '76561199999999011',
  personaname = 'LuckyLuke',
  opts: { returnTo?: string } = {},
) {
  const query = opts.returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(opts.returnTo)}`;
  const start = await app.app.inject({ method: 'GET', url: `/auth/steam/signin${query}` });
  expect(start.statusCode).toBe(302);
  const state = cookiesOf(start).kb_openid_state;
  const returnCookie = cookiesOf(start).kb_openid_return;
  expect(state).toBeTruthy();
  const provider = new URL(String(start.headers.location));
  expect(provider.origin + provider.pathname).toBe(`${TEST_PUBLIC_URL}/dev/openid/login`);
  const page = await app.app.inject({ method: 'GET', url: provider.pathname + provider.search });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('Dev sign-in');
  const posted = await app.app.inject({
    method: 'POST',
    url: provider.pathname + provider.search,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // A demo id is reached through its demo button, which sends demo=1.
    payload: new URLSearchParams({ steamid, personaname, ...(isDemoSteamId(steamid) ? { demo: '1' } : {}) }).toString(),
  });
  expect(posted.statusCode).toBe(302);
  const callback = new URL(String(posted.headers.location));
  return { callback, state: state ?? '', returnCookie, providerPath: provider.pathname + provider.search };
}

async function callback(app: TestApp, url: URL, state: string, returnCookie?: string) {
  return app.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: { cookie: `kb_openid_state=${state}${returnCookie ? `; kb_openid_return=${returnCookie}` : ''}` },
  });
}

/** Posts the dev provider's sign-in form as a person typing it (no demo button). */
async function postTyped(app: TestApp, providerPath: string, fields: Record<string, string>) {
  return app.app.inject({
    method: 'POST',
    url: providerPath,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

async function providerPathOf(app: TestApp, query = '') {
  const start = await app.app.inject({ method: 'GET', url: `/auth/steam/signin${query}` });
  const provider = new URL(String(start.headers.location));
  return { providerPath: provider.pathname + provider.search, start };
}

function popupMessage(body: string): { success: boolean; message: string } {
  const m = /<script type="application\/json" id="kb-popup-result">(.*?)<\/script>/s.exec(body);
  if (!m?.[1]) throw new Error('no popup message in page');
  return (JSON.parse(m[1]) as { message: { success: boolean; message: string } }).message;
}

describe('Steam sign-in through the dev identity provider', () => {
  it('signs a new user in, names them from the simulated GetPlayerSummaries, and ping answers the auth user', async () => {
    t = await buildTestApp();
    const { callback: url, state } = await assertionFor(t);
    expect(url.pathname).toBe('/auth/steam/callback');
    const res = await callback(t, url, state);
    expect(res.statusCode).toBe(200);
    expect(popupMessage(res.body)).toEqual({ type: 'authpopup', success: true, message: 'Signed in.' });
    expect(res.body).toContain(`"origin":"${TEST_PUBLIC_URL}"`); // the page script posts it to that origin only
    const session = cookiesOf(res).kb_session;
    expect(session).toBeTruthy();
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const ping = await t.call({ url: '/api/User/ping', headers: { cookie: `kb_session=${session}` } });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({
      isAuthenticated: true,
      username: 'LuckyLuke',
      role: 'User',
      steamId: '76561199999999011',
      points: 0,
    });
    expect(ping.json().avatarUrl).toContain('/dev/steam/avatar/76561199999999011.svg');
  });

  it('gives the demo admin the Admin role in dev', async () => {
    t = await buildTestApp();
    const { callback: url, state } = await assertionFor(t, '76561199999999001', 'StreamerAdmin');
    const res = await callback(t, url, state);
    const ping = await t.call({
      url: '/api/User/ping',
      headers: { cookie: `kb_session=${cookiesOf(res).kb_session}` },
    });
    expect(ping.json().role).toBe('Admin');
  });

  it('refuses a replayed assertion: no second session, the log names the check', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const { callback: url, state } = await assertionFor(t);
    expect(popupMessage((await callback(t, url, state)).body).success).toBe(true);
    const again = await callback(t, url, state);
    expect(popupMessage(again.body)).toEqual({ type: 'authpopup', success: false, message: 'Authentication failed.' });
    expect(cookiesOf(again).kb_session).toBeUndefined();
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'provider_rejected' });
  });

  it('refuses an assertion whose signature was tampered with (provider answers is_valid:false)', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const { callback: url, state } = await assertionFor(t);
    url.searchParams.set('openid.sig', Buffer.from('forged').toString('base64'));
    const res = await callback(t, url, state);
    expect(popupMessage(res.body).success).toBe(false);
    expect(cookiesOf(res).kb_session).toBeUndefined();
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'provider_rejected' });
  });

  it('refuses another identity swapped into a signed assertion', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const { callback: url, state } = await assertionFor(t);
    const admin = 'https://steamcommunity.com/openid/id/76561199999999001';
    url.searchParams.set('openid.claimed_id', admin);
    url.searchParams.set('openid.identity', admin);
    const res = await callback(t, url, state);
    expect(popupMessage(res.body).success).toBe(false);
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'provider_rejected' });
  });

  it('refuses a callback whose state cookie belongs to another sign-in', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const { callback: url } = await assertionFor(t);
    const res = await callback(t, url, 'someone-elses-state');
    expect(popupMessage(res.body).success).toBe(false);
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'state' });
  });

  it('refuses an op_endpoint pointing at another provider', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const { callback: url, state } = await assertionFor(t);
    url.searchParams.set('openid.op_endpoint', 'https://evil.example/openid/login');
    const res = await callback(t, url, state);
    expect(popupMessage(res.body).success).toBe(false);
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'op_endpoint' });
  });

  it('reports an unreachable Steam as a failed sign-in', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({
      logs,
      env: { STEAM_SIGNIN: 'steam' },
      networkFetch: async () => {
        throw new TypeError('getaddrinfo ENOTFOUND steamcommunity.com');
      },
    });
    const start = await t.app.inject({ method: 'GET', url: '/auth/steam/signin' });
    const state = cookiesOf(start).kb_openid_state ?? '';
    const location = new URL(String(start.headers.location));
    expect(location.origin).toBe('https://steamcommunity.com');
    const id = 'https://steamcommunity.com/openid/id/76561198000000009';
    const q = new URLSearchParams({
      state,
      'openid.ns': 'http://specs.openid.net/auth/2.0',
      'openid.mode': 'id_res',
      'openid.op_endpoint': 'https://steamcommunity.com/openid/login',
      'openid.claimed_id': id,
      'openid.identity': id,
      'openid.return_to': `${TEST_PUBLIC_URL}/auth/steam/callback?state=${state}`,
      'openid.response_nonce': `${t.clock.now().toISOString().slice(0, 19)}Zabc`,
      'openid.assoc_handle': '1234567890',
      'openid.signed': 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
      'openid.sig': 'x',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/auth/steam/callback?${q.toString()}`,
      headers: { cookie: `kb_openid_state=${state}` },
    });
    expect(popupMessage(res.body).success).toBe(false);
    expect(logs.find('steam sign-in refused')).toMatchObject({ check: 'provider_unreachable' });
  });

  it('sets a script-readable signed-in hint with the session, again for older sessions, and clears it at sign-out', async () => {
    t = await buildTestApp();
    const { callback: url, state } = await assertionFor(t);
    const res = await callback(t, url, state);
    const hint = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('kb_signed_in='));
    expect(hint).toMatch(/^kb_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    const session = `kb_session=${cookiesOf(res).kb_session}`;
    const older = await t.call({ url: '/api/User/ping', headers: { cookie: session } });
    expect(String(older.headers['set-cookie'])).toMatch(/^kb_signed_in=1;/);
    const current = await t.call({ url: '/api/User/ping', headers: { cookie: `${session}; kb_signed_in=1` } });
    expect(current.headers['set-cookie']).toBeUndefined();
    const out = await t.call({ url: '/auth/signout', headers: { cookie: `${session}; kb_signed_in=1` } });
    expect(String(out.headers['set-cookie'])).toMatch(/kb_signed_in=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('signs out: the session stops working at once', async () => {
    t = await buildTestApp();
    const me = await t.signIn();
    expect((await t.call({ url: '/api/User/ping', as: me })).statusCode).toBe(200);
    const out = await t.call({ url: '/auth/signout', as: me });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Signed out.' });
    expect((await t.call({ url: '/api/User/ping', as: me })).statusCode).toBe(401);
  });

  it('signs in a new-generation account (7656120…) and the last id of the range', async () => {
    t = await buildTestApp();
    for (const steamid of ['76561200000000042', '76561202255233023']) {
      const { callback: url, state } = await assertionFor(t, steamid, 'NewGen');
      const res = await callback(t, url, state);
      expect(popupMessage(res.body)).toMatchObject({ success: true });
      const ping = await t.call({
        url: '/api/User/ping',
        headers: { cookie: `kb_session=${cookiesOf(res).kb_session}` },
      });
      expect(ping.json()).toMatchObject({ isAuthenticated: true, steamId: steamid });
    }
  });

  it('the dev provider refuses a malformed SteamID without redirecting', async () => {
    t = await buildTestApp();
    const start = await t.app.inject({ method: 'GET', url: '/auth/steam/signin' });
    const provider = new URL(String(start.headers.location));
    const res = await t.app.inject({
      method: 'POST',
      url: provider.pathname + provider.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'steamid=123&personaname=x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter a SteamID64: 17 digits from 76561197960265729 to 76561202255233023.');
  });
});

describe('sign-in in the same tab (phones, blocked pop-ups)', () => {
  it('returns to the page it started from with ?signin=ok and a session', async () => {
    t = await buildTestApp();
    const {
      callback: url,
      state,
      returnCookie,
    } = await assertionFor(t, '76561198123450001', 'TabUser', {
      returnTo: '/store?tab=skins#top',
    });
    expect(returnCookie).toBeTruthy();
    const res = await callback(t, url, state, returnCookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/store?tab=skins&signin=ok#top');
    expect(cookiesOf(res).kb_session).toBeTruthy();
    const ping = await t.call({
      url: '/api/User/ping',
      headers: { cookie: `kb_session=${cookiesOf(res).kb_session}` },
    });
    expect(ping.json()).toMatchObject({ username: 'TabUser', steamId: '76561198123450001' });
  });

  it.each([
    ['another origin', 'https://evil.example/'],
    ['protocol-relative', '//evil.example/x'],
    ['backslash trick', '/\\evil.example'],
    ['a scheme', 'javascript:alert(1)'],
    ['no leading slash', 'store'],
    ['a server route', '/auth/signout'],
    ['a tab hidden in the path', '/\t/evil.example'],
  ])('refuses a return path that is %s with 400 and starts nothing', async (_what, returnTo) => {
    t = await buildTestApp();
    const res = await t.app.inject({ url: `/auth/steam/signin?returnTo=${encodeURIComponent(returnTo)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('returnTo must be a path on this site, like /store.');
    expect(cookiesOf(res).kb_openid_state).toBeUndefined();
  });

  it('ignores a forged return cookie at the callback (a cookie is input too)', async () => {
    t = await buildTestApp();
    const { callback: url, state } = await assertionFor(t, '76561198123450002', 'Forged');
    const res = await callback(t, url, state, encodeURIComponent('//evil.example'));
    expect(res.statusCode).toBe(200); // the popup page, not a redirect anywhere
    expect(popupMessage(res.body).success).toBe(true);
  });
});

describe('cancelling at the provider', () => {
  it('the dev provider page has a Cancel that answers like Steam (openid.mode=cancel)', async () => {
    t = await buildTestApp();
    const { providerPath } = await providerPathOf(t);
    const page = await t.app.inject({ url: providerPath });
    expect(page.body).toMatch(/<button class="ghost" type="submit">Cancel<\/button>/);
    const res = await postTyped(t, providerPath, { cancel: '1' });
    expect(res.statusCode).toBe(302);
    const back = new URL(String(res.headers.location));
    expect(back.pathname).toBe('/auth/steam/callback');
    expect(back.searchParams.get('openid.mode')).toBe('cancel');
  });

  it('a cancel in the popup says so in plain words, not "Authentication failed."', async () => {
    t = await buildTestApp();
    const { providerPath, start } = await providerPathOf(t);
    const back = new URL(String((await postTyped(t, providerPath, { cancel: '1' })).headers.location));
    const res = await callback(t, back, cookiesOf(start).kb_openid_state ?? '');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Sign-in cancelled</h1>');
    expect(popupMessage(res.body)).toEqual({
      type: 'authpopup',
      success: false,
      cancelled: true,
      message: 'Sign-in cancelled. You are not signed in.',
    });
    expect(cookiesOf(res).kb_session).toBeUndefined();
  });

  it("Steam's own cancel (openid.mode=cancel) in the same tab returns to the page with ?signin=cancelled", async () => {
    t = await buildTestApp();
    const { start } = await providerPathOf(t, '?returnTo=%2FChallenges');
    const c = cookiesOf(start);
    const res = await callback(
      t,
      new URL(
        `${TEST_PUBLIC_URL}/auth/steam/callback?openid.ns=http%3A%2F%2Fspecs.openid.net%2Fauth%2F2.0&openid.mode=cancel`,
      ),
      c.kb_openid_state ?? '',
      c.kb_openid_return,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/Challenges?signin=cancelled');
    expect(cookiesOf(res).kb_session).toBeUndefined();
  });
});

describe('the dev provider never hands a typed id a demo account', () => {
  it('refuses a typed demo id and says which ids are demo ones', async () => {
    t = await buildTestApp();
    const { providerPath } = await providerPathOf(t);
    const page = await t.app.inject({ url: providerPath });
    expect(page.body).toContain('Demo ids are 76561199999999000 to 76561199999999999');
    const res = await postTyped(t, providerPath, { steamid: '76561199999999011', personaname: 'Mallory' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('76561199999999011 is a demo id');
    expect(res.headers.location).toBeUndefined();
  });

  it('refuses the demo flag on an id that is not a demo user', async () => {
    t = await buildTestApp();
    const { providerPath } = await providerPathOf(t);
    const res = await postTyped(t, providerPath, { steamid: '76561198123459999', personaname: 'X', demo: '1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('76561198123459999 is not a demo user.');
  });

  it('a typed id that is not a demo id gets a fresh user, never a demo account', async () => {
    t = await buildTestApp({ env: { DEMO_DATA: 'true' } });
    // The old demo ids are ordinary ids now: typing one is a new account with the typed name.
    for (const [steamid, name] of [
      ['76561198000000001', 'NotLuke'],
      ['76561197960287930', 'NotTheAdmin'],
    ] as const) {
      const { callback: url, state } = await assertionFor(t, steamid, name);
      const res = await callback(t, url, state);
      const ping = await t.call({
        url: '/api/User/ping',
        headers: { cookie: `kb_session=${cookiesOf(res).kb_session}` },
      });
      expect(ping.json()).toMatchObject({ steamId: steamid, username: name, role: 'User', points: 0 });
    }
    // …while every demo user sits in the demo block nobody types by chance.
    for (const u of demoUsers) expect(isDemoSteamId(u.steamId), u.name).toBe(true);
  });
});

/**
 * The router ignores case and decodes escapes, so every check must decide on the same path it
 * matched: `/API/…`, `/Api/…` and `/%61pi/…` get the CSRF check, the session, the default access
 * level and the rate limit of `/api/…`, and share its budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '6' },
    routes(app) {
      app.get('/api/test/undeclared', async () => ({ ok: true }));
    },
  });
});
afterAll(async () => {
  await t.close();
});

const variants = ['/API/LeaderBoard/now', '/Api/leaderboard/NOW', '/%61pi/LeaderBoard/now', '//api/LeaderBoard/now'];

describe('one normalised path for routing and every check', () => {
  it('refuses every case or escape variant of /api without the CSRF header, as /api itself', async () => {
    for (const url of ['/api/LeaderBoard/now', ...variants]) {
      const res = await t.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.1' });
      expect(res.statusCode, url).toBe(403);
    }
    const signOut = await t.app.inject({ method: 'GET', url: '/AUTH/SignOut', remoteAddress: '10.0.0.1' });
    expect(signOut.statusCode).toBe(403);
  });

  it('reads the session and applies the default access (admin) on a variant', async () => {
    const me = await t.signIn();
    const admin = await t.signIn({ role: 'Admin' });
    const headers = { 'x-requested-with': 'kickback' };
    const user = await t.app.inject({ url: '/API/User/ping', headers: { ...headers, cookie: me.cookie } });
    expect(user.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/API/TEST/undeclared', headers })).statusCode).toBe(401);
    const asUser = await t.app.inject({ url: '/API/TEST/undeclared', headers: { ...headers, cookie: me.cookie } });
    expect(asUser.statusCode).toBe(403);
    const asAdmin = await t.app.inject({ url: '/API/TEST/undeclared', headers: { ...headers, cookie: admin.cookie } });
    expect(asAdmin.statusCode).toBe(200);
  });

  it('counts every variant against the same rate limit as /api', async () => {
    const statuses: number[] = [];
    const routed = variants.filter((v) => !v.startsWith('//')); // the router does not fold slashes: 404
    for (const url of [...routed, '/api/LeaderBoard/now', ...routed, ...routed]) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: '10.0.0.2',
        headers: { 'x-requested-with': 'kickback' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
  });

  it('answers an unknown variant of /api with the JSON 404, not the web page', async () => {
    const res = await t.call({ url: '/API/NoSuchThing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBeTruthy();
  });
});

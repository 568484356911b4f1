import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    routes(app) {
      // Throwaway routes, declared the way features declare theirs.
      app.get('/api/test/admin-only', { config: { access: 'admin' } }, async () => ({ ok: true }));
      app.get('/api/test/undeclared', async () => ({ ok: true }));
      app.post('/api/test/echo', { config: { access: 'user' } }, async (req) => req.body as object);
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('CSRF, sign-in and role guards', () => {
  it('refuses an /api call without the X-Requested-With header (403)', async () => {
    const me = await t.signIn();
    const res = await t.app.inject({ method: 'GET', url: '/api/User/ping', headers: { cookie: me.cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/origin/i);
  });

  it('refuses a cross-origin Origin header (403) and accepts our own', async () => {
    const me = await t.signIn();
    const evil = await t.call({ url: '/api/User/ping', as: me, headers: { origin: 'https://evil.example' } });
    expect(evil.statusCode).toBe(403);
    const ours = await t.call({ url: '/api/User/ping', as: me, headers: { origin: 'http://kickback.test' } });
    expect(ours.statusCode).toBe(200);
  });

  it('requires the header on sign-out too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/signout' });
    expect(res.statusCode).toBe(403);
  });

  it('answers 401 to anonymous callers of user and admin routes', async () => {
    expect((await t.call({ url: '/api/User/ping' })).statusCode).toBe(401);
    const res = await t.call({ url: '/api/test/admin-only' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Sign in required.' });
  });

  it('answers 403 to a User on an admin route and 200 to an Admin', async () => {
    const user = await t.signIn();
    const admin = await t.signIn({ role: 'Admin' });
    expect((await t.call({ url: '/api/test/admin-only', as: user })).statusCode).toBe(403);
    expect((await t.call({ url: '/api/test/admin-only', as: admin })).statusCode).toBe(200);
  });

  it('treats an /api route that declares no access as admin-only (deny by default)', async () => {
    const user = await t.signIn();
    expect((await t.call({ url: '/api/test/undeclared', as: user })).statusCode).toBe(403);
  });

  it('answers unknown /api paths with JSON 404', async () => {
    const res = await t.call({ url: '/api/Nope/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('matches contract paths case-insensitively (/api/User/… and /api/user/…)', async () => {
    const me = await t.signIn();
    expect((await t.call({ url: '/api/user/ping', as: me })).statusCode).toBe(200);
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const me = await t.signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'x-requested-with': 'kickback', cookie: me.cookie, 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid body: malformed JSON.');
  });

  it('reports a healthy database on /healthz', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });
});

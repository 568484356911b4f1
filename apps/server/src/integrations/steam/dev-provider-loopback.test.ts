/**
 * The dev identity provider answers this machine only (lib/loopback-client.ts): a client elsewhere,
 * a visitor forwarded by a proxy on this machine, and a forged X-Forwarded-For are all refused;
 * ALLOW_DEV_SIGNIN=1 lifts the rule. The default bind of a dev sign-in site is loopback (config.ts).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { isLoopbackAddress } from '../../lib/loopback-client';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** The dev sign-in page, as the sign-in redirect asks for it, from `remoteAddress`. */
async function signInPage(app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) {
  const start = await app.app.inject({ method: 'GET', url: '/auth/steam/signin', remoteAddress });
  const login = new URL(String(start.headers.location));
  return app.app.inject({ method: 'GET', url: login.pathname + login.search, remoteAddress, headers });
}

describe('dev sign-in from elsewhere', () => {
  it('answers a loopback client and refuses a client elsewhere (the socket address counts)', async () => {
    t = await buildTestApp();
    expect((await signInPage(t, '127.0.0.1')).statusCode).toBe(200);
    expect((await signInPage(t, '::1')).statusCode).toBe(200);
    const refused = await signInPage(t, '192.0.2.7');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Dev sign-in works on this machine only');
    // The form's POST too (a sign-in straight to the form, skipping the page).
    const post = await t.app.inject({
      method: 'POST',
      url: '/dev/openid/login',
      remoteAddress: '192.0.2.7',
      payload: 'steamid=76561199999999011&personaname=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(403);
    // A forged X-Forwarded-For without a trusted proxy changes nothing.
    expect((await signInPage(t, '192.0.2.7', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(403);
  });

  it('behind a trusted proxy: a visitor forwarded from elsewhere is refused, a forged loopback header too', async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '1' } });
    // A proxy on this machine forwarding a visitor from elsewhere.
    expect((await signInPage(t, '127.0.0.1', { 'x-forwarded-for': '198.51.100.4' })).statusCode).toBe(403);
    // A client elsewhere, straight at the server, claiming to be this machine.
    expect((await signInPage(t, '192.0.2.7', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(403);
    // A browser on this machine through the local proxy.
    expect((await signInPage(t, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
  });

  it('ALLOW_DEV_SIGNIN=1 answers clients elsewhere (a private test site, asked for by name)', async () => {
    t = await buildTestApp({ env: { ALLOW_DEV_SIGNIN: '1' } });
    expect((await signInPage(t, '192.0.2.7')).statusCode).toBe(200);
  });

  it('leaves the demo avatars public (pictures on public pages)', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ url: '/dev/steam/avatar/76561199999999011.svg', remoteAddress: '192.0.2.7' });
    expect(res.statusCode).toBe(200);
  });
});

describe('where a dev sign-in site listens', () => {
  it('loopback without HOST while dev sign-in is on; every interface once Steam sign-in is set; HOST wins', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ STEAM_API_KEY: 'k' }).steam.signin).toBe('steam');
    expect(loadConfig({ STEAM_API_KEY: 'k' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
  });

  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['192.0.2.7', '::ffff:10.0.0.1', '0.0.0.0', '', undefined, 'fe80::1', '128.0.0.1']) {
      expect(isLoopbackAddress(a)).toBe(false);
    }
  });
});

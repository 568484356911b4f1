import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { simulatedDiscordId } from '../../integrations/discord/simulator/directory';
import { buildTestApp, LogCapture, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const location = (res: LightMyRequestResponse) => new URL(String(res.headers.location), TEST_PUBLIC_URL);

/** A browser navigation (no CSRF header) with the user's session cookie. */
function navigate(
  url: URL | string,
  as?: TestUser | null,
  method: 'GET' | 'POST' = 'GET',
  form?: Record<string, string>,
) {
  const u = typeof url === 'string' ? new URL(url, TEST_PUBLIC_URL) : url;
  return t.app.inject({
    method,
    url: u.pathname + u.search,
    headers: {
      ...(as ? { cookie: as.cookie } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
}

async function startLink(as: TestUser | null, returnTo = '/store') {
  return navigate(`/auth/discord/signin?returnTo=${encodeURIComponent(returnTo)}`, as);
}

/** Through the simulator's consent page: returns the callback URL it redirects to. */
async function consent(authorizeUrl: URL, form: Record<string, string>): Promise<URL> {
  const page = await navigate(authorizeUrl);
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('Discord');
  const res = await navigate(authorizeUrl, null, 'POST', form);
  expect(res.statusCode).toBe(302);
  return location(res);
}

function result(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(302);
  const url = location(res);
  expect(url.pathname).toBe('/link/discord');
  return { result: url.searchParams.get('result'), returnTo: url.searchParams.get('returnTo') };
}

const discordOf = async (user: TestUser) => (await t.call({ url: '/api/User/ping', as: user })).json().discordUser;

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('Discord linking through the local OAuth simulator', () => {
  it('runs the authorization-code flow and links the Discord id and username', async () => {
    t = await buildTestApp();
    const user = await t.signIn();
    const start = await startLink(user);
    expect(start.statusCode).toBe(302);
    const authorize = location(start);
    expect(authorize.pathname).toBe('/dev/discord/oauth2/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'kickback-dev',
      scope: 'identify',
      redirect_uri: `${TEST_PUBLIC_URL}/auth/discord/callback`,
      state: expect.stringMatching(/^[\w-]{30,}$/),
    });
    const callback = await consent(authorize, { decision: 'authorize', username: 'VexFan' });
    expect(callback.pathname).toBe('/auth/discord/callback');
    expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
    expect(result(await navigate(callback, user))).toEqual({ result: 'linked', returnTo: '/store' });
    expect(await discordOf(user)).toEqual({ id: simulatedDiscordId('vexfan'), username: 'vexfan' });
  });

  it('refuses a callback with a wrong state: nothing is exchanged or linked, and the log says why', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const user = await t.signIn();
    const callback = await consent(location(await startLink(user)), { decision: 'authorize', username: 'someone' });
    callback.searchParams.set('state', 'forged-state-value-000000000000000');
    expect(result(await navigate(callback, user))).toEqual({ result: 'state', returnTo: '/' });
    expect(await discordOf(user)).toBeNull();
    expect(logs.lines.some((l) => String(l.msg).startsWith('discord link refused'))).toBe(true);
  });

  it('refuses a state started by another session; the session that started it can still finish', async () => {
    t = await buildTestApp();
    const victim = await t.signIn();
    const attacker = await t.signIn();
    const callback = await consent(location(await startLink(victim)), { decision: 'authorize', username: 'attacker' });
    expect(result(await navigate(callback, attacker)).result).toBe('state');
    expect(await discordOf(attacker)).toBeNull();
    expect(await discordOf(victim)).toBeNull();
    // The same user in another session (another browser) is another session too.
    const victimElsewhere = await t.signIn({ steamId: victim.user.steamId });
    expect(result(await navigate(callback, victimElsewhere)).result).toBe('state');
    expect(result(await navigate(callback, victim)).result).toBe('linked');
  });

  it('a state works once and expires after 10 minutes', async () => {
    t = await buildTestApp();
    const user = await t.signIn();
    const callback = await consent(location(await startLink(user)), { decision: 'authorize', username: 'once' });
    expect(result(await navigate(callback, user)).result).toBe('linked');
    expect(result(await navigate(callback, user)).result).toBe('state');

    const late = await t.signIn();
    const lateCallback = await consent(location(await startLink(late)), { decision: 'authorize', username: 'late' });
    t.clock.advance(10 * 60 * 1000 + 1000);
    expect(result(await navigate(lateCallback, late)).result).toBe('state');
    expect(await discordOf(late)).toBeNull();
  });

  it('reports a cancelled consent, a Discord account linked elsewhere, a signed-out visitor and an existing link', async () => {
    t = await buildTestApp();
    const first = await t.signIn();
    const second = await t.signIn();
    const cancelled = await consent(location(await startLink(first, '/')), { decision: 'cancel' });
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(result(await navigate(cancelled, first))).toEqual({ result: 'denied', returnTo: '/' });

    const ok = await consent(location(await startLink(first)), { decision: 'authorize', username: 'popular' });
    expect(result(await navigate(ok, first)).result).toBe('linked');
    const taken = await consent(location(await startLink(second)), { decision: 'authorize', username: 'popular' });
    expect(result(await navigate(taken, second)).result).toBe('taken');
    expect(await discordOf(second)).toBeNull();

    expect(result(await startLink(null)).result).toBe('signin');
    expect(result(await startLink(first)).result).toBe('already');
  });

  it('keeps returnTo on this site', async () => {
    t = await buildTestApp();
    for (const evil of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      expect(result(await startLink(null, evil)).returnTo).toBe('/');
    }
    expect(result(await startLink(null, '/Challenges?x=1')).returnTo).toBe('/Challenges?x=1');
  });

  it('the consent page refuses a bad username and a foreign redirect_uri', async () => {
    t = await buildTestApp();
    const user = await t.signIn();
    const authorize = location(await startLink(user));
    const bad = await navigate(authorize, null, 'POST', { decision: 'authorize', username: 'no spaces!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('2–32 lowercase letters');
    authorize.searchParams.set('redirect_uri', 'https://evil.example/cb');
    expect((await navigate(authorize)).statusCode).toBe(400);
  });

  it('unlinks Discord with the contract toast text', async () => {
    t = await buildTestApp();
    const user = await t.signIn();
    const callback = await consent(location(await startLink(user)), { decision: 'authorize', username: 'leaving' });
    await navigate(callback, user);
    const res = await t.call({ url: '/api/User/unlink?type=discord', as: user });
    expect(res.json()).toEqual({ message: 'Connection successfully unlinked.' });
    expect(await discordOf(user)).toBeNull();
  });

  it('answers "unavailable" when Discord linking is off', async () => {
    t = await buildTestApp({ env: { DISCORD_OAUTH: 'off' } });
    const user = await t.signIn();
    expect(result(await startLink(user)).result).toBe('unavailable');
    expect((await navigate('/dev/discord/oauth2/authorize')).statusCode).toBe(404);
  });
});

describe('the simulator’s token endpoint behaves like Discord’s', () => {
  async function codeFor(user: TestUser): Promise<string> {
    const callback = await consent(location(await startLink(user)), { decision: 'authorize', username: 'tokens' });
    return callback.searchParams.get('code') ?? '';
  }
  const token = (body: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/dev/discord/api/v10/oauth2/token', headers, payload: body });
  const basic = () => `Basic ${Buffer.from(`kickback-dev:${t.config.discord.clientSecret}`).toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const redirectUri = `${TEST_PUBLIC_URL}/auth/discord/callback`;

  it('accepts only form-encoded bodies, an authenticated client and a fresh single-use code', async () => {
    t = await buildTestApp();
    const code = await codeFor(await t.signIn());
    const params = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }).toString();
    const json = await token(JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }), {
      'content-type': 'application/json',
      authorization: basic(),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('unsupported_grant_type');
    const wrongSecret = await token(params, {
      ...form,
      authorization: `Basic ${Buffer.from('kickback-dev:nope').toString('base64')}`,
    });
    expect(wrongSecret.statusCode).toBe(401);
    const wrongRedirect = await token(params.replace(encodeURIComponent(redirectUri), 'https%3A%2F%2Fevil.example'), {
      ...form,
      authorization: basic(),
    });
    expect(wrongRedirect.json().error).toBe('invalid_grant');
    const ok = await token(params, { ...form, authorization: basic() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify' });
    const me = await t.app.inject({
      url: '/dev/discord/api/v10/users/@me',
      headers: { authorization: `Bearer ${ok.json().access_token}` },
    });
    expect(me.json()).toMatchObject({ id: simulatedDiscordId('tokens'), username: 'tokens' });
    expect((await token(params, { ...form, authorization: basic() })).json().error).toBe('invalid_grant');
    expect((await t.app.inject({ url: '/dev/discord/api/v10/users/@me' })).statusCode).toBe(401);
  });
});

describe('Discord linking against the real Discord protocol', () => {
  it('exchanges the code form-encoded with HTTP Basic client auth, then reads /users/@me', async () => {
    const calls: Array<{ url: string; method: string; headers: Headers; body: string }> = [];
    const networkFetch: typeof fetch = async (input, init) => {
      const url = String(input);
      calls.push({
        url,
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: String(init?.body ?? ''),
      });
      if (url === 'https://discord.com/api/v10/oauth2/token') {
        return Response.json({
          access_token: 'user-token',
          token_type: 'Bearer',
          expires_in: 604800,
          scope: 'identify',
        });
      }
      if (url === 'https://discord.com/api/v10/users/@me') {
        return Response.json({ id: '80351110224678912', username: 'nelly', global_name: 'Nelly', avatar: null });
      }
      return new Response('{}', { status: 404 });
    };
    t = await buildTestApp({
      env: { DISCORD_CLIENT_ID: '1234567890', DISCORD_CLIENT_SECRET: 's3cret' },
      networkFetch,
    });
    const user = await t.signIn();
    const authorize = location(await startLink(user));
    expect(authorize.origin + authorize.pathname).toBe('https://discord.com/oauth2/authorize');
    const callback = new URL('/auth/discord/callback', TEST_PUBLIC_URL);
    callback.searchParams.set('code', 'the-code');
    callback.searchParams.set('state', authorize.searchParams.get('state') ?? '');
    expect(result(await navigate(callback, user)).result).toBe('linked');

    const [exchange, me] = calls;
    expect(exchange?.method).toBe('POST');
    expect(exchange?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(exchange?.headers.get('authorization')).toBe(`Basic ${Buffer.from('1234567890:s3cret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: `${TEST_PUBLIC_URL}/auth/discord/callback`,
    });
    expect(me?.headers.get('authorization')).toBe('Bearer user-token');
    expect(await discordOf(user)).toEqual({ id: '80351110224678912', username: 'nelly' });
  });

  it('reports Discord failing without linking anything', async () => {
    t = await buildTestApp({
      env: { DISCORD_CLIENT_ID: '1234567890', DISCORD_CLIENT_SECRET: 's3cret' },
      networkFetch: async () => new Response('{"error":"invalid_grant"}', { status: 400 }),
    });
    const user = await t.signIn();
    const authorize = location(await startLink(user));
    const callback = new URL('/auth/discord/callback', TEST_PUBLIC_URL);
    callback.searchParams.set('code', 'expired');
    callback.searchParams.set('state', authorize.searchParams.get('state') ?? '');
    expect(result(await navigate(callback, user))).toEqual({ result: 'failed', returnTo: '/store' });
    expect(await discordOf(user)).toBeNull();
  });
});

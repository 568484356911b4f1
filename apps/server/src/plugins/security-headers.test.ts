/**
 * Security headers (helmet's, made once at start): a Content-Security-Policy with no inline script
 * on every answer, the server-rendered pages without inline script, HSTS only in production; and
 * the webhook route's own, generous, configurable rate limit.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app';
import { chatPayload, postDelivery, signedDelivery } from '../../test/kick';
import { apiSecurityHeaderOptions, securityHeaderOptions } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_RATE_LIMIT_PER_MINUTE: '3' } });
});
afterAll(async () => {
  await t.close();
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Inline scripts in an HTML page: <script> elements without src that are not JSON data, and on* attributes. */
function inlineScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1] ?? '')
    .filter((attrs) => !/\bsrc=/.test(attrs) && !/type="application\/json"/.test(attrs));
  const handlers = [...html.matchAll(/\son[a-z]+=/gi)].map((m) => m[0]);
  return [...scripts, ...handlers];
}

describe('security headers', () => {
  it('send a Content-Security-Policy without inline script, and the usual hardening headers', async () => {
    for (const url of ['/healthz', '/dev/openid/login', '/kickback-page.js']) {
      const res = await t.call({ url });
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('connect-src')).toEqual(["'self'", TEST_PUBLIC_URL.replace('http', 'ws')]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('send API answers the JSON set: nothing may load, frame or sniff them', async () => {
    for (const url of ['/api/LeaderBoard/now', '/API/LeaderBoard/NOW', '/api/User/ping', '/api/NoSuchThing']) {
      const res = await t.call({ url });
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // Document-only policies stay off JSON.
      for (const name of ['referrer-policy', 'x-dns-prefetch-control', 'origin-agent-cluster', 'x-xss-protection']) {
        expect(res.headers[name], `${url}: ${name}`).toBeUndefined();
      }
      // The budget headers come only with a 429 (the rate-limit test below).
      expect(res.headers['x-ratelimit-remaining'], url).toBeUndefined();
    }
  });

  it('every answer but the webhook’s carries exactly the headers helmet sets per request', async () => {
    // What helmet's own middleware sets on a real response (the per-request way it used to run).
    const helmetSets = (options: Parameters<typeof helmet>[0]) => {
      const res = new ServerResponse(new IncomingMessage(new Socket()));
      helmet(options)(res.req, res, () => {});
      return Object.entries(res.getHeaders());
    };
    const documentHeaders = helmetSets(securityHeaderOptions(TEST_PUBLIC_URL, false));
    const apiHeaders = helmetSets(apiSecurityHeaderOptions(false));
    expect(documentHeaders.length).toBeGreaterThan(8);
    expect(apiHeaders.length).toBe(4);

    const csrf = { 'x-requested-with': 'kickback' };
    const read = await t.app.inject({ url: '/api/LeaderBoard/now', headers: csrf });
    const answers = {
      'cached read': read,
      'cached read, upper-case /API/': await t.app.inject({ url: '/API/LeaderBoard/NOW', headers: csrf }),
      'cached read, 304': await t.app.inject({
        url: '/api/LeaderBoard/now',
        headers: { ...csrf, 'if-none-match': String(read.headers.etag) },
      }),
      'another cached read': await t.app.inject({ url: '/api/site', headers: csrf }),
      'CSRF refusal': await t.app.inject({ url: '/api/LeaderBoard/now' }),
      'unknown /api path': await t.app.inject({ url: '/api/NoSuchThing', headers: csrf }),
      'sign-in required': await t.app.inject({ url: '/api/User/ping', headers: csrf }),
    };
    const documents = {
      'page script': await t.app.inject({ url: '/kickback-page.js' }),
      'sign-in page': await t.app.inject({ url: '/dev/openid/login' }),
      'health probe': await t.app.inject({ url: '/healthz' }),
    };
    expect(read.statusCode).toBe(200);
    expect(answers['cached read, 304'].statusCode).toBe(304);
    const securityHeaderNames = new Set([...documentHeaders, ...apiHeaders].map(([name]) => name));
    const carried = (answer: { headers: Record<string, unknown> }) =>
      Object.fromEntries(Object.entries(answer.headers).filter(([name]) => securityHeaderNames.has(name)));
    for (const [what, answer] of Object.entries(answers)) {
      expect(carried(answer), what).toEqual(Object.fromEntries(apiHeaders));
    }
    for (const [what, answer] of Object.entries(documents)) {
      expect(carried(answer), what).toEqual(Object.fromEntries(documentHeaders));
    }

    const delivery = signedDelivery(chatPayload(t, 'headers', 'hello'));
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/webhooks/kick',
      headers: delivery.headers,
      payload: delivery.body,
      remoteAddress: '10.8.8.8', // not the budget the rate-limit test below counts
    });
    expect(webhook.statusCode).toBe(200);
    for (const name of securityHeaderNames) expect(webhook.headers[name], `webhook: ${name}`).toBeUndefined();
  });

  it('server-rendered pages carry no inline script; their one script is a file', async () => {
    const login = await t.app.inject({ url: '/dev/openid/login' });
    expect(login.headers['content-type']).toMatch(/text\/html/);
    expect(inlineScripts(login.body)).toEqual([]);
    expect(login.body).toContain('<script src="/kickback-page.js" defer></script>');
    const failed = await t.app.inject({ url: '/auth/steam/callback?openid.mode=cancel' });
    expect(failed.body).toContain('kb-popup-result');
    expect(inlineScripts(failed.body)).toEqual([]);
    expect(failed.headers['cross-origin-opener-policy']).toBeUndefined(); // the popup keeps its opener
    const script = await t.app.inject({ url: '/kickback-page.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body).toContain('postMessage');
  });

  it('turn HSTS on in production', async () => {
    const prod = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        PUBLIC_URL: 'https://kickback.example',
        STEAM_SIGNIN: 'steam',
      },
    });
    try {
      const res = await prod.app.inject({ url: '/healthz' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      const api = await prod.app.inject({ url: '/api/site', headers: { 'x-requested-with': 'kickback' } });
      expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(directives(String(res.headers['content-security-policy'])).has('upgrade-insecure-requests')).toBe(true);
    } finally {
      await prod.close();
    }
  });
});

describe('the webhook route', () => {
  it('is rate limited per sending address on its own budget (WEBHOOK_RATE_LIMIT_PER_MINUTE)', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const d = signedDelivery(chatPayload(t, 'flooder', `hi ${i}`));
      answers.push(await postDelivery(t, d));
    }
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429, 429]);
    // A refusal says how long to wait and what the budget is; an accepted answer carries no budget.
    expect(answers[3]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(answers[3]!.headers['x-ratelimit-limit']).toBe('3');
    expect(answers[3]!.headers['x-ratelimit-remaining']).toBe('0');
    expect(answers[0]!.headers['x-ratelimit-remaining']).toBeUndefined();
    // Another address, and the API, are not affected.
    const other = signedDelivery(chatPayload(t, 'calm', 'hello'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/kick',
      headers: other.headers,
      payload: other.body,
      remoteAddress: '10.9.9.9',
    });
    expect(res.statusCode).toBe(200);
    expect((await t.call({ url: '/api/LeaderBoard/now' })).statusCode).toBe(200);
  });
});

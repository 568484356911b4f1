/**
 * Cached public reads answered in front of the router (lib/read-fast-path.ts), over real HTTP: the
 * same answer as the router's, the same refusals (they are the router's), one rate budget, the
 * request counted in the metrics and the log, and the router again for a miss or a closing app.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, LogCapture, TEST_PUBLIC_URL, type TestApp } from '../../test/app';
import { addProduct } from '../../test/economy';
import { listen } from '../../test/hub-client';
import { seedDemoData } from '../modules/demo/seed';
import { PRODUCTS_READ } from '../modules/store/presenter';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const CSRF = { 'x-requested-with': 'kickback' };

/** Headers Node adds to every answer whichever way it is made. */
const transport = new Set(['date', 'connection', 'keep-alive']);

function client(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, headers: Record<string, string> = CSRF): Promise<Answer> =>
    new Promise((resolve, reject) => {
      http
        .get(`${base}${path}`, { agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const kept = Object.entries(res.headers).filter(([name]) => !transport.has(name));
            resolve({
              status: res.statusCode!,
              headers: Object.fromEntries(kept.map(([name, value]) => [name, String(value)])),
              body: Buffer.concat(chunks),
            });
          });
        })
        .on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

const start = async (t: TestApp) => client(await listen(t.app));

/** Each cached read at its own path (fast path) and at a spelling only the router matches. */
const reads: Array<[fast: string, router: string]> = [
  ['/api/Product/GetProducts', '/api/product/getproducts'],
  ['/api/Challenge/getuserchallenges', '/api/challenge/GetUserChallenges'],
  ['/api/site', '/api/SITE'],
  ['/api/LeaderBoard/sites', '/api/leaderboard/sites'],
  ['/api/LeaderBoard/now', '/api/leaderboard/now'],
  ['/api/LeaderBoard/previous', '/api/leaderboard/previous'],
  ['/api/LeaderBoard/roobet/now', '/api/leaderboard/roobet/now'],
];

describe('cached reads in front of the router', () => {
  let t: TestApp;
  let http1: ReturnType<typeof client>;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await buildTestApp({ logs, env: { METRICS_TOKEN: 'metrics-token-0123456789', REQUEST_LOG: 'all' } });
    await seedDemoData(t.app);
    await t.app.leaderboards.runCycle(1);
    http1 = await start(t);
  });
  afterAll(async () => {
    http1.close();
    await t.close();
  });

  /** Asks `path` with `headers`, and says whether the fast path gave the answer. */
  const ask = async (path: string, headers: Record<string, string> = CSRF) => {
    const before = t.app.readFastPath.answeredCount;
    const answer = await http1.get(path, headers);
    return { ...answer, fast: t.app.readFastPath.answeredCount > before };
  };

  it('answers each read byte for byte and header for header as the router does: plain, br, gzip and 304', async () => {
    for (const [fast, router] of reads) {
      await ask(router); // builds the entry
      const plain = await ask(fast);
      const etag = plain.headers.etag!;
      const variants: Array<Record<string, string>> = [
        {},
        { 'accept-encoding': 'br, gzip' },
        { 'accept-encoding': 'gzip' },
        { 'if-none-match': etag },
      ];
      for (const extra of variants) {
        const headers = { ...CSRF, ...extra };
        const mine = await ask(fast, headers);
        const theirs = await ask(router, headers);
        expect(mine.fast, `${fast} ${JSON.stringify(extra)}`).toBe(true);
        expect(theirs.fast).toBe(false);
        expect(mine.status).toBe(theirs.status);
        expect(mine.headers).toEqual(theirs.headers);
        expect(mine.body.equals(theirs.body)).toBe(true);
      }
      expect(plain.status).toBe(200);
      expect(plain.body.length).toBeGreaterThan(0);
    }
  });

  it('leaves refusals to the router: no CSRF header, a foreign origin (403)', async () => {
    const bare = await ask('/api/Product/GetProducts', {});
    expect(bare.fast).toBe(false);
    expect(bare.status).toBe(403);
    const foreign = await ask('/api/Product/GetProducts', { ...CSRF, origin: 'https://evil.example' });
    expect(foreign.fast).toBe(false);
    expect(foreign.status).toBe(403);
    const ours = await ask('/api/Product/GetProducts', { ...CSRF, origin: TEST_PUBLIC_URL });
    expect(ours.fast).toBe(true);
    expect(ours.status).toBe(200);
  });

  it('leaves a miss to the router, which builds it; an invalidated read is answered anew', async () => {
    await ask('/api/Product/GetProducts');
    const before = await ask('/api/Product/GetProducts');
    expect(before.fast).toBe(true);
    await addProduct(t, { name: 'Fresh in' });
    t.app.reads.invalidate(PRODUCTS_READ);
    const rebuilt = await ask('/api/Product/GetProducts');
    expect(rebuilt.fast).toBe(false);
    expect(rebuilt.body.toString()).toContain('Fresh in');
    const after = await ask('/api/Product/GetProducts');
    expect(after.fast).toBe(true);
    expect(after.headers.etag).toBe(rebuilt.headers.etag);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('counts its answers in the metrics and logs each like the router', async () => {
    const scrape = async () => {
      const res = await t.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      const line = res.body
        .split('\n')
        .find((l) =>
          l.startsWith('kickback_http_request_duration_seconds_count{method="GET",route="/api/site",status="200"}'),
        );
      return Number(line?.split(' ').pop() ?? 0);
    };
    await ask('/api/site');
    const counted = await scrape();
    logs.lines.length = 0;
    for (let i = 0; i < 3; i++) expect((await ask('/api/site')).fast).toBe(true);
    expect(await scrape()).toBe(counted + 3);
    const lines = logs.lines.filter((l) => l.msg === 'request' && l.url === '/api/site');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ method: 'GET', status: 200, reqId: expect.stringMatching(/^req-/) });
    expect(new Set(lines.map((l) => l.reqId)).size).toBe(3);
  });

  it('hands every request to the router once the app closes', async () => {
    const other = await buildTestApp();
    const c = await start(other);
    await c.get('/api/site');
    const fast = await c.get('/api/site');
    expect(fast.status).toBe(200);
    c.close();
    await other.close();
    let routed = false;
    other.app.readFastPath.handle(
      { method: 'GET', url: '/api/site', headers: CSRF } as unknown as http.IncomingMessage,
      {} as http.ServerResponse,
      () => (routed = true),
    );
    expect(routed).toBe(true);
  });
});

describe('the fast path takes from the router’s rate budget', () => {
  it('counts requests either way against one budget per address', async () => {
    const t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const c = await start(t);
    try {
      const statuses: Array<[number, boolean]> = [];
      for (const path of ['/api/site', '/api/site', '/api/SITE', '/api/site']) {
        const before = t.app.readFastPath.answeredCount;
        const res = await c.get(path);
        statuses.push([res.status, t.app.readFastPath.answeredCount > before]);
      }
      // The first builds the entry (router), the second is the fast path's, the third the router's;
      // the fourth is over the budget of 3 and refused by the router, with Retry-After.
      expect(statuses).toEqual([
        [200, false],
        [200, true],
        [200, false],
        [429, false],
      ]);
    } finally {
      c.close();
      await t.close();
    }
  });

  for (const trust of ['1', '127.0.0.1']) {
    it(`with TRUST_PROXY=${trust} a forged leftmost address gets no budget of its own (router and fast path)`, async () => {
      const t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: trust } });
      const c = await start(t);
      try {
        // Each request forges a new leftmost address; the proxy appends the real one. The first is
        // answered by the router (request.ip), the next ones by the fast path.
        const forged = (n: number) => c.get('/api/site', { ...CSRF, 'x-forwarded-for': `192.0.2.${n}, 198.51.100.7` });
        const statuses = [];
        for (let n = 1; n <= 5; n++) statuses.push((await forged(n)).status);
        expect(statuses).toEqual([200, 200, 200, 429, 429]);
        expect((await c.get('/api/site', { ...CSRF, 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
      } finally {
        c.close();
        await t.close();
      }
    });
  }

  it('keys the budget by the forwarded address when the proxy is trusted, as request.ip does', async () => {
    const t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' } });
    const c = await start(t);
    try {
      const from = (address: string) => c.get('/api/site', { ...CSRF, 'x-forwarded-for': address });
      expect((await from('198.51.100.1')).status).toBe(200); // router: builds the entry
      expect((await from('198.51.100.1')).status).toBe(200); // fast path
      expect((await from('198.51.100.2')).status).toBe(200);
      expect((await from('198.51.100.2')).status).toBe(200);
      expect((await from('198.51.100.1')).status).toBe(429);
    } finally {
      c.close();
      await t.close();
    }
  });
});

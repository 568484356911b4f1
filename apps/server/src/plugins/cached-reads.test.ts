import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { z } from 'zod';
import { leaderboardResponse, publicSitesResponse } from '@kickback/common/http/leaderboards';
import { productsResponse } from '@kickback/common/http/store';
import { userChallengesResponse } from '@kickback/common/http/challenges';
import { siteConfig } from '@kickback/common/http/site';
import { buildTestApp, type TestApp } from '../../test/app';
import { addProduct, givePoints } from '../../test/economy';
import { redisForTest, testRedisUrl } from '../../test/redis';
import type { UserRow } from '../db/schema/users';
import { ManualClock } from '../lib/clock';
import { COMPRESS_MIN_BYTES, ReadCache, readyBody } from '../lib/read-cache';
import { ChallengeService } from '../modules/challenges/service';
import { seedDemoData } from '../modules/demo/seed';
import { activeCatalogue } from '../modules/store/presenter';

/** The same reads answered the ordinary way: handler value through the response schema, per request. */
function uncachedRoutes(app: FastifyInstance) {
  const plain = <S extends z.ZodType>(url: string, schema: S, value: () => Promise<z.input<S>>) => {
    const handler: RouteHandlerMethod = async () => value();
    app.get(url, { config: { access: 'public' }, schema: { response: { 200: schema } } }, handler);
  };
  const challenges = new ChallengeService(app);
  plain('/test/uncached/products', productsResponse, () => activeCatalogue(app.db));
  plain('/test/uncached/challenges', userChallengesResponse, () => challenges.publicList());
  plain('/test/uncached/site', siteConfig, async () => app.config.site);
  plain('/test/uncached/sites', publicSitesResponse, async () => ({ sites: await app.leaderboards.publicSites() }));
  plain('/test/uncached/board/1/now', leaderboardResponse, async () => (await app.leaderboards.board(1, 'now'))!);
  plain(
    '/test/uncached/board/1/previous',
    leaderboardResponse,
    async () => (await app.leaderboards.board(1, 'previous'))!,
  );
  plain('/test/uncached/board/6/now', leaderboardResponse, async () => (await app.leaderboards.board(6, 'now'))!);
}

/** Who each request was served as (a session lookup would fill `request.user`). */
const servedAs = new Map<string, UserRow | null>();
function recordUser(app: FastifyInstance) {
  app.addHook('onResponse', async (request) => void servedAs.set(request.url, request.user));
}

const reads: Array<[cached: string, uncached: string]> = [
  ['/api/Product/GetProducts', '/test/uncached/products'],
  ['/api/Challenge/getuserchallenges', '/test/uncached/challenges'],
  ['/api/site', '/test/uncached/site'],
  ['/api/LeaderBoard/sites', '/test/uncached/sites'],
  ['/api/LeaderBoard/now', '/test/uncached/board/1/now'],
  ['/api/LeaderBoard/previous', '/test/uncached/board/1/previous'],
  ['/api/LeaderBoard/roobet/now', '/test/uncached/board/6/now'],
];

describe('public reads served from memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      clock: new ManualClock('2026-03-04T12:00:00Z'),
      routes: (app) => {
        uncachedRoutes(app);
        recordUser(app);
      },
    });
    await seedDemoData(t.app);
    await t.app.leaderboards.runCycle(1);
  });
  afterAll(async () => {
    await t.close();
  });

  it('each cached body is byte for byte the uncached answer, with the same content type', async () => {
    for (const [cached, uncached] of reads) {
      const first = await t.call({ url: cached });
      const again = await t.call({ url: cached });
      const plain = await t.call({ url: uncached });
      expect(first.statusCode, cached).toBe(200);
      expect(plain.statusCode, uncached).toBe(200);
      expect(first.body, cached).toBe(plain.body);
      expect(again.body, cached).toBe(plain.body);
      expect(first.headers['content-type'], cached).toBe(plain.headers['content-type']);
      expect(first.headers.etag, cached).toMatch(/^"[\w-]+"$/);
      expect(again.headers.etag).toBe(first.headers.etag);
    }
    // Boards with rows, not just empty ones.
    expect((await t.call({ url: '/api/LeaderBoard/previous' })).json().data.length).toBeGreaterThan(10);
    expect((await t.call({ url: '/api/LeaderBoard/now' })).json().data.length).toBeGreaterThan(0);
    expect((await t.call({ url: '/api/Product/GetProducts' })).json().data.length).toBeGreaterThan(5);
  });

  it('answers 304 with no body when If-None-Match names the ETag, 200 otherwise', async () => {
    for (const [cached] of reads) {
      const first = await t.call({ url: cached });
      const etag = first.headers.etag as string;
      const same = await t.call({ url: cached, headers: { 'if-none-match': etag } });
      expect(same.statusCode, cached).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(etag);
      expect((await t.call({ url: cached, headers: { 'if-none-match': `"other", W/${etag}` } })).statusCode).toBe(304);
      const other = await t.call({ url: cached, headers: { 'if-none-match': '"stale"' } });
      expect(other.statusCode).toBe(200);
      expect(other.body).toBe(first.body);
    }
  });

  it('does not look up the session on a cached read (the cookie is ignored there, used elsewhere)', async () => {
    const visitor = await t.signIn();
    for (const [cached] of reads) {
      expect((await t.call({ url: cached, as: visitor })).statusCode).toBe(200);
      expect(servedAs.get(cached), cached).toBeNull();
    }
    expect((await t.call({ url: '/api/User/ping', as: visitor })).statusCode).toBe(200);
    expect(servedAs.get('/api/User/ping')?.id).toBe(visitor.user.id);
  });

  it('an admin product change is served at once, with a new ETag', async () => {
    const admin = await t.signIn({ role: 'Admin' });
    const before = await t.call({ url: '/api/Product/GetProducts' });
    const created = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Cached-read mug', price: 12, category: 'Merch', imageUrl: null, stock: null },
    });
    expect(created.statusCode, created.body).toBe(200);
    const after = await t.call({
      url: '/api/Product/GetProducts',
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().data.map((p: { name: string }) => p.name)).toContain('Cached-read mug');

    const id = created.json().id as number;
    expect(
      (await t.call({ method: 'POST', url: `/api/admin/products/${id}/active`, as: admin, body: { active: false } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.call({ url: '/api/Product/GetProducts' })).json().data.map((p: { id: number }) => p.id),
    ).not.toContain(id);
    const edit = { name: 'Renamed mug', price: 12, category: 'Merch', imageUrl: null, stock: null, active: true };
    expect((await t.call({ method: 'PUT', url: `/api/admin/products/${id}`, as: admin, body: edit })).statusCode).toBe(
      200,
    );
    expect(
      (await t.call({ url: '/api/Product/GetProducts' })).json().data.map((p: { name: string }) => p.name),
    ).toContain('Renamed mug');
  });

  it('an order of a limited product shows the lower stock at once', async () => {
    const limited = await addProduct(t, { name: 'Limited pin', price: '1', stock: 5 });
    t.app.reads.invalidate('products'); // added behind the app's back
    const stockOf = async () =>
      (await t.call({ url: '/api/Product/GetProducts' })).json().data.find((p: { id: number }) => p.id === limited.id)
        ?.stock;
    expect(await stockOf()).toBe(5);
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10');
    expect(
      (await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: buyer, body: { productId: limited.id } }))
        .statusCode,
    ).toBe(200);
    expect(await stockOf()).toBe(4);
  });

  it('a challenge created or updated by an admin is listed at once', async () => {
    const admin = await t.signIn({ role: 'Admin' });
    const titles = async () =>
      (await t.call({ url: '/api/Challenge/getuserchallenges' }))
        .json()
        .challenges.map((c: { title: string }) => c.title);
    expect(await titles()).not.toContain('Cache me');
    const body = { title: 'Cache me', price: 5, description: 'x', category: '', imageUrl: null };
    const created = await t.call({ method: 'POST', url: '/api/Challenge/create', as: admin, body });
    expect(created.statusCode, created.body).toBe(200);
    expect(await titles()).toContain('Cache me');
    const update = { ...body, id: created.json().id, title: 'Cache me again', status: 0, winnerUserId: null };
    expect((await t.call({ method: 'POST', url: '/api/Challenge/update', as: admin, body: update })).statusCode).toBe(
      200,
    );
    expect(await titles()).toContain('Cache me again');
  });

  it('board settings and a player showing their name reach the boards and the site list at once', async () => {
    const admin = await t.signIn({ role: 'Admin' });
    const sites = async () =>
      (await t.call({ url: '/api/LeaderBoard/sites' })).json().sites as Array<{ id: number; codes: string[] }>;
    const board = await t.call({ url: '/api/LeaderBoard/roobet/now' });
    expect(board.statusCode).toBe(200);
    const current = (await t.call({ url: '/api/admin/leaderboards', as: admin }))
      .json()
      .sites.find((s: { id: number }) => s.id === 6);
    const put = await t.call({
      method: 'PUT',
      url: '/api/admin/leaderboards/6',
      as: admin,
      body: { ...current.settings, codes: ['FRESH'], shown: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await sites()).map((s) => s.id)).not.toContain(6);
    expect((await t.call({ url: '/api/LeaderBoard/roobet/now' })).statusCode).toBe(404);
    await t.call({
      method: 'PUT',
      url: '/api/admin/leaderboards/6',
      as: admin,
      body: { ...current.settings, codes: ['FRESH'] },
    });
    expect((await sites()).find((s) => s.id === 6)?.codes).toEqual(['FRESH']);

    // A masked name on the previous board of site 1 belongs to a linked user who keeps it hidden.
    const previous = async () =>
      (await t.call({ url: '/api/LeaderBoard/previous' })).json().data as Array<{ userName: string }>;
    expect((await previous()).some((e) => e.userName === 'Cr***en')).toBe(true);
    const crate = await t.signIn({ steamId: '76561199999999012', name: 'CrateQueen' });
    expect(crate.user.username).toBe('CrateQueen');
    const shown = await t.call({
      method: 'POST',
      url: '/api/User/preferences',
      as: crate,
      body: { showNameOnBoards: true },
    });
    expect(shown.statusCode, shown.body).toBe(200);
    expect((await previous()).some((e) => e.userName === 'CrateQueen')).toBe(true);
  });
});

describe('compression', () => {
  let t: TestApp;
  let webDist: string;
  const script = 'console.log("kickback");\n'.repeat(200);
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Kickback</title>');
    writeFileSync(path.join(webDist, 'assets/app-1.js'), script);
    writeFileSync(path.join(webDist, 'assets/app-1.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(webDist, 'assets/app-1.js.gz'), gzipSync(script));
    t = await buildTestApp({
      clock: new ManualClock('2026-03-04T12:00:00Z'),
      webDist,
      routes: (app) => uncachedRoutes(app),
    });
    await seedDemoData(t.app);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the build-time .br / .gz of a static asset to browsers that take them', async () => {
    const get = (encoding?: string) =>
      t.app.inject({ url: '/assets/app-1.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    // The file made at build time, not a compression made now.
    expect(br.rawPayload.equals(readFileSync(path.join(webDist, 'assets/app-1.js.br')))).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(readFileSync(path.join(webDist, 'assets/app-1.js.gz')))).toBe(true);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends a cached read compressed once per build, and a large uncached answer compressed per request', async () => {
    const url = '/api/LeaderBoard/previous';
    const plain = await t.call({ url });
    const br = await t.call({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const again = await t.call({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(again.rawPayload.equals(br.rawPayload)).toBe(true);
    const gz = await t.call({ url, headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    // A small body (the list of boards) goes out as it is.
    const smallUrl = '/api/LeaderBoard/sites';
    expect((await t.call({ url: smallUrl })).rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(
      (await t.call({ url: smallUrl, headers: { 'accept-encoding': 'br' } })).headers['content-encoding'],
    ).toBeUndefined();

    const large = await t.call({ url: '/test/uncached/board/1/previous', headers: { 'accept-encoding': 'gzip' } });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(large.rawPayload).toString()).toBe(plain.body);
  });
  it('answers every Accept-Encoding as @fastify/compress does on the same read uncached (it no longer runs on cached reads)', async () => {
    const decoded = (res: { headers: Record<string, unknown>; rawPayload: Buffer }) => {
      const encoding = res.headers['content-encoding'];
      if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
      if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
      return res.rawPayload.toString();
    };
    const asks: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'GZIP' },
      { 'accept-encoding': 'x-gzip' },
      { 'accept-encoding': '*' },
      { 'accept-encoding': 'br;q=0, *' },
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'gzip;q=0, deflate' },
      { 'accept-encoding': '*', 'x-no-compression': '1' },
      { 'accept-encoding': 'x-gzip', 'x-no-compression': '1' },
    ];
    for (const headers of asks) {
      const cached = await t.call({ url: '/api/LeaderBoard/previous', headers });
      const uncached = await t.call({ url: '/test/uncached/board/1/previous', headers });
      const what = JSON.stringify(headers);
      expect(cached.statusCode, what).toBe(200);
      expect(cached.headers['content-encoding'], what).toBe(uncached.headers['content-encoding']);
      expect(decoded(cached), what).toBe(decoded(uncached));
      expect(cached.headers.vary, what).toBe('accept-encoding');
    }
  });
});

describe('ReadCache', () => {
  it('shares one build among concurrent misses and drops a build that an invalidation overtook', async () => {
    const cache = new ReadCache();
    let builds = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const build = async () => {
      builds += 1;
      const n = builds;
      await gate;
      return { ready: readyBody(JSON.stringify({ n })) };
    };
    const a = cache.get('k', 60_000, 0, build);
    const b = cache.get('k', 60_000, 0, build);
    cache.invalidate('k'); // a write committed while the first build ran
    const c = cache.get('k', 60_000, 0, build);
    release();
    expect((await a)?.body.toString()).toBe('{"n":1}');
    expect(await b).toBe(await a);
    expect((await c)?.body.toString()).toBe('{"n":2}');
    expect((await cache.get('k', 60_000, 0, build))?.body.toString()).toBe('{"n":2}');
    expect(builds).toBe(2);
  });

  it('peek answers only what get would answer at once: built, not expired, not invalidated', async () => {
    const cache = new ReadCache();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const building = cache.get('k', 60_000, 0, async () => {
      await gate;
      return { ready: readyBody('"one"'), validUntil: 1_000 };
    });
    expect(cache.peek('k', 0)).toBeNull(); // being built
    release();
    const built = await building;
    expect(cache.peek('k', 999)).toBe(built);
    expect(cache.peek('k', 1_000)).toBeNull(); // its validUntil passed
    cache.invalidate('k');
    expect(cache.peek('k', 0)).toBeNull();
    await cache.get('hidden', 60_000, 0, async () => null);
    expect(cache.peek('hidden', 0)).toBeNull(); // nothing to serve: the handler answers 404
    await cache.get('z', 0, 0, async () => ({ ready: readyBody('"z"') }));
    expect(cache.peek('z', 0)).toBeNull(); // TTL 0: never kept
  });

  it('ends an entry at its validUntil (business time) and after its TTL', async () => {
    const cache = new ReadCache();
    let builds = 0;
    const build = async () => ({ ready: readyBody(String(++builds)), validUntil: 1_000 });
    await cache.get('k', 60_000, 0, build);
    await cache.get('k', 60_000, 999, build);
    expect(builds).toBe(1);
    await cache.get('k', 60_000, 1_000, build);
    expect(builds).toBe(2);
    await cache.get('z', 0, 0, build);
    await cache.get('z', 0, 0, build);
    expect(builds).toBe(4);
  });
});

const missing = await redisForTest('read cache sync test');

describe.skipIf(missing !== null)('with Redis, invalidations reach the other processes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: `kbtest:rc:${randomBytes(4).toString('hex')}:` };
    a = await buildTestApp({ env });
    b = await buildTestApp({ env, database: a.database as TestApp['database'] & { drop(): Promise<void> } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a product added through one process is served by the other at once', async () => {
    const names = async (on: TestApp) =>
      (await on.call({ url: '/api/Product/GetProducts' })).json().data.map((p: { name: string }) => p.name);
    expect(await names(b)).toEqual([]); // cached on b
    const admin = await a.signIn({ role: 'Admin' });
    const body = { name: 'Two-process mug', price: 3, category: 'Merch', imageUrl: null, stock: null };
    expect((await a.call({ method: 'POST', url: '/api/admin/products', as: admin, body })).statusCode).toBe(200);
    await expect.poll(() => names(b), { timeout: 20_000 }).toEqual(['Two-process mug']);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { listen } from '../../test/hub-client';
import { staticWebPlugin } from './static-web';

describe('static web pages', () => {
  let app: FastifyInstance;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>site</title>');
    writeFileSync(path.join(webDist, 'overlay.html'), '<!doctype html><title>overlay</title>');
    writeFileSync(path.join(webDist, 'bundle-report.json'), '{"pages":{"secret":1}}');
    writeFileSync(path.join(webDist, 'bundle-report.json.gz'), gzipSync('{"pages":{"secret":1}}'));
    writeFileSync(path.join(webDist, 'robots.txt'), 'User-agent: *');
    app = Fastify();
    await app.register(staticWebPlugin, { webDist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const res = await app.inject({ url });
    expect(res.statusCode, url).toBe(200);
    return res.body.includes('<title>overlay</title>') ? 'overlay' : 'site';
  };

  it('answers the OBS overlays with their own entry, in any case and with a trailing slash', async () => {
    expect(await page('/overlay/giveaway')).toBe('overlay');
    expect(await page('/overlay/hunt?x=1')).toBe('overlay');
    expect(await page('/Kick/Prediction/Overlay/?scale=0.8&theme=light')).toBe('overlay');
  });

  it('answers every other page with the site', async () => {
    expect(await page('/')).toBe('site');
    expect(await page('/giveaway')).toBe('site');
    expect(await page('/hunt')).toBe('site');
    expect(await page('/overlay/unknown')).toBe('site');
  });

  it('never serves the bundle report of the build, plain or compressed; other files are served', async () => {
    expect((await app.inject({ url: '/robots.txt' })).statusCode).toBe(200);
    for (const url of [
      '/bundle-report.json',
      '/BUNDLE-REPORT.JSON',
      '/bundle-report.json.gz',
      '/./bundle-report.json',
    ]) {
      for (const encoding of ['identity', 'gzip, br']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': encoding } });
        expect(res.statusCode, `${url} ${encoding}`).toBe(404);
        expect(res.body).not.toContain('secret');
      }
    }
    const sent = await app.inject({ url: '/bundle-report.json', method: 'HEAD' });
    expect(sent.statusCode).toBe(404);
  });
});

/** Over real HTTP: the hashed assets come from memory, in front of the router (lib/read-fast-path.ts). */
describe('built assets answered from memory', () => {
  let t: TestApp;
  let base: string;
  let webDist: string;
  const script = 'export const big = "' + 'x'.repeat(3000) + '";\n';
  const logo = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>';
  const html = `<!doctype html><title>site</title><meta name="x" content="${'y'.repeat(2000)}">`;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), html);
    const assets = path.join(webDist, 'assets');
    writeFileSync(path.join(assets, 'index-abc123.js'), script);
    writeFileSync(path.join(assets, 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(assets, 'index-abc123.js.gz'), gzipSync(script));
    writeFileSync(path.join(assets, 'small-def456.js'), 'export const s = 1;\n'); // no compressed copies
    writeFileSync(path.join(assets, 'index-abc123.js.map'), '{"version":3}');
    mkdirSync(path.join(webDist, 'brand'));
    writeFileSync(path.join(webDist, 'brand/logo.svg'), logo);
    t = await buildTestApp({ webDist });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${url}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('sends the copy the browser takes, with the caching and security headers, without the router', async () => {
    const before = t.app.readFastPath.answeredCount;
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const again = await get('/assets/index-abc123.js', { 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(t.app.readFastPath.answeredCount - before).toBe(4);
  });

  it('sends a small file the build left uncompressed as it is (no compression per request)', async () => {
    const small = await get('/assets/small-def456.js', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['content-length']).toBe(String(small.body.length));
    expect(small.body.toString()).toBe('export const s = 1;\n');
  });

  it('answers a page from the bytes read at start, compressed once, with an ETag that earns a 304', async () => {
    // Nothing is read from disk per page: the file may even be gone (a process serves its own build).
    rmSync(path.join(webDist, 'index.html'));
    const br = await get('/game/dealornodeal/01ABC', { 'accept-encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(html);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    const gz = await get('/store', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(html);
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
    expect(plain.headers.etag).toBe(br.headers.etag);
    const again = await get('/giveaway', { 'if-none-match': br.headers.etag!, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('answers a public picture from memory, cached for 5 minutes, never compressed per request', async () => {
    const before = t.app.readFastPath.answeredCount;
    const res = await get('/brand/logo.svg', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(logo);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get('/brand/logo.svg', { 'if-none-match': res.headers.etag! })).status).toBe(304);
    expect(t.app.readFastPath.answeredCount - before).toBe(2);
  });

  it('leaves source maps, query strings and unknown files to the router', async () => {
    const before = t.app.readFastPath.answeredCount;
    expect((await get('/assets/index-abc123.js.map')).status).toBe(200);
    expect((await get('/assets/index-abc123.js?v=1')).status).toBe(200);
    expect((await get('/assets/missing-000000.js')).status).toBe(404);
    expect(t.app.readFastPath.answeredCount).toBe(before);
  });
});

describe('source maps', () => {
  let webDist: string;
  beforeAll(() => {
    webDist = mkdtempSync(path.join(tmpdir(), 'kb-web-maps-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>site</title>');
    writeFileSync(path.join(webDist, 'assets/app-1.js'), 'console.log(1)\n//# sourceMappingURL=app-1.js.map');
    writeFileSync(path.join(webDist, 'assets/app-1.js.map'), '{"sourcesContent":["// the source"]}');
    writeFileSync(path.join(webDist, 'assets/app-1.js.map.gz'), gzipSync('{"sourcesContent":["// the source"]}'));
  });
  afterAll(() => rmSync(webDist, { recursive: true, force: true }));

  const statuses = async (sourceMaps: boolean | undefined) => {
    const app = Fastify();
    await app.register(staticWebPlugin, { webDist, ...(sourceMaps === undefined ? {} : { sourceMaps }) });
    await app.ready();
    try {
      const map = await app.inject({ url: '/assets/app-1.js.map', headers: { 'accept-encoding': 'gzip' } });
      const js = await app.inject({ url: '/assets/app-1.js' });
      return { map: map.statusCode, js: js.statusCode, leaks: map.body.includes('the source') };
    } finally {
      await app.close();
    }
  };

  it('are not served in production (sourceMaps: false); the code itself is', async () => {
    expect(await statuses(false)).toEqual({ map: 404, js: 200, leaks: false });
  });

  it('are served outside production (the default)', async () => {
    expect((await statuses(undefined)).map).toBe(200);
  });
});

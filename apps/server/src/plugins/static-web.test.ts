import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

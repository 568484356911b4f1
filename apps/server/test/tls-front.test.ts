/**
 * The production layout, rehearsed as `npm run cluster -- --tls` runs it (scripts/cluster.ts): Caddy
 * with the shipped deploy/Caddyfile serving HTTPS from its local CA in front of two processes run
 * with TRUST_PROXY=1, on PostgreSQL and Redis. Each visitor keeps an address of their own through
 * the front: one visitor using up the per-address budget leaves a second visitor's first request
 * alone, and an X-Forwarded-For the client forges neither renews a budget nor opens /metrics. The
 * web app's files are answered by Caddy from disk, with the headers a production process gives them,
 * and no process sees those requests; pages and the API still reach the processes.
 * (A rolling restart through this same front: ./rolling-restart.test.ts.)
 *
 * Visitors are told apart by the loopback address they connect from (127.0.0.2, 127.0.0.3: all of
 * 127.0.0.0/8 is this machine). Needs PostgreSQL, Redis (test/multi-process.ts) and caddy
 * (`apt-get install caddy`; .ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../../scripts/cluster';
import { helmetHeaders, securityHeaderOptions } from '../src/plugins/security-headers';
import { admin, baseUrl, freshDatabaseName, missing, redisUrl } from './multi-process';
import { bundledServer, freePort, withDatabase } from './processes';

const METRICS_TOKEN = 'tls-front-metrics-token';
const script = `export const big = "${'x'.repeat(4000)}";\n`;

/**
 * A small web build, as apps/web's build lays it out: a hashed script (over 1 KB, so with its .br
 * and .gz copies) and its source map, a small stylesheet (no copies), public pictures and sounds,
 * the two pages and the bundle report.
 */
function writeWebBuild(dir: string): void {
  const files: Record<string, string | Buffer> = {
    'index.html': '<!doctype html><title>site</title><script type="module" src="/assets/index-Ab12Cd34.js"></script>',
    'overlay.html': '<!doctype html><title>overlay</title>',
    'bundle-report.json': '{"pages":{}}',
    'assets/index-Ab12Cd34.js': script,
    'assets/index-Ab12Cd34.js.br': brotliCompressSync(script),
    'assets/index-Ab12Cd34.js.gz': gzipSync(script),
    'assets/index-Ab12Cd34.js.map': '{"version":3,"sources":[],"mappings":""}',
    'assets/index-Ef56Gh78.css': 'body{margin:0}',
    'store/cap.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
    'sounds/coin.wav': Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'),
  };
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), body);
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** The requests a process answered, apart from the front's health checks, from its /metrics. */
async function requestsSeen(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  let total = 0;
  for (const line of (await res.text()).split('\n')) {
    const m = /^kickback_http_request_duration_seconds_count\{([^}]*)\} (\d+)$/.exec(line);
    if (m && !m[1]!.includes('route="/healthz"')) total += Number(m[2]);
  }
  return total;
}

const caddy = spawnSync('caddy', ['version']).status === 0 ? null : 'caddy is not installed';
if (caddy) {
  if (process.env.CI) throw new Error(`tls-front test: ${caddy}`);
  console.log(`tls-front test SKIPPED: ${caddy}`);
}

describe.skipIf(missing !== null || caddy !== null)(
  'the HTTPS front (deploy/Caddyfile) in front of two processes',
  () => {
    const dbName = freshDatabaseName('tls');
    let cluster: Cluster;
    let ca: Buffer;
    const output: string[] = [];

    /** A GET over HTTPS through the front, its answer's headers and bytes as they came. */
    const fetchRaw = (path: string, from: string, headers: Record<string, string> = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const req = request(`${cluster.url}${path}`, { ca, localAddress: from, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
        req.end();
      });

    /** A GET over HTTPS that checks Caddy's certificate against its local CA, from `from`. */
    const get = (path: string, from: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${cluster.url}${path}`,
          { ca, localAddress: from, headers: { 'x-requested-with': 'kickback', ...headers } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${dbName}`);
      const command = bundledServer('kickback-tls-front');
      // The server finds the web build by walking up from its own file (plugins/static-web.ts), so
      // a build beside the bundle is the one the processes answer from; Caddy is given the same.
      const webRoot = path.join(path.dirname(command.argv.at(-1)!), 'apps/web/dist');
      writeWebBuild(webRoot);
      cluster = new Cluster({
        processes: 2,
        port: await freePort(),
        tls: true,
        databaseUrl: withDatabase(baseUrl, dbName),
        redisUrl,
        command,
        webRoot,
        output: (source, text) => void output.push(`[${source}] ${text}`),
        env: {
          NODE_ENV: 'development',
          LOG_LEVEL: 'warn',
          DEMO_DATA: '0',
          REDIS_PREFIX: `kbtls:${dbName}:`,
          LEADERBOARD_POLLER: '0',
          METRICS_ALLOW: '10.1.2.3',
          METRICS_TOKEN,
          RATE_LIMIT_PER_MINUTE: '4',
        },
      });
      await cluster.start();
      ca = readFileSync(cluster.caRoot);
    });
    afterAll(async () => {
      await cluster?.stop();
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    });

    it('serves the site over HTTPS with a certificate of its local CA', async () => {
      expect(cluster.url).toMatch(/^https:\/\/localhost:\d+$/);
      const res = await get('/healthz', '127.0.0.1');
      expect(res.status, output.join('')).toBe(200);
      // Without the CA the certificate is refused: it is a real TLS front, not plain HTTP.
      await expect(
        new Promise((resolve, reject) => request(`${cluster.url}/healthz`, resolve).on('error', reject).end()),
      ).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    });

    it("one visitor's used-up budget leaves another's first request alone; a forged X-Forwarded-For renews nothing", async () => {
      const statuses: number[] = [];
      // Visitor A, forging a new address in every request (the front replaces the header).
      for (let n = 1; n <= 6; n++) {
        statuses.push((await get('/api/site', '127.0.0.2', { 'x-forwarded-for': `192.0.2.${n}` })).status);
      }
      expect(statuses, output.join('')).toEqual([200, 200, 200, 200, 429, 429]);
      // Forging the other visitor's address does not borrow their budget either.
      expect((await get('/api/site', '127.0.0.2', { 'x-forwarded-for': '127.0.0.3' })).status).toBe(429);
      // Visitor B's first request.
      expect((await get('/api/site', '127.0.0.3')).status).toBe(200);
    });

    it('/metrics is not served through the front, forged allowed address or not', async () => {
      expect((await get('/metrics', '127.0.0.1', { 'x-forwarded-for': '10.1.2.3' })).status).toBe(404);
    });

    it("answers the web app's files from disk with a process's headers, and no process sees them", async () => {
      const files = [
        ['/assets/index-Ab12Cd34.js', 'public, max-age=31536000, immutable'],
        ['/assets/index-Ef56Gh78.css', 'public, max-age=31536000, immutable'],
        ['/store/cap.svg', 'public, max-age=300'],
        ['/sounds/coin.wav', 'public, max-age=300'],
      ] as const;
      // The content type and caching a process gives each file, asked directly (not through the front).
      const fromNode = new Map<string, Headers>();
      for (const [file] of files) fromNode.set(file, (await fetch(`${cluster.members[0]!.url}${file}`)).headers);
      // What a production process puts on a file (plugins/security-headers.ts), for this site's origin.
      const security = helmetHeaders(securityHeaderOptions(cluster.url, true));
      const seen = async () =>
        (await Promise.all(cluster.members.map((m) => requestsSeen(m.url)))).reduce((a, b) => a + b);
      const before = await seen();
      const from = '127.0.0.4';
      const br = await fetchRaw('/assets/index-Ab12Cd34.js', from, { 'accept-encoding': 'br' });
      const gz = await fetchRaw('/assets/index-Ab12Cd34.js', from, { 'accept-encoding': 'gzip' });
      const plain = await fetchRaw('/assets/index-Ab12Cd34.js', from);
      const answers = new Map<string, Answer>();
      for (const [file] of files) answers.set(file, await fetchRaw(file, from, { 'accept-encoding': 'br, gzip' }));
      const gone = await fetchRaw('/assets/index-Zz99Yy88.js', from);
      expect(await seen(), `a process answered a file the front serves\n${output.join('')}`).toBe(before);

      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.bytes).toString()).toBe(script);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.bytes).toString()).toBe(script);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.bytes.toString()).toBe(script);
      for (const [file, caching] of files) {
        const res = answers.get(file)!;
        expect(res.status, file).toBe(200);
        expect(res.headers['cache-control'], file).toBe(caching);
        expect(res.headers['content-type'], file).toBe(fromNode.get(file)!.get('content-type'));
        expect(res.headers['cache-control'], file).toBe(fromNode.get(file)!.get('cache-control'));
        for (const [name, value] of security) expect(res.headers[name.toLowerCase()], `${file} ${name}`).toBe(value);
      }
      // A hashed name that is not there: 404, not the page, and nothing cached for a year.
      expect(gone.status).toBe(404);
      expect(gone.bytes.toString()).not.toContain('<title>');
      expect(gone.headers['cache-control'] ?? '').not.toContain('immutable');

      // Pages, the API, source maps and a page under a public folder still reach the processes.
      const page = await fetchRaw('/', '127.0.0.5');
      expect(page.status).toBe(200);
      expect(page.bytes.toString()).toContain('<title>site</title>');
      expect((await fetchRaw('/store/orders', '127.0.0.5')).bytes.toString()).toContain('<title>site</title>');
      expect((await fetchRaw('/api/site', '127.0.0.5', { 'x-requested-with': 'kickback' })).status).toBe(200);
      expect((await fetchRaw('/assets/index-Ab12Cd34.js.map', '127.0.0.5')).status).toBe(200); // development: served
      expect(await seen(), 'the page, /store/orders, /api/site and the source map reach a process').toBe(before + 4);
    });
  },
);

/**
 * The production layout, rehearsed as `npm run cluster -- --tls` runs it (scripts/cluster.ts): Caddy
 * with the shipped deploy/Caddyfile serving HTTPS from its local CA in front of two processes run
 * with TRUST_PROXY=1, on PostgreSQL and Redis. Each visitor keeps an address of their own through
 * the front: one visitor using up the per-address budget leaves a second visitor's first request
 * alone, and an X-Forwarded-For the client forges neither renews a budget nor opens /metrics.
 * (A rolling restart through this same front: ./rolling-restart.test.ts.)
 *
 * Visitors are told apart by the loopback address they connect from (127.0.0.2, 127.0.0.3: all of
 * 127.0.0.0/8 is this machine). Needs PostgreSQL, Redis (test/multi-process.ts) and caddy
 * (`apt-get install caddy`; .ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../../scripts/cluster';
import { admin, baseUrl, freshDatabaseName, missing, redisUrl } from './multi-process';
import { bundledServer, freePort, withDatabase } from './processes';

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
      cluster = new Cluster({
        processes: 2,
        port: await freePort(),
        tls: true,
        databaseUrl: withDatabase(baseUrl, dbName),
        redisUrl,
        command: bundledServer('kickback-tls-front'),
        output: (source, text) => void output.push(`[${source}] ${text}`),
        env: {
          NODE_ENV: 'development',
          LOG_LEVEL: 'warn',
          DEMO_DATA: '0',
          REDIS_PREFIX: `kbtls:${dbName}:`,
          LEADERBOARD_POLLER: '0',
          METRICS_ALLOW: '10.1.2.3',
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
  },
);

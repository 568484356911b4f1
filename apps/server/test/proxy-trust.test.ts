/**
 * The shipped HAProxy (deploy/haproxy.cfg, through scripts/cluster.ts) in front of a process run
 * with TRUST_PROXY=1: an X-Forwarded-For the client forges is never taken as its address. /metrics
 * stays closed to a forged allowed address, and the per-address API budget is not renewed by a new
 * forged address per request.
 *
 * Needs PostgreSQL, Redis (test/multi-process.ts) and haproxy, like the rolling-restart test.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, baseUrl, freshDatabaseName, missing, redisUrl } from './multi-process';
import { bundledServer, freePort, withDatabase } from './processes';
import { Cluster } from '../../../scripts/cluster';

const haproxy = spawnSync('haproxy', ['-v']).status === 0 ? null : 'haproxy is not installed';
if (haproxy) {
  if (process.env.CI) throw new Error(`proxy-trust test: ${haproxy}`);
  console.log(`proxy-trust test SKIPPED: ${haproxy}`);
}

describe.skipIf(missing !== null || haproxy !== null)('behind the shipped HAProxy (TRUST_PROXY=1)', () => {
  const dbName = freshDatabaseName('proxy');
  let cluster: Cluster;
  const output: string[] = [];
  beforeAll(async () => {
    const command = bundledServer('kickback-proxy-trust');
    await admin(`CREATE DATABASE ${dbName}`);
    cluster = new Cluster({
      processes: 1,
      port: await freePort(),
      databaseUrl: withDatabase(baseUrl, dbName),
      redisUrl,
      command,
      output: (source, text) => void output.push(`[${source}] ${text}`),
      env: {
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DEMO_DATA: '0',
        REDIS_PREFIX: `kbproxy:${dbName}:`,
        LEADERBOARD_POLLER: '0',
        TRUST_PROXY: '1',
        METRICS_ALLOW: '10.1.2.3',
        RATE_LIMIT_PER_MINUTE: '3',
      },
    });
    await cluster.start();
  });
  afterAll(async () => {
    await cluster?.stop();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('a forged X-Forwarded-For opens neither /metrics nor a new API budget', async () => {
    const get = (url: string, forged: string) =>
      fetch(`${cluster.url}${url}`, { headers: { 'x-forwarded-for': forged, 'x-requested-with': 'kickback' } });
    expect((await get('/metrics', '10.1.2.3')).status).toBe(403);
    expect((await get('/metrics', '10.1.2.3, 10.1.2.3')).status).toBe(403);
    const statuses: number[] = [];
    for (let n = 1; n <= 5; n++) statuses.push((await get('/api/site', `192.0.2.${n}`)).status);
    expect(statuses, output.join('')).toEqual([200, 200, 200, 429, 429]);
  });
});

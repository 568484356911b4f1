/**
 * Leaderboard reads: requests per second and latency of `GET /api/LeaderBoard/roobet/now` and
 * `/api/LeaderBoard/previous` against the built server (demo data, simulators), with the
 * in-process board cache on (the default 15 s) and off (every request ranks from the database).
 * `npm run build` first. PostgreSQL with BENCH_DATABASE_URL, else in-memory PGlite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { printFigures, summarise } from './lib/stats';
import { logLevelEnv, logLevelLine, serverLogFile } from './lib/server-log';

const serverMain = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));
const headers = { 'X-Requested-With': 'kickback' };

async function startServer(port: number, cacheSeconds: number): Promise<ChildProcess> {
  const log = serverLogFile(`leaderboards-${port}`);
  console.log(logLevelLine(log.file));
  const child = spawn(process.execPath, [serverMain], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: ':memory:',
      DEMO_DATA: '1',
      ...logLevelEnv(),
      RATE_LIMIT_PER_MINUTE: '10000000',
      LEADERBOARD_CACHE_SECONDS: String(cacheSeconds),
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    },
    stdio: ['ignore', log.fd, 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/api/LeaderBoard/roobet/now`, { headers });
      if (res.ok && ((await res.json()) as { data: unknown[] }).data.length > 0) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('server did not come up with a filled board');
}

async function load(url: string, total: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const t0 = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...summarise(latencies), rps: total / seconds };
}

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 20);
for (const [label, cacheSeconds, port] of [
  ['cache on (15 s)', 15, 38411],
  ['cache off', 0, 38412],
] as const) {
  const server = await startServer(port, cacheSeconds);
  try {
    for (const path of ['/api/LeaderBoard/roobet/now', '/api/LeaderBoard/previous']) {
      const url = `http://127.0.0.1:${port}${path}`;
      await load(url, 100, 5); // warm up
      const r = await load(url, total, concurrency);
      printFigures(`${path}, ${label}, ${total} requests, ${concurrency} concurrent`, {
        'requests/s': r.rps,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'max ms': r.max,
      });
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

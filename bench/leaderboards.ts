/**
 * Leaderboard reads: requests per second and latency of `GET /api/LeaderBoard/roobet/now` and
 * `/api/LeaderBoard/previous` against the built server (demo data, simulators), with the
 * in-process board cache on (the default 15 s) and off (every request ranks from the database).
 * `npm run build` first. PostgreSQL with BENCH_DATABASE_URL, else in-memory PGlite.
 */
import { printFigures, summarise } from './lib/stats';
import { startServer, stopServer } from './lib/server-process';

const headers = { 'X-Requested-With': 'kickback' };

/** The built server with demo data and the board poller, up once its running board is filled. */
function startBoards(port: number, cacheSeconds: number) {
  return startServer(
    port,
    process.env.BENCH_DATABASE_URL ?? null,
    {
      DEMO_DATA: '1',
      LEADERBOARD_POLLER: '1',
      RATE_LIMIT_PER_MINUTE: '10000000',
      LEADERBOARD_CACHE_SECONDS: String(cacheSeconds),
    },
    [],
    async (base) => {
      try {
        const res = await fetch(`${base}/api/LeaderBoard/roobet/now`, { headers });
        return res.ok && ((await res.json()) as { data: unknown[] }).data.length > 0;
      } catch {
        return false; // not up yet
      }
    },
  );
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
  const server = await startBoards(port, cacheSeconds);
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
    await stopServer(server);
  }
}

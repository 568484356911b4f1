/**
 * `npm run bench -- milestones [--links 50000] [--claimers 2000]` (`npm run build` first; PostgreSQL
 * at BENCH_DATABASE_URL, or the local server when it answers)
 *
 * The milestone ladder at scale (docs/features/milestone-rewards.md): the built server on a fresh
 * PostgreSQL database, `--links` verified Clash links (the claimers sign in through the dev
 * identity provider, the rest are written in bulk), and a Clash partner API served by this script
 * on the loopback address with a standing for every linked player. The Clash ladder has five
 * point tiers in automatic mode; wager points are off (0 per unit) so the refresh measured is the
 * ladder's own work.
 *
 * 1. The poller's first refresh (`POST /api/admin/leaderboards/1/refresh`: standings written, every
 *    link's progress written, every tier reached paid in set-based batches): its wall time (target
 *    under 10 s for 50,000 rows).
 * 2. Wagers move (most up, some corrected down), then a second refresh runs while every claimer
 *    claims at once: claim p50/p99 (target p99 under 200 ms).
 * 3. The same claims again at once with no refresh running (every one refused: nothing is owed
 *    any more), and the same burst of requests (`GET /hello`, the same client and cookies) against
 *    a bare Fastify in a process of its own: the stack's floor for that many requests arriving at
 *    once on this machine, measured in the same run.
 * 4. The books: every user's `milestone_reward` ledger rows add up to the rewards of the tiers their
 *    highest reported wager reached — each tier paid once, whoever paid it — and the ledger sums to
 *    every balance.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { startBareServer } from './lib/bare-process';
import {
  cpuSnapshot,
  cpuSpent,
  processCpuMs,
  startServer,
  stopServer,
  withFreshPgDatabase,
} from './lib/server-process';
import { freePort, signIn } from './lib/site';
import { printFigures, summarise } from './lib/stats';

const ADMIN_STEAM_ID = '76561199999999001';
const TARGET_REFRESH_MS = 10_000;
const TARGET_CLAIM_P99 = 200;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const links = arg('links', 50_000);
const claimers = Math.min(arg('claimers', 2_000), links);

/** Tiers: [threshold in dollars, points]. */
const tiers: Array<[number, number]> = [
  [100, 10],
  [500, 20],
  [1_000, 30],
  [5_000, 40],
  [10_000, 50],
];
const owedFor = (wagered: number) => tiers.filter(([t]) => t <= wagered).reduce((sum, [, p]) => sum + p, 0);

/** A player's wager in dollars in round 1 and 2: spread over the tiers, most grow, every 7th is corrected down. */
const wagerOf = (i: number, round: 1 | 2) => {
  const base = (i * 37) % 12_000;
  if (round === 1) return base;
  return i % 7 === 0 ? Math.floor(base / 3) : base + ((i * 13) % 4_000);
};

async function call(base: string, method: string, path: string, cookie: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'x-requested-with': 'kickback',
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** Every cookie's request at once: each one's latency and the burst's wall time. */
async function burst(cookies: readonly string[], send: (cookie: string) => Promise<{ status: number }>) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  await Promise.all(
    cookies.map(async (cookie) => {
      const c0 = performance.now();
      const res = await send(cookie);
      latencies.push(performance.now() - c0);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }),
  );
  return { ...summarise(latencies), wallMs: performance.now() - t0, statuses };
}

const perSecond = (n: number, ms: number) => Math.round((n * 1000) / ms);

async function run(databaseUrl: string): Promise<boolean> {
  // The partner API: every linked player's standing, in hundredths (Clash's unit).
  let round: 1 | 2 = 1;
  const names: string[] = [];
  const partner = createServer((_req, res) => {
    const rows = names.map((name, i) => ({ id: i + 1, name, wagered: wagerOf(i, round) * 100 }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(rows));
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  const partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port, databaseUrl, {
    CLASH_API_KEY: 'bench-key',
    CLASH_API_URL: partnerUrl,
    DATABASE_POOL_SIZE: '10',
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const admin = await signIn(base, ADMIN_STEAM_ID, 'StreamerAdmin', { demo: true });
    const t0 = performance.now();
    const cookies: string[] = [];
    for (let i = 0; i < claimers; i += 25) {
      const batch = Array.from({ length: Math.min(25, claimers - i) }, (_, k) => i + k);
      cookies.push(
        ...(await Promise.all(
          batch.map((n) => signIn(base, `7656119${String(9_100_000_000 + n).padStart(10, '0')}`, `Claimer${n}`)),
        )),
      );
    }
    await db.query(`
      INSERT INTO users (steam_id, username)
      SELECT '7656119' || (9200000000 + g)::text, 'Bench' || g FROM generate_series(1, ${links - claimers}) g`);
    await db.query(`
      INSERT INTO partner_links (user_id, field, value, name_key, state, claimed_at, decided_at, decided_by)
      SELECT id, 'clashId', 'p_' || lower(username), 'p_' || lower(username), 'verified', now(), now(), 'bench'
      FROM users WHERE username ~ '^(Claimer|Bench)[0-9]+$'`);
    const linked = await db.query<{ value: string; username: string }>(
      `SELECT l.value, u.username FROM partner_links l JOIN users u ON u.id = l.user_id ORDER BY l.id`,
    );
    names.push(...linked.rows.map((r) => r.value));
    await db.query(`UPDATE leaderboard_sites SET points_per_unit = 0 WHERE site = 1`);
    console.log(
      `set-up: ${linked.rows.length} verified links (${claimers} signed in) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const saved = await call(base, 'PUT', '/api/admin/milestones/1', admin, {
      enabled: true,
      automatic: true,
      cycle: 'period',
      tiers: tiers.map(([threshold, points], i) => ({
        name: `Tier ${i + 1}`,
        threshold: String(threshold),
        rewardKind: 'points',
        rewardAmount: String(points),
      })),
    });
    if (saved.status !== 200) throw new Error(`saving the ladder: ${saved.status} ${saved.text}`);

    // 1. The first refresh: standings, progress and automatic payouts of every row.
    const refreshCpuBefore = await cpuSnapshot(server.pid!, databaseUrl);
    const r1 = performance.now();
    const first = await call(base, 'POST', '/api/admin/leaderboards/1/refresh', admin);
    const refreshMs = performance.now() - r1;
    const refreshCpu = cpuSpent(refreshCpuBefore, await cpuSnapshot(server.pid!, databaseUrl));
    if (first.status !== 200) throw new Error(`refresh: ${first.status} ${first.text}`);
    const paidAfter1 = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger WHERE reason = 'milestone_reward'`,
    );

    // 2. Wagers move; a refresh runs while every claimer claims at once.
    round = 2;
    const r2 = performance.now();
    const [secondMs, claims] = await Promise.all([
      call(base, 'POST', '/api/admin/leaderboards/1/refresh', admin).then(() => performance.now() - r2),
      burst(cookies, (cookie) => call(base, 'POST', '/api/milestones/1/claim', cookie)),
    ]);
    const statuses = claims.statuses;

    // 3. The same claims alone (all refused), then the same burst against a bare Fastify.
    const cpuBefore = await cpuSnapshot(server.pid!, databaseUrl);
    const alone = await burst(cookies, (cookie) => call(base, 'POST', '/api/milestones/1/claim', cookie));
    const aloneCpu = cpuSpent(cpuBefore, await cpuSnapshot(server.pid!, databaseUrl));
    const bare = await startBareServer();
    const bareCpuBefore = processCpuMs(bare.pid);
    const clientBefore = process.cpuUsage();
    const floor = await burst(cookies, (cookie) => call(bare.url, 'GET', '/hello', cookie)).finally(() => bare.stop());
    const bareServerCpu = processCpuMs(bare.pid) - bareCpuBefore;
    const clientSpent = process.cpuUsage(clientBefore);
    const bareClientCpu = (clientSpent.user + clientSpent.system) / 1000;

    // 4. The books.
    const expected = new Map<string, number>();
    linked.rows.forEach((r, i) => {
      const owed = owedFor(Math.max(wagerOf(i, 1), wagerOf(i, 2)));
      if (owed > 0) expected.set(r.username, owed);
    });
    const paid = await db.query<{ username: string; total: string }>(`
      SELECT u.username, sum(l.delta)::text AS total FROM ledger l JOIN users u ON u.id = l.user_id
      WHERE l.reason = 'milestone_reward' GROUP BY u.username`);
    const wrong = paid.rows.filter((r) => Number(r.total) !== expected.get(r.username));
    const missing = [...expected.keys()].filter((u) => !paid.rows.some((r) => r.username === u)).length;
    const sum = paid.rows.reduce((s, r) => s + Number(r.total), 0);
    const expectedSum = [...expected.values()].reduce((s, v) => s + v, 0);
    const balances = await db.query<{ n: string }>(`
      SELECT count(*) AS n FROM (
        SELECT u.id FROM users u LEFT JOIN ledger l ON l.user_id = u.id AND l.currency = 'points'
        GROUP BY u.id, u.points HAVING u.points <> coalesce(sum(l.delta), 0)) bad`);

    printFigures(`milestones: ${links} verified links, ${claimers} concurrent claimers, PostgreSQL`, {
      'first refresh ms': refreshMs,
      'first refresh payouts': Number(paidAfter1.rows[0]!.n),
      'first refresh CPU ms: server / postgres': `${refreshCpu.server.toFixed(0)} / ${refreshCpu.postgres.toFixed(0)}`,
      'second refresh ms (with claims)': secondMs,
      'claim p50 ms': claims.p50,
      'claim p99 ms': claims.p99,
      'claim max ms': claims.max,
      'claims 200 / 409': `${statuses.get(200) ?? 0} / ${statuses.get(409) ?? 0}`,
      'claims/s (with the refresh)': perSecond(claimers, claims.wallMs),
      'claims alone p50 / p99 ms': `${alone.p50.toFixed(0)} / ${alone.p99.toFixed(0)}`,
      'claims alone /s': perSecond(claimers, alone.wallMs),
      'claims alone CPU ms per claim: server / postgres / client': [aloneCpu.server, aloneCpu.postgres, aloneCpu.client]
        .map((ms) => (ms / claimers).toFixed(2))
        .join(' / '),
      'bare burst p50 / p99 ms': `${floor.p50.toFixed(0)} / ${floor.p99.toFixed(0)}`,
      'bare burst requests/s': perSecond(claimers, floor.wallMs),
      'bare burst CPU ms per request: server / client': [bareServerCpu, bareClientCpu]
        .map((ms) => (ms / claimers).toFixed(2))
        .join(' / '),
      'ledger sum': sum,
      'expected sum': expectedSum,
    });
    const ok =
      wrong.length === 0 &&
      missing === 0 &&
      sum === expectedSum &&
      Number(balances.rows[0]!.n) === 0 &&
      [...statuses.keys()].every((s) => s === 200 || s === 409) &&
      [...alone.statuses.keys()].every((s) => s === 409);
    console.log(
      `\nbooks: ${ok ? 'OK' : 'WRONG'} (${wrong.length} users paid a wrong sum, ${missing} unpaid, ${balances.rows[0]!.n} balances off the ledger)`,
    );
    console.log(
      `targets: refresh ${refreshMs < TARGET_REFRESH_MS ? 'met' : 'MISSED'} (< ${TARGET_REFRESH_MS} ms), claim p99 ${
        claims.p99 < TARGET_CLAIM_P99 ? 'met' : 'MISSED'
      } (< ${TARGET_CLAIM_P99} ms)`,
    );
    return ok;
  } finally {
    await db.end();
    await stopServer(server);
    partner.close();
  }
}

const ok = await withFreshPgDatabase(run);
process.exit(ok ? 0 : 1);

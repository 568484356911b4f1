/**
 * `npm run bench -- raffle [--duration 60] [--users 20000] [--concurrency 64] [--pool 16]`
 * (`npm run build` first; docs/benchmarks.md#raffle).
 *
 * Raffle tickets through the real HTTP path: the built server runs as its own process on a fresh
 * PostgreSQL database (BENCH_DATABASE_URL, or the local server). `--users` accounts with 50 points
 * and a session each are written straight into the database (20,000 sign-ins would measure the
 * sign-in); the admin creates and opens a raffle (10 points a ticket, at most 4 per user), then
 * `--concurrency` keep-alive clients buy 1–3 tickets as random users for `--duration` seconds
 * (`POST /api/raffles/:id/tickets`), so users run into both the cap and their balance. Then the
 * books, and the draw: a raffle holding 1,000,000 tickets, 10 prizes, drawn by the admin's Draw.
 */
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { KeepAliveClient } from './lib/keep-alive-client';
import { startServer, stopServer, withFreshPgDatabase } from './lib/server-process';
import { freePort, signIn } from './lib/site';
import { printFigures, summarise } from './lib/stats';

const ADMIN_STEAM_ID = '76561199999999001'; // the dev provider's demo admin
const CAP = 4;
const TARGET_DRAW_MS = 1000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const durationS = arg('duration', 60);
const userCount = arg('users', 20_000);
const concurrency = arg('concurrency', 64);
const poolSize = arg('pool', 16);

async function adminCall<T>(base: string, cookie: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-requested-with': 'kickback', cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function openRaffle(base: string, cookie: string, title: string, prizes: number): Promise<string> {
  const { raffle } = await adminCall<{ raffle: { id: string } }>(base, cookie, '/api/admin/raffles', {
    title,
    prizes: Array.from({ length: prizes }, () => ({ kind: 'points', points: 100 })),
    ticketPrice: 10,
    maxTicketsPerUser: CAP,
    opensAt: new Date(Date.now() - 60_000).toISOString(),
    closesAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });
  await adminCall(base, cookie, `/api/admin/raffles/${raffle.id}/open`);
  return raffle.id;
}

async function run(databaseUrl: string): Promise<boolean> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port, databaseUrl, { DATABASE_POOL_SIZE: String(poolSize) });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const admin = await signIn(base, ADMIN_STEAM_ID, 'StreamerAdmin', { demo: true });
    const cookieName = admin.split('=')[0]!;

    // The users, their points (with the ledger rows that explain them) and their sessions.
    const tokens = Array.from({ length: userCount }, () => randomBytes(24).toString('hex'));
    await db.query(
      `WITH made AS (
         INSERT INTO users (steam_id, username, points)
         SELECT 'bench' || g, 'bench_user_' || g, 50 FROM generate_series(1, $1::int) g
         RETURNING id, steam_id
       ), granted AS (
         INSERT INTO ledger (user_id, currency, delta, balance_after, reason, memo)
         SELECT id, 'points', 50, 50, 'admin_grant', 'bench' FROM made
       )
       INSERT INTO sessions (id, user_id, expires_at)
       SELECT t.hash, made.id, now() + interval '1 day'
       FROM made JOIN unnest($2::text[]) WITH ORDINALITY AS t(hash, n) ON made.steam_id = 'bench' || t.n`,
      [userCount, tokens.map((t) => createHash('sha256').update(t).digest('hex'))],
    );

    const raffleId = await openRaffle(base, admin, 'Bench raffle', 1);
    const requests = tokens.map((token) =>
      [1, 2, 3].map((quantity) => {
        const body = JSON.stringify({ quantity });
        return Buffer.from(
          `POST /api/raffles/${raffleId}/tickets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Requested-With: kickback\r\n` +
            `Content-Type: application/json\r\nCookie: ${cookieName}=${token}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      }),
    );
    const client = new KeepAliveClient(port, concurrency);
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const until = performance.now() + durationS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const req = requests[Math.floor(Math.random() * userCount)]![Math.floor(Math.random() * 3)]!;
          const t0 = performance.now();
          const status = await client.send(req);
          latencies.push(performance.now() - t0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    client.close();
    const s = summarise(latencies);
    const books = (
      await db.query<{ overspent: string; over_cap: string; tally_off: string; ledger_off: string }>(
        `SELECT
          (SELECT count(*) FROM users WHERE points < 0)::text AS overspent,
          (SELECT count(*) FROM raffle_entries WHERE raffle_id = $1 AND bought > $2)::text AS over_cap,
          (SELECT count(*) FROM raffle_entries e WHERE raffle_id = $1 AND e.tickets <>
             (SELECT coalesce(sum(quantity), 0) FROM raffle_tickets t WHERE t.raffle_id = e.raffle_id AND t.user_id = e.user_id))::text AS tally_off,
          (SELECT count(*) FROM users u WHERE u.points <>
             (SELECT coalesce(sum(delta), 0) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'))::text AS ledger_off`,
        [raffleId, CAP],
      )
    ).rows[0]!;
    const ok = statuses.get(200) ?? 0;
    const refused = statuses.get(409) ?? 0;
    const other = s.count - ok - refused;
    printFigures(`raffle purchases on PostgreSQL (${userCount} users, ${concurrency} at once, pool ${poolSize})`, {
      seconds: seconds.toFixed(1),
      'purchase requests': s.count,
      'requests/s': (s.count / seconds).toFixed(0),
      'purchases (200)': ok,
      'purchases/s': (ok / seconds).toFixed(0),
      'refused, cap or balance (409)': refused,
      'other answers': other,
      'p50 ms': s.p50.toFixed(1),
      'p99 ms': s.p99.toFixed(1),
      overspends: books.overspent,
      'over cap': books.over_cap,
      'tallies != tickets rows': books.tally_off,
      'ledger sum != balance': books.ledger_off,
    });
    const booksOk = other === 0 && Object.values(books).every((n) => n === '0');

    // The draw over 1,000,000 tickets.
    const drawId = await openRaffle(base, admin, 'Bench draw', 10);
    const perUser = Math.ceil(1_000_000 / userCount);
    await db.query(
      `INSERT INTO raffle_entries (raffle_id, user_id, tickets)
       SELECT $1, id, $2 FROM users WHERE steam_id LIKE 'bench%'`,
      [drawId, perUser],
    );
    const t0 = performance.now();
    await adminCall(base, admin, `/api/admin/raffles/${drawId}/draw`);
    const drawMs = performance.now() - t0;
    const drawn = (
      await db.query<{ tickets: string; winners: string }>(
        `SELECT (SELECT sum(tickets) FROM raffle_entries WHERE raffle_id = $1)::text AS tickets,
                (SELECT count(*) FROM raffle_winners WHERE raffle_id = $1)::text AS winners`,
        [drawId],
      )
    ).rows[0]!;
    printFigures('raffle draw on PostgreSQL', {
      tickets: drawn.tickets,
      owners: userCount,
      winners: drawn.winners,
      'Draw ms (close: snapshot read, hashed, stored; 10 winners; prizes paid)': drawMs.toFixed(0),
      target: `< ${TARGET_DRAW_MS} ms`,
    });
    return booksOk && drawn.winners === '10' && drawMs < TARGET_DRAW_MS;
  } finally {
    await db.end();
    await stopServer(server);
  }
}

const ok = await withFreshPgDatabase(run);
process.exit(ok ? 0 : 1);

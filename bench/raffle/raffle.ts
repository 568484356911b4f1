/**
 * `cd bench && npx tsx raffle/raffle.ts [--duration 60] [--users 20000] [--concurrency 64] [--pool 16]`
 *
 * Raffle tickets on PostgreSQL (BENCH_DATABASE_URL, or the local server), on a fresh database
 * migrated by the app's migrations. See raffle/README.md.
 *
 * 1. Purchases: `--users` accounts with 50 points each, one open raffle (10 points a ticket, at
 *    most 4 per user). `--concurrency` workers buy for `--duration` seconds, each purchase one
 *    transaction through the server's own purchase code (modules/raffles/tickets.ts: the tally row
 *    lock, the cap, the ledger debit) for a random user and 1–3 tickets, so users run into both
 *    the cap and their balance. Figures: purchases/s, p50/p99, refusals by kind; then the books:
 *    no negative balance (overspend), no tally above the cap, the tickets rows sum to the tallies,
 *    and every user's ledger sums to their balance.
 * 2. The draw: a raffle holding 1,000,000 tickets (the users' tallies), 10 prizes; the close and
 *    draw (snapshot, hash, ten winners, prizes paid) timed in one transaction; target < 1 s.
 */
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database, type Tx } from '../../apps/server/src/db/client';
import { migrate } from '../../apps/server/src/db/migrate';
import { rowsOf } from '../../apps/server/src/db/rows';
import { raffles } from '../../apps/server/src/db/schema/raffles';
import { closeRaffle, drawRaffle, newSeed } from '../../apps/server/src/modules/raffles/draw';
import { buyTickets } from '../../apps/server/src/modules/raffles/tickets';
import { withFreshPgDatabase } from '../lib/server-process';
import { printFigures, summarise } from '../lib/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const durationS = arg('duration', 60);
const userCount = arg('users', 20_000);
const concurrency = arg('concurrency', 64);
const poolSize = arg('pool', 16);
const CAP = 4;
const TARGET_DRAW_MS = 1000;

async function one<T extends Record<string, unknown>>(database: Database, query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await database.db.execute(query))[0]!;
}

async function makeRaffle(database: Database, title: string, prizes: number): Promise<string> {
  const { seedHash, serverSeed } = newSeed();
  const { id } = await one<{ id: string }>(
    database,
    sql`INSERT INTO raffles (title, status, ticket_price, max_tickets_per_user, opens_at, closes_at, seed_hash, server_seed, committed_at)
        VALUES (${title}, 'open', 10, ${CAP}, now() - interval '1 minute', now() + interval '1 day', ${seedHash}, ${serverSeed}, now())
        RETURNING id`,
  );
  await database.db.execute(sql`
    INSERT INTO raffle_prizes (raffle_id, position, kind, points)
    SELECT ${id}, g, 'points', 100 FROM generate_series(0, ${prizes - 1}) g`);
  return id;
}

async function purchases(database: Database, userIds: string[]): Promise<boolean> {
  const raffleId = await makeRaffle(database, 'Bench raffle', 1);
  const latencies: number[] = [];
  const outcomes = { ok: 0, cap: 0, short: 0, other: 0 };
  const until = performance.now() + durationS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const userId = userIds[Math.floor(Math.random() * userIds.length)]!;
      const quantity = 1 + Math.floor(Math.random() * 3);
      const start = performance.now();
      try {
        await database.db.transaction((tx) => buyTickets(tx as Tx, raffleId, userId, quantity, new Date()));
        outcomes.ok += 1;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (message.startsWith('You can hold at most')) outcomes.cap += 1;
        else if (message.startsWith('You do not have enough points')) outcomes.short += 1;
        else {
          outcomes.other += 1;
          if (outcomes.other < 5) console.error(err);
        }
      }
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const s = summarise(latencies);

  const books = await one<{ overspent: string; over_cap: string; tally_off: string; ledger_off: string }>(
    database,
    sql`SELECT
      (SELECT count(*) FROM users WHERE points < 0)::text AS overspent,
      (SELECT count(*) FROM raffle_entries WHERE raffle_id = ${raffleId} AND bought > ${CAP})::text AS over_cap,
      (SELECT count(*) FROM raffle_entries e WHERE raffle_id = ${raffleId} AND e.tickets <>
         (SELECT coalesce(sum(quantity), 0) FROM raffle_tickets t WHERE t.raffle_id = e.raffle_id AND t.user_id = e.user_id))::text AS tally_off,
      (SELECT count(*) FROM users u WHERE u.points <>
         (SELECT coalesce(sum(delta), 0) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'))::text AS ledger_off`,
  );
  printFigures(`raffle purchases on PostgreSQL (${userCount} users, ${concurrency} at once, pool ${poolSize})`, {
    seconds: seconds.toFixed(1),
    'purchase attempts': s.count,
    'purchases/s (attempts)': (s.count / seconds).toFixed(0),
    'tickets bought (purchases)': outcomes.ok,
    'refused: cap': outcomes.cap,
    'refused: balance': outcomes.short,
    'other errors': outcomes.other,
    'p50 ms': s.p50.toFixed(1),
    'p99 ms': s.p99.toFixed(1),
    overspends: books.overspent,
    'over cap': books.over_cap,
    'tallies != tickets rows': books.tally_off,
    'ledger sum != balance': books.ledger_off,
  });
  return (
    outcomes.other === 0 &&
    [books.overspent, books.over_cap, books.tally_off, books.ledger_off].every((n) => n === '0')
  );
}

async function bigDraw(database: Database, userIds: string[]): Promise<boolean> {
  const raffleId = await makeRaffle(database, 'Bench draw', 10);
  const perUser = Math.ceil(1_000_000 / userIds.length);
  await database.db.execute(sql`
    INSERT INTO raffle_entries (raffle_id, user_id, tickets)
    SELECT ${raffleId}, id, ${perUser} FROM users`);
  const { total } = await one<{ total: string }>(
    database,
    sql`SELECT sum(tickets)::text AS total FROM raffle_entries WHERE raffle_id = ${raffleId}`,
  );
  const start = performance.now();
  const winners = await database.db.transaction(async (txRaw) => {
    const tx = txRaw as Tx;
    const [locked] = await tx.select().from(raffles).where(eq(raffles.id, raffleId)).for('update');
    const closed = await closeRaffle(tx, locked!, new Date());
    return drawRaffle(tx, closed, new Date());
  });
  const ms = performance.now() - start;
  printFigures('raffle draw on PostgreSQL', {
    tickets: total,
    owners: userIds.length,
    winners: winners.length,
    'close + draw ms (snapshot, hash, 10 winners, prizes paid)': ms.toFixed(0),
    target: `< ${TARGET_DRAW_MS} ms`,
  });
  return winners.length === 10 && ms < TARGET_DRAW_MS;
}

const ok = await withFreshPgDatabase(async (url) => {
  const database = await openDatabase({ kind: 'postgres', url, poolSize });
  try {
    await migrate(database);
    await database.db.execute(sql`
      WITH made AS (
        INSERT INTO users (steam_id, username, points)
        SELECT 'bench' || g, 'bench_user_' || g, 50 FROM generate_series(1, ${userCount}) g
        RETURNING id
      )
      INSERT INTO ledger (user_id, currency, delta, balance_after, reason, memo)
      SELECT id, 'points', 50, 50, 'admin_grant', 'bench' FROM made`);
    const userIds = rowsOf<{ id: string }>(await database.db.execute(sql`SELECT id::text AS id FROM users`)).map(
      (r) => r.id,
    );
    const bought = await purchases(database, userIds);
    const drawn = await bigDraw(database, userIds);
    return bought && drawn;
  } finally {
    await database.close();
  }
});
process.exit(ok ? 0 : 1);

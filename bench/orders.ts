/**
 * `npm run bench -- orders [--purchases 20000] [--concurrency 32] [--users 1000]`
 *
 * Store purchases per second and latency through the real request path: the whole app (session
 * lookup, CSRF, access, rate limit, validation, the order transaction) driven with `app.inject`,
 * on a fresh in-memory PGlite and on a fresh PostgreSQL database (BENCH_DATABASE_URL, or
 * postgres://postgres@127.0.0.1:5432/postgres when one answers). 1,000 users with sessions and
 * points buy random products (some with limited stock, which sells out along the way) from a
 * fixed number of concurrent clients. Afterwards it checks the books: orders = successful
 * purchases, no stock below 0, and for every user the ledger sums to the balance.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { createSession } from '../apps/server/src/modules/auth/sessions';
import { creditMany } from '../apps/server/src/modules/ledger/service';
import { printFigures, summarise } from './lib/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const purchases = arg('purchases', 20_000);
const concurrency = arg('concurrency', 32);
const userCount = arg('users', 1000);
const poolSize = arg('pool', 10);
const TARGET_RPS = 2000;
const TARGET_P99 = 50;

async function postgresUrl(): Promise<string | null> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch {
    if (process.env.BENCH_DATABASE_URL) throw new Error(`BENCH_DATABASE_URL does not answer: ${url}`);
    return null;
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function run(label: string, database: Database): Promise<void> {
  await migrate(database);
  const config = loadConfig({ NODE_ENV: 'test', DEMO_DATA: '0', RATE_LIMIT_PER_MINUTE: '100000000' });
  const app = await buildApp({ config, database, webDist: null });
  await app.ready();
  try {
    const db = database.db;
    // Users, sessions and starting points (enough for every purchase they could make).
    const ids = (
      await database.query<{ id: string }>(
        `INSERT INTO users (steam_id, username)
         SELECT '7656119' || lpad((9000000000 + g)::text, 10, '0'), 'bench' || g FROM generate_series(1, $1) g
         RETURNING id`,
        [userCount],
      )
    ).map((r) => r.id);
    await db.transaction((tx) =>
      creditMany(
        tx,
        'points',
        'admin_grant',
        ids.map((userId) => ({ userId, amount: 1_000_000, reference: 'bench' })),
      ),
    );
    const cookies: string[] = [];
    for (const id of ids) cookies.push(`kb_session=${(await createSession(db, id, new Date(), 'bench')).token}`);
    const products = (
      await database.query<{ id: string }>(
        `INSERT INTO products (name, price, category, stock)
         SELECT 'Bench item ' || g, (g * 7 % 90 + 10)::numeric, 'Bench', CASE WHEN g % 4 = 0 THEN 200 ELSE NULL END
         FROM generate_series(1, 20) g RETURNING id`,
      )
    ).map((r) => Number(r.id));

    const order = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/Order/OrderProduct',
        headers: {
          'x-requested-with': 'kickback',
          'content-type': 'application/json',
          cookie: cookies[i % cookies.length]!,
        },
        payload: JSON.stringify({ productId: products[(i * 7919) % products.length] }),
      });

    // Warm up (JIT, pool connections, plans).
    for (let i = 0; i < 300; i += 30) await Promise.all(Array.from({ length: 30 }, (_, k) => order(i + k)));

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < purchases) {
          const i = next++;
          const t0 = performance.now();
          const res = await order(i * 31 + 17);
          latencies.push(performance.now() - t0);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode !== 200 && res.statusCode !== 409) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const s = summarise(latencies);

    // The books.
    const [books] = await database.query<{
      orders: string;
      items: string;
      negative_stock: string;
      mismatches: string;
    }>(`
      SELECT (SELECT count(*) FROM orders) AS orders,
             (SELECT count(*) FROM fulfilment_items WHERE kind = 'order') AS items,
             (SELECT count(*) FROM products WHERE stock < 0) AS negative_stock,
             (SELECT count(*) FROM users u WHERE u.points <> COALESCE(
                (SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'), 0)) AS mismatches`);
    const ok = (statuses.get(200) ?? 0) + 300; // the warm-up orders succeed too
    const booksOk =
      Number(books?.orders) === ok &&
      Number(books?.items) === ok &&
      Number(books?.negative_stock) === 0 &&
      Number(books?.mismatches) === 0;

    printFigures(`${label}: ${purchases} purchases, ${userCount} users, ${concurrency} concurrent`, {
      'purchases/s': purchases / seconds,
      'p50 ms': s.p50,
      'p99 ms': s.p99,
      'max ms': s.max,
      'succeeded (200)': statuses.get(200) ?? 0,
      'sold out (409)': statuses.get(409) ?? 0,
      books: booksOk
        ? 'balanced (orders = successes, ledger sum = balance, no negative stock)'
        : `WRONG ${JSON.stringify(books)}`,
      ...(label.startsWith('PostgreSQL')
        ? {
            target: `${TARGET_RPS}/s, p99 < ${TARGET_P99} ms: ${
              purchases / seconds >= TARGET_RPS && s.p99 < TARGET_P99 ? 'met' : 'NOT met'
            }`,
          }
        : {}),
    });
    if (!booksOk) process.exitCode = 1;
  } finally {
    await app.close();
  }
}

const only = process.argv.includes('--pg-only') ? 'pg' : process.argv.includes('--pglite-only') ? 'pglite' : 'both';

if (only !== 'pg') {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await run('PGlite (in memory)', database);
  } finally {
    await database.close();
  }
}

if (only !== 'pglite') {
  const url = await postgresUrl();
  if (!url) {
    console.log('\nPostgreSQL: none answers (set BENCH_DATABASE_URL); skipped.');
  } else {
    const name = `kb_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: u.toString(), poolSize });
    try {
      await run(`PostgreSQL (pool ${poolSize})`, database);
    } finally {
      (database.raw as pg.Pool).on('error', () => undefined);
      await database.close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
}

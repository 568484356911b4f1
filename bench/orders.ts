/**
 * `npm run bench -- orders [--purchases 20000] [--concurrency 32] [--users 1000] [--pool 10]`
 * (`npm run build` first; `--pg-only` / `--pglite-only`)
 *
 * Store purchases per second and latency through the real HTTP path: the built server runs as its
 * own process (apps/server/dist/main.js) on a fresh in-memory PGlite, then on a fresh PostgreSQL
 * database (BENCH_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres when it answers).
 * 1,000 users sign in through the dev identity provider, an admin grants them points and creates
 * 20 products (a quarter with limited stock, which sells out along the way), then a fixed number
 * of keep-alive clients buy random products as random users (`POST /api/Order/OrderProduct`).
 * Afterwards it checks the books: every user's balance is what they started with minus what their
 * successful purchases cost, the queue holds one item per purchase, and on PostgreSQL also that
 * for every user the ledger sums to the balance and no stock is negative.
 *
 * The load generator is a measuring artefact, not the product: it shares this machine's cores with
 * the server and PostgreSQL, so it sends pre-built requests over fixed keep-alive sockets
 * (lib/keep-alive-client.ts, under 0.1 ms CPU per purchase) instead of `fetch` (~0.6 ms), which used to
 * take half a core from what it measured. It prints the CPU each side spent per purchase (client,
 * server process, the pool's PostgreSQL backends) next to the figures.
 */
import pg from 'pg';
import { KeepAliveClient as OrderClient } from './lib/keep-alive-client';
import { cpuSnapshot, cpuSpent, startServer, stopServer, withFreshPgDatabase } from './lib/server-process';
import { printFigures, summarise } from './lib/stats';
import { freePort, signIn } from './lib/site';

const ADMIN_STEAM_ID = '76561199999999001'; // the dev provider's demo admin
const START_POINTS = 1_000_000;
const TARGET_RPS = 2000;
const TARGET_P99 = 50;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const purchases = arg('purchases', 20_000);
const concurrency = arg('concurrency', 32);
const userCount = arg('users', 1000);
const poolSize = arg('pool', 10);
/** `--profile <dir>`: the server writes a V8 CPU profile there when it stops. */
const profileDir = (() => {
  const i = process.argv.indexOf('--profile');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

async function call<T>(
  base: string,
  path: string,
  cookie: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'x-requested-with': 'kickback',
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function inBatches<T>(items: T[], size: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map((item, k) => fn(item, i + k)));
  }
}

async function run(label: string, databaseUrl: string | null): Promise<boolean> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(
    port,
    databaseUrl,
    { DATABASE_POOL_SIZE: String(poolSize) },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  try {
    const admin = await signIn(base, ADMIN_STEAM_ID, 'StreamerAdmin', { demo: true });
    const users: Array<{ cookie: string; id: string; spent: number }> = [];
    const indexes = Array.from({ length: userCount }, (_, i) => i);
    await inBatches(indexes, 25, async (i) => {
      const steamId = `7656119${String(8_500_000_000 + i).padStart(10, '0')}`;
      const cookie = await signIn(base, steamId, `bench${i}`);
      const { json } = await call<{ openId: string }>(base, '/api/User/ping', cookie);
      users[i] = { cookie, id: json.openId, spent: 0 };
    });
    await inBatches(users, 25, async (u) => {
      const res = await call(base, `/api/admin/users/${u.id}/balance`, admin, {
        currency: 'points',
        amount: START_POINTS,
        reason: 'bench',
      });
      if (res.status !== 200) throw new Error(`grant: HTTP ${res.status}`);
    });
    const products: Array<{ id: number; price: number }> = [];
    for (let g = 1; g <= 20; g++) {
      const { json } = await call<{ id: number; price: number }>(base, '/api/admin/products', admin, {
        name: `Bench item ${g}`,
        price: ((g * 7) % 90) + 10,
        category: 'Bench',
        stock: g % 4 === 0 ? 200 : null,
      });
      products.push(json);
    }

    let warm = 0;
    let ok = 0;
    // The purchase requests, built once: the client must cost as little CPU as it can, because it
    // shares the machine's cores with the server and PostgreSQL it measures.
    const buyer = new OrderClient(port, concurrency);
    const requestFor = new Map<string, Buffer>();
    const prebuilt = (user: (typeof users)[number], product: (typeof products)[number]) => {
      const key = `${user.id}/${product.id}`;
      let req = requestFor.get(key);
      if (!req) {
        const body = JSON.stringify({ productId: product.id });
        req = Buffer.from(
          `POST /api/Order/OrderProduct HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Requested-With: kickback\r\n` +
            `Content-Type: application/json\r\nCookie: ${user.cookie}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        requestFor.set(key, req);
      }
      return req;
    };
    const order = async (i: number, record: boolean) => {
      const user = users[(i * 31 + 17) % users.length]!;
      const product = products[(i * 7919) % products.length]!;
      const req = prebuilt(user, product);
      const t0 = performance.now();
      const status = await buyer.send(req);
      const ms = performance.now() - t0;
      if (status === 200) {
        user.spent += product.price;
        if (record) ok += 1;
        else warm += 1;
      } else if (status !== 409) {
        throw new Error(`order: HTTP ${status}`);
      }
      return ms;
    };
    await inBatches(
      Array.from({ length: 300 }, (_, i) => i),
      30,
      async (i) => void (await order(purchases + i, false)),
    );
    for (let i = 0; i < purchases; i++) {
      prebuilt(users[(i * 31 + 17) % users.length]!, products[(i * 7919) % products.length]!);
    }

    const cpuBefore = await cpuSnapshot(server.pid!, databaseUrl);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < purchases) {
          const i = next++;
          latencies.push(await order(i, true));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = await cpuSnapshot(server.pid!, databaseUrl);
    // Backends that ended during the run took their CPU with them; cpuSpent counts the ones still there.
    const postgresCpu = cpuSpent(cpuBefore, cpuAfter).postgres;
    buyer.close();
    const s = summarise(latencies);
    const perPurchase = (a: number, b: number) => ((b - a) / purchases).toFixed(3);

    // The books, seen from outside: balances and the fulfilment queue.
    let wrongBalances = 0;
    await inBatches(users, 25, async (u) => {
      const { json } = await call<{ points: number }>(base, '/api/User/ping', u.cookie);
      if (Math.round(json.points * 100) !== Math.round((START_POINTS - u.spent) * 100)) wrongBalances += 1;
    });
    const queue = await call<{ total: number }>(base, '/api/admin/fulfilment?kind=order', admin);
    let books = wrongBalances === 0 && queue.json.total === ok + warm;
    let detail = `balances off: ${wrongBalances}, queue ${queue.json.total} for ${ok + warm} purchases`;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ mismatches: string; negative: string }>(`
        SELECT (SELECT count(*) FROM users u WHERE u.points <> COALESCE(
                  (SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'), 0)) AS mismatches,
               (SELECT count(*) FROM products WHERE stock < 0) AS negative`);
      await client.end();
      books &&= Number(rows[0]?.mismatches) === 0 && Number(rows[0]?.negative) === 0;
      detail += `, ledger ≠ balance: ${rows[0]?.mismatches}, negative stock: ${rows[0]?.negative}`;
    }

    printFigures(`${label}: ${purchases} purchases over HTTP, ${userCount} users, ${concurrency} concurrent`, {
      'purchases/s': purchases / seconds,
      'p50 ms': s.p50,
      'p99 ms': s.p99,
      'max ms': s.max,
      'CPU ms per purchase': `client ${perPurchase(cpuBefore.client, cpuAfter.client)}, server ${perPurchase(
        cpuBefore.server,
        cpuAfter.server,
      )}${databaseUrl ? `, postgres ${perPurchase(0, postgresCpu)}` : ''}`,
      'succeeded (200)': ok,
      'sold out (409)': purchases - ok,
      books: books ? `balanced (${detail})` : `WRONG (${detail})`,
      ...(databaseUrl
        ? {
            target: `${TARGET_RPS}/s and p99 < ${TARGET_P99} ms: ${
              purchases / seconds >= TARGET_RPS && s.p99 < TARGET_P99 ? 'met' : 'NOT met'
            }`,
          }
        : {}),
    });
    return books;
  } finally {
    await stopServer(server);
  }
}

const only = process.argv.includes('--pg-only') ? 'pg' : process.argv.includes('--pglite-only') ? 'pglite' : 'both';
let allBalanced = true;

if (only !== 'pg') allBalanced &&= await run('PGlite (in memory)', null);

if (only !== 'pglite') {
  allBalanced &&= await withFreshPgDatabase((url) => run(`PostgreSQL (fresh database, pool ${poolSize})`, url));
}
if (!allBalanced) process.exitCode = 1;

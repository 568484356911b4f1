/**
 * An upgrade as docs/operations.md#upgrades does it, on PostgreSQL and Redis: the previous
 * release's server (./previous-release.ts: from git) makes its schema on a fresh database and is
 * lived in through its HTTP API (users signed in, balances, a product and orders, a drawn raffle).
 * While it still serves, a process of this build starts on the same database and applies the new
 * migrations; both serve side by side (the old one still reads and sells on the migrated database,
 * the new one sees everything unchanged and the draw still verifies); then the old one stops and
 * the new one goes on.
 *
 * Needs PostgreSQL, Redis (./multi-process.ts) and git history (a clone, not a tarball): in CI a
 * missing previous release is an error, elsewhere the block is skipped with the reason.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { nextSteamId } from './app';
import { devSignIn } from './dev-sign-in';
import { independentDraw, independentSnapshotHash, sha256Hex } from './independent-draw';
import { admin, baseUrl, freshDatabaseName, missing, redisUrl } from './multi-process';
import { dependencyDifferences, previousRelease, previousReleaseServer } from './previous-release';
import { bundledServer, ServerProcesses, withDatabase, type ServerCommand } from './processes';

const release = previousRelease();
const noRelease = 'missing' in release ? release.missing : null;
if (noRelease) {
  if (process.env.CI) throw new Error(`upgrade test: no previous release: ${noRelease}`);
  console.log(`upgrade test SKIPPED: ${noRelease}`);
}

interface Person {
  name: string;
  id: string;
  cookie: string;
}
interface DrawRecord {
  seedHash: string;
  serverSeed: string;
  snapshotHash: string;
  snapshot: Array<{ kickUserId: string; username: string; weight: number }>;
  winnersWanted: number;
  winners: string[];
}

/** Each process's base URL → what it is, for a failure's message. */
const names = new Map<string, string>();

async function call(base: string, path: string, as: Person | null, body?: unknown, method?: string) {
  const res = await fetch(`${base}${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      'x-requested-with': 'kickback',
      ...(as ? { cookie: as.cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** An answer that must be 200 (its body otherwise, in the failure). */
async function ok<T = Record<string, unknown>>(
  base: string,
  path: string,
  as: Person | null,
  body?: unknown,
  method?: string,
): Promise<T> {
  const res = await call(base, path, as, body, method);
  if (res.status !== 200) {
    const verb = method ?? (body === undefined ? 'GET' : 'POST');
    throw new Error(`${names.get(base) ?? base}: ${verb} ${path}: ${res.status} ${res.text}`);
  }
  return res.json as T;
}

describe.skipIf(missing !== null || noRelease !== null)('upgrade from the previous release', () => {
  it('old and new processes serve side by side on the migrated database, then the new one alone', async () => {
    if ('missing' in release) return;
    const dbName = freshDatabaseName('upg');
    const prefix = `kbtest:${dbName}:`;
    const hostSteamId = nextSteamId();
    const env = {
      NODE_ENV: 'development',
      SESSION_SECRET: randomBytes(24).toString('hex'),
      DEMO_DATA: '0',
      LOG_LEVEL: 'info', // the "migration applied" lines
      TIMER_SWEEP_MS: '1000',
      LEADERBOARD_POLLER: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ADMIN_STEAM_IDS: hostSteamId,
    };
    const on = (command: ServerCommand) =>
      new ServerProcesses({ command, databaseUrl: withDatabase(baseUrl, dbName), redisUrl, redisPrefix: prefix, env });
    const named = `the previous release ${release.commit.slice(0, 10)} (${release.how})`;
    // Both bundled (about a second each; the old one once per commit).
    const oldCommand = previousReleaseServer(release.commit, ['--enable-source-maps']);
    const newCommand = bundledServer('kickback-upgrade', ['--enable-source-maps']);
    const oldServers = on(oldCommand);
    const newServers = on(newCommand);
    await admin(`CREATE DATABASE ${dbName}`);
    try {
      try {
        await oldServers.start();
      } catch (err) {
        throw new Error(
          [`${named} did not start:`, (err as Error).message, dependencyDifferences(release.commit)].join('\n'),
        );
      }
      const old = oldServers.urls[0]!;
      names.set(old, named);

      // Lived in, through the old release's API.
      const person = async (name: string, steamId = nextSteamId()): Promise<Person> => {
        const cookie = await devSignIn(old, steamId, name);
        const me = await ok<{ openId: string }>(old, '/api/User/ping', { name, id: '', cookie });
        return { name, id: me.openId, cookie };
      };
      const host = await person('UpgradeHost', hostSteamId);
      const alice = await person('Alice');
      const bob = await person('Bob');
      for (const [p, amount] of [
        [alice, 1000],
        [bob, 500],
      ] as const) {
        await ok(old, `/api/admin/users/${p.id}/balance`, host, { currency: 'points', amount, reason: 'upgrade test' });
      }
      const product = await ok<{ id: number }>(old, '/api/admin/products', host, {
        name: 'Upgrade mug',
        price: 30,
        category: 'Upgrade',
        stock: null,
      });
      const buy = (base: string, p: Person) => ok(base, '/api/Order/OrderProduct', p, { productId: product.id });
      await buy(old, alice);
      await buy(old, alice);
      await buy(old, bob);
      const now = Date.now();
      const created = await ok<{ raffle: { id: string } }>(old, '/api/admin/raffles', host, {
        title: 'Upgrade raffle',
        description: 'Drawn before the upgrade',
        prizes: [{ kind: 'item', item: 'AK-47 | Redline' }],
        ticketPrice: 10,
        maxTicketsPerUser: 5,
        opensAt: new Date(now - 1000).toISOString(),
        closesAt: new Date(now + 60 * 60_000).toISOString(),
      });
      const raffle = created.raffle.id;
      await ok(old, `/api/admin/raffles/${raffle}/open`, host, {});
      await ok(old, `/api/raffles/${raffle}/tickets`, alice, { quantity: 3 });
      await ok(old, `/api/raffles/${raffle}/tickets`, bob, { quantity: 1 });
      await ok(old, `/api/admin/raffles/${raffle}/draw`, host, {}); // closes and draws

      const seen = async (base: string) => ({
        points: Object.fromEntries(
          await Promise.all(
            [alice, bob].map(async (p) => [p.name, (await ok<{ points: number }>(base, '/api/User/ping', p)).points]),
          ),
        ),
        orders: Object.fromEntries(
          await Promise.all(
            [alice, bob].map(async (p) => [
              p.name,
              (
                await ok<{ items: Array<{ id: number; productName: string; price: number; status: string }> }>(
                  base,
                  '/api/me/orders',
                  p,
                )
              ).items.map((o) => ({ id: o.id, productName: o.productName, price: o.price, status: o.status })),
            ]),
          ),
        ),
        draw: await ok<DrawRecord>(base, `/api/raffles/${raffle}/draw`, null),
      });
      const before = await seen(old);
      expect(before.points).toEqual({ Alice: 1000 - 60 - 30, Bob: 500 - 30 - 10 });
      expect(before.orders.Alice).toHaveLength(2);
      expect(before.orders.Bob).toHaveLength(1);

      // The new build starts beside it and migrates the database the old one is serving on.
      try {
        await newServers.start();
      } catch (err) {
        throw new Error(`this build did not start on the database of ${named}:\n${(err as Error).message}`);
      }
      const neu = newServers.urls[0]!;
      names.set(neu, 'this build');
      // A migration that drops or renames what the old release reads fails its requests from here on.
      names.set(
        old,
        `${named}, beside this build on the database it migrated (migrations only add: docs/operations.md#upgrades)`,
      );
      // Logged before it listens, but its output may come through the pipe after /healthz answered.
      const applied = () =>
        newServers
          .output()
          .split('\n')
          .flatMap((line) => /"msg":"migration applied: ([^"]+)"/.exec(line)?.[1] ?? []);
      for (let waited = 0; applied().length < release.newMigrations.length && waited < 20_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(applied(), `the migrations this build has and ${named} lacks`).toEqual(release.newMigrations);

      // Side by side: the new one sees the old one's data unchanged, and the draw still verifies.
      expect(await seen(neu)).toEqual(before);
      const { draw } = before;
      expect(sha256Hex(draw.serverSeed)).toBe(draw.seedHash);
      expect(independentSnapshotHash(draw.snapshot)).toBe(draw.snapshotHash);
      expect(independentDraw(draw.serverSeed, draw.snapshot, draw.winnersWanted)).toEqual(draw.winners);
      // The old one still reads and sells on the migrated database; each sees the other's sale.
      await buy(old, bob);
      await buy(neu, alice);
      const both = await seen(old);
      expect(both.points).toEqual({ Alice: before.points.Alice - 30, Bob: before.points.Bob - 30 });
      expect(both.orders.Alice).toHaveLength(3);
      expect(both.orders.Bob).toHaveLength(2);
      expect(await seen(neu)).toEqual(both);

      // The old process stops (drained, as a restart into the new release does); the new one goes on.
      expect(await oldServers.stop(0)).toEqual({ code: 0, signal: null });
      await buy(neu, bob);
      const after = await seen(neu);
      expect(after.points).toEqual({ Alice: both.points.Alice, Bob: both.points.Bob - 30 });
      expect(after.orders.Bob).toHaveLength(3);
      expect(after.draw).toEqual(draw);
    } finally {
      await oldServers.stopAll('SIGKILL');
      await newServers.stopAll();
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

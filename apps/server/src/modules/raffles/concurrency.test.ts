/**
 * Raffles under concurrency: many purchases at once (one user against the cap, many users against
 * their balances), two app instances on one database drawing and cancelling the same raffle, and
 * a restart across the closing deadline. The races are real on PostgreSQL (TEST_DATABASE_URL);
 * on PGlite, which runs one transaction at a time, the tests check that each purchase and each
 * draw holds its row lock (the row's xmax is its own transaction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { RollRecord } from '@kickback/common/http/giveaway';
import type { RaffleDetail } from '@kickback/common/http/raffles';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { ledger } from '../../db/schema/ledger';
import { raffleWinners } from '../../db/schema/raffles';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { WallClock } from '../../../test/hub-client';
import { buy, makeRaffle } from '../../../test/raffles';
import { WARM_UP_TIMEOUT, warmUp } from '../../../test/warm';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestApp;
let b: TestApp;
let admin: TestUser;
const clock = new WallClock();

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  database = await openTestDatabase();
  a = await buildTestApp({ database, clock });
  b = await buildTestApp({ database, clock });
  admin = await a.signIn({ role: 'Admin' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
});

async function fan(points: string): Promise<TestUser> {
  const u = await a.signIn();
  await givePoints(a, u.user.id, points);
  return u;
}

/** Whether the row the statement names is locked by the calling transaction. */
async function lockedHere(tx: Tx, where: ReturnType<typeof sql>): Promise<boolean> {
  const [row] = rowsOf<{ locked: boolean }>(
    await tx.execute(sql`SELECT xmax::text::bigint = txid_current() % 4294967296 AS locked FROM ${where}`),
  );
  return row?.locked === true;
}

const detail = async (id: string) => (await a.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail;

describe('buying at once', () => {
  it('one user sending 20 purchases against a cap of 5: exactly 5 tickets, paid once each', async () => {
    const id = await makeRaffle(a, admin, { maxTicketsPerUser: 5, ticketPrice: 10 });
    const u = await fan('1000');
    await buy(a, u, id, 1); // the tally row exists: every racer below locks an existing row
    const unlocked: number[] = [];
    const hook = async (tx: Tx) => {
      if (!(await lockedHere(tx, sql`raffle_entries WHERE raffle_id = ${id} AND user_id = ${u.user.id}`))) {
        unlocked.push(1);
      }
    };
    a.app.raffles.hooks.afterTallyLock = hook;
    b.app.raffles.hooks.afterTallyLock = hook;
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => buy(i % 2 ? a : b, u, id, 1)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(4);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(16);
    } finally {
      a.app.raffles.hooks.afterTallyLock = undefined;
      b.app.raffles.hooks.afterTallyLock = undefined;
    }
    expect(unlocked).toEqual([]);
    expect((await a.reload(u.user.id)).points).toBe('950.00');
    expect((await detail(id)).ticketsSold).toBe(5);
    expect(await ledgerMismatches(a)).toEqual([]);
  });

  it('many users buying more than they can afford at once: no overspend, no over-cap', async () => {
    const id = await makeRaffle(a, admin, { maxTicketsPerUser: 4, ticketPrice: 10 });
    const fans = await Promise.all(Array.from({ length: 8 }, () => fan('30')));
    const results = await Promise.all(
      fans.flatMap((u, i) => Array.from({ length: 6 }, (_, j) => buy((i + j) % 2 ? a : b, u, id, 1))),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(24);
    // Every other one refused by the ledger's conditional debit (409), not by the column's CHECK (500).
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused.map((r) => [r.statusCode, r.json().message])).toEqual(
      Array.from({ length: 24 }, () => [409, 'You do not have enough points for these tickets.']),
    );
    for (const u of fans) expect((await a.reload(u.user.id)).points).toBe('0.00');
    expect((await detail(id)).ticketsSold).toBe(24);
    expect(await ledgerMismatches(a)).toEqual([]);
  });
});

describe('two app instances on one database', () => {
  it('Draw pressed on both at once draws once and pays once', async () => {
    const id = await makeRaffle(a, admin, { prizes: [{ kind: 'points', points: 100 }] });
    const u = await fan('100');
    await buy(a, u, id, 2);
    const unlocked: number[] = [];
    const hook = async (tx: Tx) => {
      if (!(await lockedHere(tx, sql`raffles WHERE id = ${id}`))) unlocked.push(1);
    };
    a.app.raffles.hooks.afterDrawLock = hook;
    b.app.raffles.hooks.afterDrawLock = hook;
    try {
      const [x, y] = await Promise.all(
        [a, b].map((app) => app.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })),
      );
      expect([x!.statusCode, y!.statusCode].sort()).toEqual([200, 409]);
    } finally {
      a.app.raffles.hooks.afterDrawLock = undefined;
      b.app.raffles.hooks.afterDrawLock = undefined;
    }
    expect(unlocked).toEqual([]);
    const prizes = await a.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'raffle_prize')));
    expect(prizes).toHaveLength(1);
    expect(await a.database.db.select().from(raffleWinners).where(eq(raffleWinners.raffleId, id))).toHaveLength(1);
  });

  it('a draw waits for the purchase in flight: its tickets are in the snapshot', async () => {
    const id = await makeRaffle(a, admin, { prizes: [{ kind: 'points', points: 1 }] });
    const u = await fan('100');
    // The tally row exists already: the purchase in flight inserts nothing referencing the raffle,
    // so only the gate (not a foreign-key lock on the raffle row) can hold the draw back.
    await buy(a, u, id, 1);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = () => {};
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    a.app.raffles.hooks.afterTallyLock = async () => {
      arrived();
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 2000))]);
    };
    const purchase = buy(a, u, id, 2);
    await inFlight;
    a.app.raffles.hooks.afterTallyLock = undefined;
    const draw = b.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    expect((await purchase).statusCode).toBe(200);
    expect((await draw).statusCode).toBe(200);
    const record = (await a.call({ url: `/api/raffles/${id}/draw` })).json() as RollRecord;
    expect(record.snapshot).toEqual([expect.objectContaining({ kickUserId: u.user.id, weight: 3 })]);
  });

  it('Cancel pressed on both at once refunds once', async () => {
    const id = await makeRaffle(a, admin, { ticketPrice: 7 });
    const u = await fan('100');
    await buy(a, u, id, 3);
    const results = await Promise.all(
      [a, b].map((app) => app.call({ method: 'POST', url: `/api/admin/raffles/${id}/cancel`, as: admin })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await a.reload(u.user.id)).points).toBe('100.00');
    expect(await ledgerMismatches(a)).toEqual([]);
  });

  it('the closing deadline, armed on both, draws once', async () => {
    const u = await fan('100');
    const closesAt = clock.now().getTime() + 4000; // room for the purchase on a loaded machine
    // Watching from before the raffle exists, so a draw during a slow setup is seen too.
    let id = '';
    const locked: boolean[] = [];
    const hook = async (tx: Tx) => {
      locked.push(await lockedHere(tx, sql`raffles WHERE id = ${id}`));
    };
    a.app.raffles.hooks.afterDrawLock = hook;
    b.app.raffles.hooks.afterDrawLock = hook;
    try {
      id = await makeRaffle(a, admin, { closesAt: new Date(closesAt).toISOString() });
      await buy(b, u, id, 1);
      b.app.timers.arm(closesAt); // b heard of the deadline too (its sweep would find it)
      for (let i = 0; i < 100 && (await detail(id)).status !== 'drawn'; i++)
        await new Promise((r) => setTimeout(r, 100));
      await Promise.all([a.app.timers.runDue(), b.app.timers.runDue()]);
    } finally {
      a.app.raffles.hooks.afterDrawLock = undefined;
      b.app.raffles.hooks.afterDrawLock = undefined;
    }
    expect(locked).toEqual([true]); // drawn once, under the raffle row's lock
    expect((await detail(id)).winners).toHaveLength(1);
    const prizes = await a.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'raffle_prize')));
    expect(prizes).toHaveLength(1);
  });
});

describe('restart', () => {
  for (const when of ['before the closing deadline', 'across the closing deadline'] as const) {
    it(`a restart ${when}: the new process draws once`, async () => {
      const own = await openTestDatabase();
      // Its own wall clock: the deadline is far enough that the first process never reaches it,
      // however slow the setup runs, and the clock is moved to just before or past it while no
      // process runs (the closed first process no longer reads it).
      const restartClock = new WallClock();
      try {
        const first = await buildTestApp({ database: own, clock: restartClock });
        const boss = await first.signIn({ role: 'Admin' });
        const closesAt = restartClock.now().getTime() + 600_000;
        const id = await makeRaffle(first, boss, { closesAt: new Date(closesAt).toISOString() });
        const u = await first.signIn();
        await givePoints(first, u.user.id, '100');
        await buy(first, u, id, 2);
        expect(((await first.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail).status).toBe('open');
        await first.app.close();
        // Across: the deadline passed while no process ran; before: the new process is up first.
        restartClock.set(new Date(when === 'across the closing deadline' ? closesAt + 1000 : closesAt - 4000));

        const second = await buildTestApp({ database: own, clock: restartClock });
        const state = async () => ((await second.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail).status;
        if (when === 'before the closing deadline') {
          const status = await state();
          // Answered before the deadline: still open, so the draw below is the new process's own.
          if (restartClock.now().getTime() < closesAt) expect(status).toBe('open');
        }
        for (let i = 0; i < 100 && (await state()) !== 'drawn'; i++) await new Promise((r) => setTimeout(r, 100));
        expect(await state()).toBe('drawn');
        await second.app.close();

        const third = await buildTestApp({ database: own, clock: restartClock });
        await third.app.timers.runDue();
        const prizes = await own.db
          .select()
          .from(ledger)
          .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'raffle_prize')));
        expect(prizes).toHaveLength(1);
        await third.app.close();
      } finally {
        await own.drop();
      }
    });
  }
});

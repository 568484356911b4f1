/**
 * Durable timers: a due deadline fires exactly once however many processes look for it, deadlines
 * missed while no process ran fire at the next start, a failing handler is retried later without
 * holding up the others, and nothing runs after a rollback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Tx } from '../db/client';
import { ManualClock } from '../lib/clock';
import { transactionThen } from '../lib/after-commit';
import { rowsOf } from '../db/rows';
import { GameTimers } from './timers';
import { openTestDatabase } from '../../test/database';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const opened: Array<{ drop(): Promise<void> }> = [];
const started: GameTimers[] = [];
afterEach(async () => {
  for (const t of started.splice(0)) await t.stop();
  for (const d of opened.splice(0)) await d.drop();
});

async function setup() {
  const database = await openTestDatabase();
  opened.push(database);
  const clock = new ManualClock('2026-01-05T12:00:00Z');
  const fired: Array<{ process: string; subject: string; version: number }> = [];
  const makeProcess = (name: string) => {
    const timers = new GameTimers(database.db, clock, log, 60_000);
    started.push(timers);
    timers.register('test', {
      async fire(tx: Tx, subjectId, version) {
        // Work that takes a while, so other processes try the same row meanwhile.
        await tx.execute(sql`SELECT pg_sleep(0.02)`);
        fired.push({ process: name, subject: subjectId, version });
        return 'done';
      },
    });
    return timers;
  };
  const schedule = (timers: GameTimers, subjectId: string, dueAt: Date, version = 1) =>
    transactionThen(database.db, (tx, after) =>
      timers.schedule(tx, after, { kind: 'test', subjectId, version, dueAt }),
    );
  const pending = async () =>
    rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM game_timers`))[0]!.n;
  return { database, clock, fired, makeProcess, schedule, pending };
}

describe('GameTimers', () => {
  it('fires each due deadline exactly once when several processes run at the same moment', async () => {
    const { clock, fired, makeProcess, schedule, pending } = await setup();
    const processes = ['a', 'b', 'c'].map(makeProcess);
    for (let i = 0; i < 12; i++) await schedule(processes[i % 3]!, `game-${i}`, new Date(clock.now().getTime() + 1000));
    expect(await Promise.all(processes.map((p) => p.runDue()))).toEqual([0, 0, 0]); // not due yet
    clock.advance(1000);
    const counts = await Promise.all(processes.flatMap((p) => [p.runDue(), p.runDue()]));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12);
    expect(fired.map((f) => f.subject).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `game-${i}`).sort());
    expect(await pending()).toBe(0);
  });

  it('fires at start the deadlines that fell due while no process ran', async () => {
    const { clock, fired, makeProcess, schedule } = await setup();
    const first = makeProcess('first');
    await schedule(first, 'missed', new Date(clock.now().getTime() + 500));
    await first.stop(); // the process dies before the deadline
    clock.advance(60_000);
    const next = makeProcess('next');
    next.start(); // the start-up sweep arms the timer for the overdue deadline
    await expect.poll(() => fired.map((f) => f.subject), { timeout: 20_000 }).toEqual(['missed']);
  });

  it('retries a failing handler later and still fires the others', async () => {
    const { database, clock, schedule, pending } = await setup();
    const timers = new GameTimers(database.db, clock, log, 60_000);
    started.push(timers);
    const done: string[] = [];
    let failures = 0;
    timers.register('test', {
      async fire(_tx, subjectId) {
        if (subjectId === 'bad' && failures++ === 0) throw new Error('boom');
        done.push(subjectId);
        return 'done';
      },
    });
    await schedule(timers, 'bad', clock.now());
    await schedule(timers, 'good', clock.now());
    await timers.runDue();
    expect(done).toEqual(['good']);
    expect(await pending()).toBe(1);
    clock.advance(5_000);
    await timers.runDue();
    expect(done).toEqual(['good', 'bad']);
    expect(await pending()).toBe(0);
  });

  it('moves a deadline the game says is not due yet', async () => {
    const { database, clock, schedule } = await setup();
    const timers = new GameTimers(database.db, clock, log, 60_000);
    started.push(timers);
    let calls = 0;
    timers.register('test', {
      async fire() {
        calls += 1;
        return calls === 1 ? { notBefore: new Date(clock.now().getTime() + 2000) } : 'done';
      },
    });
    await schedule(timers, 'early', clock.now());
    await timers.runDue();
    expect(calls).toBe(1);
    clock.advance(1000);
    await timers.runDue();
    expect(calls).toBe(1);
    clock.advance(1000);
    await timers.runDue();
    expect(calls).toBe(2);
  });

  it('stores nothing and arms nothing when the scheduling transaction rolls back', async () => {
    const { database, clock, makeProcess, pending } = await setup();
    const timers = makeProcess('p');
    await expect(
      transactionThen(database.db, async (tx, after) => {
        await timers.schedule(tx, after, { kind: 'test', subjectId: 'x', version: 1, dueAt: clock.now() });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await pending()).toBe(0);
    expect((timers as unknown as { armedFor: number | null }).armedFor).toBeNull();
  });
});

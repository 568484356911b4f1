/**
 * Durable game timers (docs/architecture.md#the-game-engine): every phase deadline of every live game is a row in
 * `game_timers`, written in the same transaction as the state that set it. Any process may fire a
 * due deadline: it claims the row with `FOR UPDATE SKIP LOCKED` (so exactly one process does),
 * runs the game's handler in that transaction (which locks the game row and checks the version),
 * deletes the row and commits; the handler's broadcasts run after the commit.
 *
 * Punctuality comes from an in-process timer armed for the earliest deadline this process knows
 * of (one it scheduled itself, or one it saw while sweeping). The sweep, at start and every
 * TIMER_SWEEP_MS, reads the earliest deadline of all: deadlines set by another process, or missed
 * while no process ran, are fired by whichever process gets there first.
 */
import type { FastifyBaseLogger } from 'fastify';
import { lte, min, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { gameTimers } from '../db/schema/games';
import type { Clock } from '../lib/clock';
import { AfterCommit } from '../lib/after-commit';

/** 'done' deletes the deadline; `{ notBefore }` moves it (the game says it is not due yet). */
export type FireResult = 'done' | { notBefore: Date };

export interface TimerHandler {
  /**
   * Fires one deadline inside `tx` (the timer row is already claimed). A deadline whose version
   * is stale must be a no-op returning 'done'. Returning `{ notBefore }` keeps the row for then.
   */
  fire(tx: Tx, subjectId: string, version: number, after: AfterCommit): Promise<FireResult>;
}

export interface Deadline {
  kind: string;
  subjectId: string;
  /** The state version the deadline belongs to. */
  version: number;
  dueAt: Date;
}

/** setTimeout cannot wait longer than this; the sweep re-arms anyway. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A handler that throws is retried after this long (and logged), never in a tight loop. */
const RETRY_AFTER_MS = 5_000;

export class GameTimers {
  private readonly handlers = new Map<string, TimerHandler>();
  private timer: NodeJS.Timeout | null = null;
  private armedFor: number | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;
  /** Told how late (ms after its deadline) each timer fired: the /metrics histogram. */
  observeLateness: ((lateMs: number) => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly sweepMs: number,
  ) {}

  register(kind: string, handler: TimerHandler): void {
    if (this.handlers.has(kind)) throw new Error(`timer kind ${kind} registered twice`);
    this.handlers.set(kind, handler);
  }

  /** Stores a deadline in the caller's transaction; this process arms its timer after commit. */
  async schedule(tx: Tx, after: AfterCommit, deadline: Deadline): Promise<void> {
    await tx.execute(sql`
      INSERT INTO game_timers (kind, subject_id, version, due_at)
      VALUES (${deadline.kind}, ${deadline.subjectId}, ${deadline.version}, ${deadline.dueAt.toISOString()}::timestamptz)
      ON CONFLICT (kind, subject_id, version) DO UPDATE SET due_at = EXCLUDED.due_at
    `);
    after.push(() => this.arm(deadline.dueAt.getTime()));
  }

  /** Starts the sweep: once now (deadlines missed while no process ran), then every sweepMs. */
  start(): void {
    this.stopped = false;
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), this.sweepMs);
    this.sweeper.unref();
  }

  /** Stops timers and waits for a firing in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.timer) clearTimeout(this.timer);
    this.sweeper = null;
    this.timer = null;
    this.armedFor = null;
    await this.running?.catch(() => undefined);
  }

  /** Reads the earliest deadline of all processes and arms for it. */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      const [earliest] = await this.db.select({ next: min(gameTimers.dueAt) }).from(gameTimers);
      if (earliest?.next) this.arm(new Date(earliest.next).getTime());
    } catch (err) {
      if (!this.stopped) this.log.error({ err }, 'timer sweep failed');
    }
  }

  /** Arms the in-process timer for `dueAt` unless an earlier one is armed already. */
  arm(dueAt: number): void {
    if (this.stopped) return;
    if (this.armedFor !== null && this.armedFor <= dueAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = dueAt;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, dueAt - this.clock.now().getTime()));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = null;
      void this.runDue().then(() => this.sweep());
    }, delay);
    this.timer.unref();
  }

  /**
   * Fires every deadline that is due now, one transaction each; returns how many fired. Calls
   * that overlap are folded into one pass plus one more.
   */
  runDue(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let fired = 0;
      do {
        this.again = false;
        for (;;) {
          if (this.stopped) break;
          const outcome = await this.fireOne();
          if (outcome === 'none') break;
          if (outcome === 'fired') fired += 1;
        }
      } while (this.again && !this.stopped);
      return fired;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async fireOne(): Promise<'fired' | 'kept' | 'none'> {
    const now = this.clock.now();
    const after = new AfterCommit();
    let claimed: { id: number; kind: string; subjectId: string } | null = null;
    try {
      const outcome = await this.db.transaction(async (txRaw) => {
        const tx = txRaw as Tx;
        const [row] = await tx
          .select({
            id: gameTimers.id,
            kind: gameTimers.kind,
            subjectId: gameTimers.subjectId,
            version: gameTimers.version,
            dueAt: gameTimers.dueAt,
          })
          .from(gameTimers)
          .where(lte(gameTimers.dueAt, now))
          .orderBy(gameTimers.dueAt, gameTimers.id)
          .limit(1)
          .for('update', { skipLocked: true });
        if (!row) return 'none' as const;
        claimed = { id: row.id, kind: row.kind, subjectId: row.subjectId };
        const handler = this.handlers.get(row.kind);
        if (!handler) {
          this.log.error({ kind: row.kind }, 'no handler for a game timer; dropping it');
        } else {
          const result = await handler.fire(tx, row.subjectId, row.version, after);
          if (result !== 'done') {
            const at = Math.max(result.notBefore.getTime(), now.getTime() + 1);
            await tx.execute(
              sql`UPDATE game_timers SET due_at = ${new Date(at).toISOString()}::timestamptz WHERE id = ${claimed.id}`,
            );
            after.push(() => this.arm(at));
            return 'kept' as const;
          }
        }
        await tx.execute(sql`DELETE FROM game_timers WHERE id = ${claimed.id}`);
        this.observeLateness?.(now.getTime() - row.dueAt.getTime());
        return 'fired' as const;
      });
      await after.run(this.log);
      return outcome;
    } catch (err) {
      if (this.stopped) return 'none';
      this.log.error({ err, timer: claimed }, 'game timer failed; retrying later');
      const failed = claimed as { id: number } | null;
      if (!failed) return 'none';
      const retryAt = new Date(now.getTime() + RETRY_AFTER_MS);
      try {
        await this.db.execute(
          sql`UPDATE game_timers SET due_at = ${retryAt.toISOString()}::timestamptz WHERE id = ${failed.id}`,
        );
        this.arm(retryAt.getTime());
        return 'kept';
      } catch {
        return 'none'; // the database is unreachable: the sweep tries again
      }
    }
  }
}

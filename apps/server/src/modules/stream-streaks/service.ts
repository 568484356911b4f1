/**
 * Stream streaks (docs/features/stream-streaks.md): the live sessions Kick's
 * `livestream.status.updated` opens and closes, and a linked viewer's attendance — recorded once
 * per (user, session) by the table's key whichever process sees the message — which extends their
 * streak when they also attended the session before, or starts a new one. A streak length the
 * admin set a bonus for pays it through the ledger (an `earning`: never to an excluded account),
 * once per (user, session, length) by the payouts' key.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { centsToNumber, centsToText, toCents } from '@kickback/common/money';
import type { StreakBonus, StreakView } from '@kickback/common/http/stream-streaks';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { applyBalanceChange } from '../ledger/service';
import { recordAudit, type Actor } from '../audit/service';

export interface Attended {
  sessionId: number;
  streak: number;
  bonus: number | null;
}

/** Opens the session that started at `startedAt` (once, whoever records it). */
export async function sessionStarted(tx: DbOrTx, startedAt: Date): Promise<void> {
  await tx.execute(sql`
    INSERT INTO stream_sessions (started_at) VALUES (${startedAt.toISOString()}::timestamptz)
    ON CONFLICT (started_at) DO NOTHING
  `);
}

/** Closes the sessions still open that started before `endedAt`. */
export async function sessionEnded(tx: DbOrTx, endedAt: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE stream_sessions SET ended_at = ${endedAt.toISOString()}::timestamptz
    WHERE ended_at IS NULL AND started_at <= ${endedAt.toISOString()}::timestamptz
  `);
}

interface RestorableRow {
  current: number;
  lost: number;
  alive: boolean;
  newest_ended: string | number | null;
}

/** The user's streak row locked (FOR UPDATE) until the transaction ends, with whether it is alive. */
async function lockedStreak(tx: DbOrTx, userId: string): Promise<RestorableRow | null> {
  const [row] = rowsOf<RestorableRow>(
    await tx.execute(sql`
      SELECT s.current, s.lost,
        NOT EXISTS (SELECT 1 FROM stream_sessions x
                    WHERE x.id > coalesce(s.last_session_id, 0) AND x.ended_at IS NOT NULL) AS alive,
        (SELECT max(x.id) FROM stream_sessions x WHERE x.ended_at IS NOT NULL) AS newest_ended
      FROM stream_streaks s WHERE s.user_id = ${userId}
      FOR UPDATE OF s
    `),
  );
  return row ?? null;
}

/** The streak a restore would give back: the one a missed stream ended, not restored yet (0: none). */
function restorable(row: RestorableRow | null): number {
  if (!row) return 0;
  return row.alive ? row.lost : row.current;
}

/**
 * The store's streak restore (docs/features/stream-streaks.md#restoring-a-broken-streak): locks the
 * buyer's streak row for the purchase's transaction and says how long a streak it would restore
 * (0: nothing to restore — the purchase is refused).
 */
export async function lockRestorableStreak(tx: DbOrTx, userId: string): Promise<number> {
  return restorable(await lockedStreak(tx, userId));
}

/**
 * Restores the buyer's broken streak, in the purchase's transaction after its order was written
 * (the row is locked already): a streak that started again continues from the lost one (lost +
 * current), a streak that a finished stream ended carries on at the next stream as if the missed
 * ones were attended. Either way `lost` goes to 0, so the same break is restored once. Returns the
 * streak now (0: nothing was restored). No bonus is paid for the lengths a restore skips.
 */
export async function restoreLostStreak(tx: DbOrTx, userId: string, now: Date): Promise<number> {
  const row = await lockedStreak(tx, userId);
  const lost = restorable(row);
  if (!row || lost === 0) return 0;
  if (row.alive) {
    const streak = row.current + lost;
    await tx.execute(sql`
      UPDATE stream_streaks SET current = ${streak}, best = greatest(best, ${streak}), lost = 0,
        updated_at = ${now.toISOString()}::timestamptz
      WHERE user_id = ${userId}
    `);
    return streak;
  }
  // Not alive: as if the user had attended the newest finished stream, so the next one continues it.
  await tx.execute(sql`
    UPDATE stream_streaks SET last_session_id = ${row.newest_ended === null ? null : Number(row.newest_ended)},
      lost = 0, updated_at = ${now.toISOString()}::timestamptz
    WHERE user_id = ${userId}
  `);
  return row.current;
}

export class StreakService {
  /** `user:session` pairs this process already recorded: the next messages skip the database. */
  private readonly seen = new Set<string>();

  constructor(private readonly app: FastifyInstance) {}

  /**
   * The session that was live at `at`: started by then and not ended before it. A message is
   * judged by when it was sent, not when it is processed, so a line sent during the stream and
   * processed after its end still counts (docs/features/stream-streaks.md#what-counts).
   */
  async sessionAt(at: Date, db: DbOrTx = this.app.db): Promise<number | null> {
    const [row] = rowsOf<{ id: string | number }>(
      await db.execute(sql`
        SELECT id FROM stream_sessions
        WHERE started_at <= ${at.toISOString()}::timestamptz
          AND (ended_at IS NULL OR ended_at >= ${at.toISOString()}::timestamptz)
        ORDER BY started_at DESC LIMIT 1
      `),
    );
    return row ? Number(row.id) : null;
  }

  /**
   * Records that `userId` chatted at `sentAt` during a live session; null when nothing was
   * recorded (no session then, or already recorded). The user's streak row is locked first, so two
   * of their sessions' attendances never compute from the same streak.
   */
  async attend(userId: string, sentAt: Date): Promise<Attended | null> {
    const sessionId = await this.sessionAt(sentAt);
    if (sessionId === null) return null;
    const key = `${userId}:${sessionId}`;
    if (this.seen.has(key)) return null;
    const now = this.app.clock.now();
    const result = await this.app.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO stream_streaks (user_id) VALUES (${userId}) ON CONFLICT (user_id) DO NOTHING`);
      const [streak] = rowsOf<{ current: number; best: number; last_session_id: string | number | null }>(
        await tx.execute(
          sql`SELECT current, best, last_session_id FROM stream_streaks WHERE user_id = ${userId} FOR UPDATE`,
        ),
      );
      if (!streak) return null;
      const [previous] = rowsOf<{ id: string | number }>(
        await tx.execute(sql`SELECT id FROM stream_sessions WHERE id < ${sessionId} ORDER BY id DESC LIMIT 1`),
      );
      const last = streak.last_session_id === null ? null : Number(streak.last_session_id);
      const continues = last !== null && previous !== undefined && last === Number(previous.id);
      const length = continues ? streak.current + 1 : 1;
      const inserted = rowsOf(
        await tx.execute(sql`
          INSERT INTO stream_attendance (user_id, session_id, streak, attended_at)
          VALUES (${userId}, ${sessionId}, ${length}, ${now.toISOString()}::timestamptz)
          ON CONFLICT (user_id, session_id) DO NOTHING
          RETURNING 1 AS recorded
        `),
      );
      if (inserted.length === 0) return null;
      // A streak a missed stream ended stays restorable until the next one ends.
      const lost = continues || last === null ? 0 : streak.current;
      await tx.execute(sql`
        UPDATE stream_streaks SET current = ${length}, best = greatest(best, ${length}), last_session_id = ${sessionId},
          lost = ${lost}, updated_at = ${now.toISOString()}::timestamptz
        WHERE user_id = ${userId}
      `);
      const bonus = await this.payBonus(tx, userId, sessionId, length, now);
      return { sessionId, streak: length, bonus };
    });
    this.seen.add(key);
    if (this.seen.size > 50_000) this.seen.clear();
    return result;
  }

  private async payBonus(
    tx: DbOrTx,
    userId: string,
    sessionId: number,
    length: number,
    now: Date,
  ): Promise<number | null> {
    const [bonus] = rowsOf<{ points: string }>(
      await tx.execute(sql`SELECT points::text FROM stream_streak_bonuses WHERE length = ${length}`),
    );
    if (!bonus) return null;
    const paid = rowsOf(
      await tx.execute(sql`
        INSERT INTO stream_streak_payouts (user_id, session_id, length, points, paid_at)
        VALUES (${userId}, ${sessionId}, ${length}, ${bonus.points}::numeric, ${now.toISOString()}::timestamptz)
        ON CONFLICT (user_id, session_id, length) DO NOTHING
        RETURNING 1 AS paid
      `),
    );
    if (paid.length === 0) return null;
    const credited = await applyBalanceChange(tx, {
      userId,
      currency: 'points',
      delta: { cents: toCents(bonus.points) },
      reason: 'stream_streak',
      reference: `streak:${userId}:${sessionId}:${length}`,
      memo: `${length} streams in a row`,
      earning: true,
    });
    return credited ? centsToNumber(toCents(bonus.points)) : null;
  }

  /** The viewer's streak as the profile shows it: 0 once a finished stream went by without them. */
  async mine(userId: string): Promise<StreakView> {
    const [row] = rowsOf<{ current: number; best: number; lost: number; alive: boolean }>(
      await this.app.db.execute(sql`
        SELECT s.current, s.best, s.lost,
          NOT EXISTS (SELECT 1 FROM stream_sessions x
                      WHERE x.id > coalesce(s.last_session_id, 0) AND x.ended_at IS NOT NULL) AS alive
        FROM stream_streaks s WHERE s.user_id = ${userId}
      `),
    );
    const current = row ? (row.alive ? row.current : 0) : 0;
    const lost = row ? (row.alive ? row.lost : row.current) : 0;
    const bonuses = await this.bonuses();
    const next = bonuses.find((b) => b.length > current) ?? null;
    return { current, best: row?.best ?? 0, lost, nextBonus: next };
  }

  async bonuses(): Promise<StreakBonus[]> {
    const rows = rowsOf<{ length: number; points: string }>(
      await this.app.db.execute(sql`SELECT length, points::text FROM stream_streak_bonuses ORDER BY length`),
    );
    return rows.map((r) => ({ length: r.length, points: centsToNumber(toCents(r.points)) }));
  }

  /** Replaces the bonus table, audited in the same transaction. */
  async saveBonuses(actor: Actor, bonuses: StreakBonus[]): Promise<{ bonuses: StreakBonus[] }> {
    const before = await this.bonuses();
    await this.app.db.transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM stream_streak_bonuses`);
      for (const b of bonuses) {
        await tx.execute(sql`
          INSERT INTO stream_streak_bonuses (length, points)
          VALUES (${b.length}, ${centsToText(toCents(b.points.toFixed(2)))}::numeric)
        `);
      }
      await recordAudit(tx, actor, {
        action: 'stream-streaks.bonuses',
        targetType: 'stream-streaks',
        targetId: 'bonuses',
        before,
        after: bonuses,
      });
    });
    return { bonuses: await this.bonuses() };
  }
}

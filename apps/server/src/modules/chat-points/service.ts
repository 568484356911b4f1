/**
 * Chat-activity points (docs/features/kick-chat.md#chat-points): a linked Kick user who chats earns
 * the configured points once per active minute. Messages only mark (user, minute) in memory; a
 * flush every few seconds (and when the buffer grows, and when the server closes) writes the whole
 * batch in one transaction: one multi-row insert claims the minutes (the primary key keeps the
 * per-minute cap across server processes and repeated flushes), one multi-row ledger credit pays
 * the claimed ones. Excluded accounts are skipped here and again in the ledger.
 */
import { sql } from 'drizzle-orm';
import { REAL_CHAT_WINDOW_MINUTES } from '@kickback/common/http/fair-earning';
import { centsToText, toCents } from '@kickback/common/money';
import type { Db, DbOrTx } from '../../db/client';
import { creditMany } from '../ledger/service';
import { grantWithinDailyCap, readFairSettings, utcDay, type Want } from '../fair-earning/service';
import { rowsOf } from '../../db/rows';

export interface ChatPointsOptions {
  pointsPerMinute: number;
  /** Flush at once when this many (user, minute) marks are waiting. */
  maxBuffered?: number;
  /** Claims older than this are pruned. */
  keepMinutes?: number;
}

const MINUTE_MS = 60_000;

export class ChatPoints {
  private buffer = new Map<string, { userId: string; minute: Date }>();
  private flushing: Promise<number> = Promise.resolve(0);
  private readonly maxBuffered: number;
  private readonly keepMinutes: number;

  constructor(
    private readonly db: Db,
    private readonly opts: ChatPointsOptions,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.maxBuffered = opts.maxBuffered ?? 1000;
    this.keepMinutes = opts.keepMinutes ?? 60;
  }

  get enabled(): boolean {
    return this.opts.pointsPerMinute > 0;
  }

  get pending(): number {
    return this.buffer.size;
  }

  /** Marks the user active in the minute of `at`. Cheap: no database work. */
  note(userId: string, at: Date): void {
    if (!this.enabled) return;
    const minute = new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
    this.buffer.set(`${userId}|${minute.getTime()}`, { userId, minute });
    if (this.buffer.size >= this.maxBuffered) void this.flush().catch(this.onError);
  }

  /** Writes what is buffered; resolves to the number of minutes credited. Flushes run one at a time. */
  flush(): Promise<number> {
    const next = this.flushing.then(
      () => this.write(),
      () => this.write(),
    );
    this.flushing = next.catch(() => 0);
    return next;
  }

  private async write(): Promise<number> {
    if (this.buffer.size === 0) return 0;
    const batch = [...this.buffer.values()];
    this.buffer = new Map();
    try {
      return await this.db.transaction(async (tx) => {
        const values = batch.map((b) => sql`(${b.userId}::uuid, ${b.minute.toISOString()}::timestamptz)`);
        const claimed = rowsOf<{ user_id: string; minute: string | Date }>(
          await tx.execute(sql`
            INSERT INTO chat_point_minutes (user_id, minute)
            SELECT v.user_id, v.minute FROM (VALUES ${sql.join(values, sql`, `)}) AS v (user_id, minute)
            JOIN users u ON u.id = v.user_id AND NOT u.excluded
            ON CONFLICT DO NOTHING
            RETURNING user_id, minute
          `),
        );
        const paid = await this.pay(tx, claimed, batch);
        const oldest = Math.min(...batch.map((b) => b.minute.getTime())) - this.keepMinutes * MINUTE_MS;
        await tx.execute(
          sql`DELETE FROM chat_point_minutes WHERE minute < ${new Date(oldest).toISOString()}::timestamptz`,
        );
        return paid;
      });
    } catch (err) {
      // Put the batch back so a passing database hiccup loses nothing.
      for (const b of batch) this.buffer.set(`${b.userId}|${b.minute.getTime()}`, b);
      throw err;
    }
  }

  /**
   * Pays the claimed minutes (docs/features/fair-earning.md): nothing while chat is not real (fewer
   * than K distinct linked chatters with a stored minute in the last 10, this batch included: the
   * count reads what every process flushed, so it is right across processes, late by at most one
   * flush), then each user's minutes within the day's cap, granted by one conditional update of the
   * user's day total. Resolves to the number of minutes paid.
   */
  private async pay(
    tx: DbOrTx,
    claimed: ReadonlyArray<{ user_id: string; minute: string | Date }>,
    batch: ReadonlyArray<{ minute: Date }>,
  ): Promise<number> {
    if (claimed.length === 0) return 0;
    const settings = await readFairSettings(tx);
    if (settings.realChatMinChatters > 0) {
      const latest = Math.max(...batch.map((b) => b.minute.getTime()));
      const since = new Date(latest - (REAL_CHAT_WINDOW_MINUTES - 1) * MINUTE_MS).toISOString();
      const [row] = rowsOf<{ n: number | string }>(
        await tx.execute(
          sql`SELECT count(DISTINCT user_id) AS n FROM chat_point_minutes WHERE minute >= ${since}::timestamptz`,
        ),
      );
      if (Number(row?.n ?? 0) < settings.realChatMinChatters) return 0;
    }
    const rateCents = toCents(this.opts.pointsPerMinute.toFixed(2));
    // Per user and UTC day: the minutes, and the latest (the credit's reference).
    const perDay = new Map<string, Want & { minutes: number; latest: number }>();
    for (const row of claimed) {
      const at = new Date(row.minute);
      const day = utcDay(at);
      const key = `${row.user_id}|${day}`;
      const seen = perDay.get(key);
      perDay.set(key, {
        userId: row.user_id,
        day,
        cents: (seen?.cents ?? 0n) + rateCents,
        minutes: (seen?.minutes ?? 0) + 1,
        latest: Math.max(seen?.latest ?? 0, at.getTime()),
      });
    }
    const cap = toCents(settings.chatPointsDailyCap);
    const granted =
      cap > 0n ? await grantWithinDailyCap(tx, 'chat_points', cap, [...perDay.values()], 'partial') : null;
    // One credit per user per flush (several minutes add up), referenced by the latest minute.
    const perUser = new Map<string, { cents: bigint; latest: number }>();
    let paid = 0;
    for (const [key, w] of perDay) {
      const cents = granted ? (granted.get(key) ?? 0n) : w.cents;
      if (cents <= 0n) continue;
      paid += w.minutes;
      const seen = perUser.get(w.userId);
      perUser.set(w.userId, { cents: (seen?.cents ?? 0n) + cents, latest: Math.max(seen?.latest ?? 0, w.latest) });
    }
    await creditMany(
      tx,
      'points',
      'chat_activity',
      [...perUser].map(([userId, { cents, latest }]) => ({
        userId,
        amount: centsToText(cents),
        reference: `chat:${new Date(latest).toISOString().slice(0, 16)}`,
      })),
    );
    return paid;
  }
}

/**
 * Chat-activity points (docs/features/kick-chat.md#chat-points): a linked Kick user who chats earns
 * the configured points once per active minute. Messages only mark (user, minute) in memory; a
 * flush every few seconds (and when the buffer grows, and when the server closes) writes the whole
 * batch in one transaction: one multi-row insert claims the minutes (the primary key keeps the
 * per-minute cap across server processes and repeated flushes), one multi-row ledger credit pays
 * the claimed ones. Excluded accounts are skipped here and again in the ledger.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditMany } from '../ledger/service';
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
    const rate = this.opts.pointsPerMinute;
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
        // One credit per user per flush (several minutes add up), referenced by the latest minute.
        const perUser = new Map<string, { minutes: number; latest: number }>();
        for (const row of claimed) {
          const t = new Date(row.minute).getTime();
          const seen = perUser.get(row.user_id);
          perUser.set(row.user_id, { minutes: (seen?.minutes ?? 0) + 1, latest: Math.max(seen?.latest ?? 0, t) });
        }
        await creditMany(
          tx,
          'points',
          'chat_activity',
          [...perUser].map(([userId, { minutes, latest }]) => ({
            userId,
            amount: minutes * rate,
            reference: `chat:${new Date(latest).toISOString().slice(0, 16)}`,
          })),
        );
        const oldest = Math.min(...batch.map((b) => b.minute.getTime())) - this.keepMinutes * MINUTE_MS;
        await tx.execute(
          sql`DELETE FROM chat_point_minutes WHERE minute < ${new Date(oldest).toISOString()}::timestamptz`,
        );
        return claimed.length;
      });
    } catch (err) {
      // Put the batch back so a passing database hiccup loses nothing.
      for (const b of batch) this.buffer.set(`${b.userId}|${b.minute.getTime()}`, b);
      throw err;
    }
  }
}

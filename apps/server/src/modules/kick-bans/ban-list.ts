/**
 * The bans in force, in memory, for the chat gates (chat points, `!bet`, `!guess`): every chat
 * message passes those, so they read this list instead of the database. Re-read when older than a
 * few seconds (another process may have recorded a ban or lift); this process's own bans and lifts
 * mark it stale at once. An expiry is compared with the clock at each question.
 */
import type { Db } from '../../db/client';
import { allBansInForce, type BanView } from './bans';

const FRESH_MS = 5_000;

export class KickBanList {
  private bans = new Map<string, BanView>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** The ban in force on this Kick account now, or null. */
  async banOf(kickUserId: string): Promise<BanView | null> {
    const now = this.now();
    if (now.getTime() - this.readAt > FRESH_MS) await this.read();
    const ban = this.bans.get(kickUserId);
    return ban && (ban.expiresAt === null || ban.expiresAt > now) ? ban : null;
  }

  /** A ban or lift was just committed here: the next question re-reads. */
  stale(): void {
    this.readAt = -Infinity;
  }

  private read(): Promise<void> {
    this.reading ??= (async () => {
      const at = this.now();
      const list = await allBansInForce(this.db, at);
      this.bans = new Map(list.map((b) => [b.kickUserId, b]));
      this.readAt = at.getTime();
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }
}

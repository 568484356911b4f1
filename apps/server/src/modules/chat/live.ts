/**
 * Whether the stream is live, in memory: set at once by this process when Kick's
 * `livestream.status.updated` arrives here, and read again from `kick_live_state` when older than a
 * few seconds (another process may have received the event). Null until any event was received.
 */
import type { Database } from '../../db/client';

const FRESH_MS = 5_000;

export class LiveState {
  private value: boolean | null = null;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async isLive(): Promise<boolean | null> {
    if (this.nowMs() - this.readAt > FRESH_MS) await this.read();
    return this.value;
  }

  /** This process just recorded the state. */
  set(isLive: boolean): void {
    this.value = isLive;
    this.readAt = this.nowMs();
  }

  private read(): Promise<void> {
    this.reading ??= this.database
      .query<{ is_live: boolean }>('SELECT is_live FROM kick_live_state WHERE id = 1', [], 'chat_live_state')
      .then((rows) => {
        this.value = rows[0]?.is_live ?? null;
        this.readAt = this.nowMs();
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}

/**
 * The outgoing Kick chat queue (docs/features/kick-chat-queue.md). Every bot message is a row in
 * `chat_out`; whichever process holds the lease in `chat_out_sender` posts them, one at a time:
 *
 * - the lease is taken or renewed with one conditional UPDATE (held by nobody, expired, or ours),
 *   right before each post, for longer than a post can take (LEASE_MS > Kick's 10 s timeout), so
 *   two processes never post at once;
 * - pacing is a token bucket kept in the same row (one message per `intervalMs`, bursts of
 *   `burst`), so a new holder carries on where the last one stopped;
 * - a 429 pauses the sender for Kick's `Retry-After` (or a doubling backoff without one) and the
 *   rows go back to waiting;
 * - Kick's daily message quota (a 429 or 403 whose message speaks of a quota or a daily limit,
 *   `isDailyQuota`) pauses it until the next UTC midnight, trying one line every QUOTA_RETRY_MS
 *   before that; the rows go back to waiting, none is failed;
 * - rows are marked `sending` before the post and `sent` after Kick accepted it; a post with no
 *   answer (timeout, dropped connection) or a process that died mid-post leaves them `unknown`,
 *   never sent again: a missing acknowledgement is better than a duplicate in chat (the action
 *   itself is already committed and shown on the site and overlay);
 * - acknowledgements, thanks and personal answers older than `maxAgeMs` are dropped from chat unsent;
 *   announcements never are.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { eachAloneOnRefusal, StatementBatcher } from '../../lib/statement-batcher';
import { KickApiError } from './api';
import { type ChatBatch, type ChatOutKind, nextBatch, type WaitingChat } from './chat-merge';

export const LEASE_MS = 30_000;
/** Waiting rows read per post: enough to fill a 500-character message many times over. */
const READ_AHEAD = 400;
const BACKOFF_MIN_MS = 2_000;
const BACKOFF_MAX_MS = 60_000;
const KEEP_DONE_MS = 24 * 60 * 60_000;
/** While Kick's daily quota holds, one line is tried this often (Kick's day may not be UTC's). */
export const QUOTA_RETRY_MS = 60 * 60_000;

/**
 * Kick's daily chat-message quota, told from a short rate limit: Kick does not document the
 * error, so a refusal (429, or 403) whose message speaks of a quota, a daily limit or a limit per
 * day is it; a plain 429 ("Too Many Requests", with or without Retry-After) is the short one.
 */
export function isDailyQuota(err: KickApiError): boolean {
  if (err.status !== 429 && err.status !== 403) return false;
  return /quota|daily|per day|today/i.test(err.kickMessage ?? '');
}

const nextUtcMidnight = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

export interface ChatQueueSettings {
  /** One message per this many milliseconds, sustained. */
  intervalMs: number;
  /** Messages that may go out back to back after a quiet spell. */
  burst: number;
  /** Acknowledgements, thanks and personal answers waiting longer are dropped from chat. */
  maxAgeMs: number;
}

/** One message to queue. `ack` and `thanks` merge per topic; `personal` per addressee; `announce` never. */
export type ChatOut =
  | { kind: 'ack'; topic: string; addressee: string; item: string; replyTo?: string }
  | { kind: 'thanks'; topic: string; addressee: string; item: string }
  | { kind: 'personal'; addressee: string; text: string; replyTo?: string }
  | { kind: 'announce'; text: string };

export type PostingMode = 'streamer' | 'bot-account';
export type ChatHint = 'try-bot-account' | 'enable-bot-setting' | 'wrong-account';

/** Posts one message; throws a KickApiError for Kick's refusals, anything else when no answer came. */
export type ChatPoster = (
  message: { content: string; replyTo: string | undefined },
  mode: PostingMode,
) => Promise<
  | { posted: true; messageId: string | null }
  | { posted: false; reason: 'not-connected' | 'wrong-account' | 'token-failed'; detail?: string }
>;

export interface ChatQueueStats {
  waiting: number;
  sent: number;
  merged: number;
  dropped: number;
  throttled: number;
  failed: number;
  postingMode: PostingMode;
  pausedUntil: Date | null;
  /** Paused by Kick's daily message quota: the UTC midnight it resumes at (null: not). */
  quotaUntil: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  hint: ChatHint | null;
}

interface SenderRow extends Record<string, unknown> {
  tokens: number | null;
  refilled_at: string | Date | null;
  blocked_until: string | Date | null;
  posting_mode: PostingMode;
}

const iso = (d: Date) => d.toISOString();
const asDate = (v: string | Date | null) => (v === null ? null : new Date(v));

export class ChatQueue {
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private running: Promise<number> | null = null;
  /** 429s in a row (for the backoff when Kick gives no Retry-After). */
  private streak = 0;
  /** Until when this process last took the lease: a lease taken afresh settles what the last holder left. */
  private heldUntil = 0;
  /**
   * What handlers queue within the same few milliseconds (a bet's acknowledgement, a command's
   * answer: one per chat command at thousands of messages a second) goes in as ONE insert, in the
   * order queued (lib/statement-batcher.ts).
   */
  private readonly inserts = new StatementBatcher<{ messages: ChatOut[]; at: string }, unknown>(
    (groups) => this.insertAll(groups),
    { maxRows: 100 },
  );

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly settings: ChatQueueSettings,
    private readonly poster: ChatPoster,
    private readonly log: { info(o: object, m: string): void; warn(o: object, m: string): void } = {
      info: () => undefined,
      warn: () => undefined,
    },
  ) {}

  /** Queues messages; the sender posts them in order, merged and paced. */
  async enqueue(...messages: ChatOut[]): Promise<void> {
    if (messages.length === 0) return;
    const refused = await this.inserts.add({ messages, at: iso(this.clock.now()) });
    if (refused !== null) throw refused;
  }

  /** Writes what is being queued (before the database closes). */
  drain(): Promise<void> {
    return this.inserts.drain();
  }

  /**
   * Every group in one insert; when the database refuses a row, each group again on its own, so
   * only that group's caller fails (null: inserted; else the error).
   */
  private insertAll(groups: Array<{ messages: ChatOut[]; at: string }>): Promise<unknown[]> {
    return eachAloneOnRefusal(
      groups,
      (g) => this.insert(g).then(() => g.map(() => null)),
      (error) => error,
    );
  }

  private async insert(groups: Array<{ messages: ChatOut[]; at: string }>): Promise<void> {
    const params: unknown[] = [];
    const rows: string[] = [];
    for (const { messages, at } of groups) {
      for (const m of messages) {
        const topic = m.kind === 'ack' || m.kind === 'thanks' ? m.topic : null;
        const addressee = m.kind === 'announce' ? null : m.addressee;
        const body = m.kind === 'ack' || m.kind === 'thanks' ? m.item : m.text;
        const replyTo = 'replyTo' in m ? (m.replyTo ?? null) : null;
        params.push(m.kind, topic, addressee, body, replyTo, at);
        const n = params.length;
        rows.push(`($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::timestamptz)`);
      }
    }
    await this.database.query(
      `INSERT INTO chat_out (kind, topic, addressee, body, reply_to, created_at) VALUES ${rows.join(', ')}`,
      params,
    );
  }

  /**
   * Posts what the lease, the pace and Kick allow now, then returns how many messages went out.
   * Serialised in this process; across processes the lease lets one post.
   */
  pump(): Promise<number> {
    this.running ??= this.pumpOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pumpOnce(): Promise<number> {
    let posted = 0;
    for (;;) {
      const now = this.clock.now();
      const afresh = now.getTime() >= this.heldUntil;
      const sender = await this.takeLease(now);
      if (!sender) return posted;
      this.heldUntil = now.getTime() + LEASE_MS;
      if (afresh) await this.settleLeftovers(now);
      const blocked = asDate(sender.blocked_until);
      if (blocked && blocked > now) return posted;
      const tokens = this.refill(sender, now);
      await this.dropOld(now);
      if (tokens < 1) return posted;
      const batch = await this.next();
      if (!batch) return posted;
      const attempt = randomBytes(8).toString('hex');
      const marked = await this.database.query(
        `UPDATE chat_out SET state = 'sending', attempt = $2 WHERE id = ANY($1::bigint[]) AND state = 'queued' RETURNING id`,
        [batch.ids, attempt],
      );
      if (marked.length !== batch.ids.length) {
        await this.backToQueue(attempt);
        return posted;
      }
      await this.database.query(
        `UPDATE chat_out_sender SET tokens = $2, refilled_at = $3::timestamptz WHERE id = 1 AND holder = $1`,
        [this.holder, tokens - 1, iso(now)],
      );
      const outcome = await this.post(batch, sender.posting_mode, attempt);
      if (outcome === 'sent') posted += 1;
      if (outcome !== 'sent' && outcome !== 'failed') return posted;
    }
  }

  private async takeLease(now: Date): Promise<SenderRow | null> {
    const [row] = await this.database.query<SenderRow>(
      `UPDATE chat_out_sender SET holder = $1, lease_until = $3::timestamptz
       WHERE id = 1 AND (holder = $1 OR lease_until IS NULL OR lease_until < $2::timestamptz)
       RETURNING tokens, refilled_at, blocked_until, posting_mode`,
      [this.holder, iso(now), iso(new Date(now.getTime() + LEASE_MS))],
    );
    return row ?? null;
  }

  /** The bucket's tokens now: what was left, plus one per interval since, up to the burst. */
  private refill(sender: SenderRow, now: Date): number {
    const { intervalMs, burst } = this.settings;
    const at = asDate(sender.refilled_at);
    if (sender.tokens === null || at === null) return burst;
    return Math.min(burst, Number(sender.tokens) + Math.max(0, now.getTime() - at.getTime()) / intervalMs);
  }

  /** Rows left `sending` by a post that never finished here (a process died mid-post): outcome unknown. */
  private async settleLeftovers(now: Date): Promise<void> {
    await this.database.query(
      `UPDATE chat_out SET state = 'unknown', done_at = $1::timestamptz WHERE state = 'sending'`,
      [iso(now)],
    );
    await this.database.query(`DELETE FROM chat_out WHERE done_at < $1::timestamptz`, [
      iso(new Date(now.getTime() - KEEP_DONE_MS)),
    ]);
  }

  private async dropOld(now: Date): Promise<void> {
    const dropped = await this.database.query(
      `UPDATE chat_out SET state = 'dropped', done_at = $1::timestamptz
       WHERE state = 'queued' AND kind IN ('ack', 'thanks', 'personal') AND created_at < $2::timestamptz RETURNING id`,
      [iso(now), iso(new Date(now.getTime() - this.settings.maxAgeMs))],
    );
    if (dropped.length > 0) {
      await this.database.query(`UPDATE chat_out_sender SET dropped = dropped + $1 WHERE id = 1`, [dropped.length]);
    }
  }

  private async next(): Promise<ChatBatch | null> {
    const rows = await this.database.query<{
      id: string | number;
      kind: ChatOutKind;
      topic: string | null;
      addressee: string | null;
      body: string;
      reply_to: string | null;
    }>(
      `SELECT id, kind, topic, addressee, body, reply_to FROM chat_out WHERE state = 'queued' ORDER BY id LIMIT ${READ_AHEAD}`,
    );
    const waiting: WaitingChat[] = rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      topic: r.topic,
      addressee: r.addressee,
      body: r.body,
      replyTo: r.reply_to,
    }));
    const first = waiting[0];
    if (!first) return null;
    let groupSize: number | undefined;
    if ((first.kind === 'ack' || first.kind === 'thanks') && rows.length === READ_AHEAD) {
      const [count] = await this.database.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM chat_out WHERE state = 'queued' AND kind = $1 AND topic = $2`,
        [first.kind, first.topic],
      );
      groupSize = Number(count?.n ?? 0);
    }
    return nextBatch(waiting, groupSize);
  }

  private async post(batch: ChatBatch, mode: PostingMode, attempt: string): Promise<'sent' | 'failed' | 'later'> {
    const merged = batch.ids.length - 1;
    let result: Awaited<ReturnType<ChatPoster>>;
    try {
      result = await this.poster({ content: batch.content, replyTo: batch.replyTo }, mode);
    } catch (err) {
      if (err instanceof KickApiError) return this.refused(err, mode, attempt, batch.ids.length);
      // No answer: Kick may have posted it. Never sent again (see the top of this file).
      await this.finish(attempt, 'unknown', null);
      await this.noteError(`no answer from Kick: ${err instanceof Error ? err.message : String(err)}`, null);
      this.log.warn({ err, content: batch.content }, 'chat message outcome unknown (not sent again)');
      return 'later';
    }
    if (!result.posted) {
      await this.finish(attempt, 'failed', null);
      await this.database.query(`UPDATE chat_out_sender SET failed = failed + $1 WHERE id = 1`, [batch.ids.length]);
      if (result.reason === 'wrong-account') {
        await this.noteError('the connected Kick account is not the broadcaster', 'wrong-account');
      } else if (result.reason === 'token-failed') {
        await this.noteError(`the bot token could not be refreshed: ${result.detail ?? ''}`, null);
      }
      this.log.info({ content: batch.content, reason: result.reason }, 'chat message not posted');
      return 'failed';
    }
    this.streak = 0;
    await this.finish(attempt, 'sent', result.messageId);
    await this.database.query(
      `UPDATE chat_out_sender SET sent = sent + 1, merged = merged + $1, blocked_until = NULL, quota_until = NULL,
         last_error = NULL, last_error_at = NULL, hint = NULL WHERE id = 1`,
      [merged],
    );
    return 'sent';
  }

  private async refused(
    err: KickApiError,
    mode: PostingMode,
    attempt: string,
    rows: number,
  ): Promise<'failed' | 'later'> {
    const now = this.clock.now().getTime();
    if (isDailyQuota(err)) {
      const midnight = nextUtcMidnight(now);
      const retryAt = Math.min(midnight, now + (err.retryAfterMs ?? QUOTA_RETRY_MS));
      await this.backToQueue(attempt);
      await this.database.query(
        // Paused, the queue kept; then one line (tokens = 1) to see whether the quota is over.
        `UPDATE chat_out_sender SET throttled = throttled + 1, blocked_until = $1::timestamptz, tokens = 1,
           refilled_at = $1::timestamptz, quota_until = $2::timestamptz WHERE id = 1`,
        [iso(new Date(retryAt)), iso(new Date(midnight))],
      );
      await this.noteError(`Kick's daily chat-message limit reached: ${err.kickMessage ?? err.message}`, null);
      this.log.warn(
        { retryAt: new Date(retryAt), kickMessage: err.kickMessage },
        "Kick's daily chat quota: chat paused",
      );
      return 'later';
    }
    if (err.status === 429) {
      this.streak += 1;
      const wait = err.retryAfterMs ?? Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.streak - 1));
      await this.backToQueue(attempt);
      await this.database.query(
        // After the pause: one message, then the pace again (no burst straight into another 429).
        `UPDATE chat_out_sender SET throttled = throttled + 1, blocked_until = $1::timestamptz, tokens = 1,
           refilled_at = $1::timestamptz WHERE id = 1`,
        [iso(new Date(now + wait))],
      );
      this.log.info({ retryAfterMs: wait }, 'Kick answered 429: chat paused');
      return 'later';
    }
    const notFound = err.status === 404 || /channel not found/i.test(err.kickMessage ?? '');
    const hint: ChatHint | null = notFound
      ? 'enable-bot-setting'
      : err.status >= 500 && mode === 'streamer'
        ? 'try-bot-account'
        : null;
    await this.finish(attempt, 'failed', null);
    await this.database.query(`UPDATE chat_out_sender SET failed = failed + $1 WHERE id = 1`, [rows]);
    await this.noteError(err.message, hint);
    this.log.warn({ err }, 'chat message refused by Kick');
    return 'failed';
  }

  private async backToQueue(attempt: string): Promise<void> {
    await this.database.query(
      `UPDATE chat_out SET state = 'queued', attempt = NULL WHERE attempt = $1 AND state = 'sending'`,
      [attempt],
    );
  }

  private async finish(attempt: string, state: 'sent' | 'failed' | 'unknown', messageId: string | null) {
    await this.database.query(
      `UPDATE chat_out SET state = $2, done_at = $3::timestamptz, kick_message_id = $4 WHERE attempt = $1`,
      [attempt, state, iso(this.clock.now()), messageId],
    );
  }

  private async noteError(message: string, hint: ChatHint | null): Promise<void> {
    await this.database.query(
      `UPDATE chat_out_sender SET last_error = $1, last_error_at = $2::timestamptz, hint = $3 WHERE id = 1`,
      [message.slice(0, 500), iso(this.clock.now()), hint],
    );
  }

  /** Lets another process take over at once (this one is stopping). */
  async release(): Promise<void> {
    this.heldUntil = 0;
    await this.database.query(`UPDATE chat_out_sender SET lease_until = NULL WHERE id = 1 AND holder = $1`, [
      this.holder,
    ]);
  }

  async setMode(mode: PostingMode): Promise<void> {
    await this.database.query(`UPDATE chat_out_sender SET posting_mode = $1, hint = NULL WHERE id = 1`, [mode]);
  }

  async stats(): Promise<ChatQueueStats> {
    const [row] = await this.database.query<Record<string, unknown>>(
      `SELECT (SELECT count(*)::int FROM chat_out WHERE state = 'queued') AS waiting, s.* FROM chat_out_sender s WHERE id = 1`,
    );
    const num = (v: unknown) => Number(v ?? 0);
    const date = (v: unknown) => (v ? new Date(v as string) : null);
    return {
      waiting: num(row?.waiting),
      sent: num(row?.sent),
      merged: num(row?.merged),
      dropped: num(row?.dropped),
      throttled: num(row?.throttled),
      failed: num(row?.failed),
      postingMode: (row?.posting_mode as PostingMode | undefined) ?? 'streamer',
      pausedUntil: date(row?.blocked_until),
      quotaUntil: date(row?.quota_until),
      lastError: (row?.last_error as string | null) ?? null,
      lastErrorAt: date(row?.last_error_at),
      hint: (row?.hint as ChatHint | null) ?? null,
    };
  }
}

/**
 * The chat ingest's writes, batched: messages arriving within a few milliseconds (or up to a few
 * hundred) are written together by ONE statement, which records and deduplicates the new messages
 * (each row is the claim on its message id, with a short lease — or, for plain chat no handler will
 * act on, recorded processed at once), records their senders' activity,
 * marks the messages of earlier batches processed and keeps the bot's replies with the messages
 * they answer. A caller's promise settles once the statement that carries its row has committed,
 * so nothing is answered before it is durable.
 *
 * A message id that is already there is either processed (a duplicate), or still owned by a live
 * lease (in flight in some process: the redelivery is asked to come back), or its lease ran out —
 * the process that recorded it died before it finished — and the redelivery takes it over.
 */
import type { Database } from '../../db/client';
import { isDataError } from '../../lib/db-errors';
import { sliceText } from '../../lib/text-guard';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatSource } from './service';

export const MAX_CONTENT = 2000;

export type Claim = 'claimed' | 'processed' | 'in-flight';

export interface Completion {
  messageId: string;
  handledBy: string | null;
  errors: string[];
  processedAt: Date;
}

interface Incoming {
  message: ChatMessage;
  source: ChatSource;
  linkedUserId: string | null;
  receivedAt: Date;
  /** The lease, for a message a handler may act on; null for one recorded processed at once. */
  claimedUntil: Date | null;
  /** Set for a message no handler will act on (ChatHandler.mayAct): recorded already processed. */
  processedAt: Date | null;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}

export interface ChatWriterOptions {
  /** Wait at most this long for more rows before writing (ms). */
  delayMs?: number;
  /** Write at once when this many rows are waiting. */
  maxRows?: number;
}

const STATEMENT = `
WITH incoming AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (
    message_id text, source text, kick_user_id text, kick_username text, color text, is_subscriber boolean,
    badges text[], content text, sent_at timestamptz, received_at timestamptz, linked_user_id uuid,
    claimed_until timestamptz, processed_at timestamptz)
),
claimed AS (
  INSERT INTO chat_messages (message_id, source, kick_user_id, kick_username, color, is_subscriber, badges,
                             content, sent_at, received_at, linked_user_id, claimed_until, processed_at)
  SELECT message_id, source, kick_user_id, kick_username, color, is_subscriber, badges, content, sent_at,
         received_at, linked_user_id, claimed_until, processed_at
  FROM incoming
  ON CONFLICT (message_id) DO UPDATE
    SET claimed_until = EXCLUDED.claimed_until, linked_user_id = EXCLUDED.linked_user_id,
        processed_at = EXCLUDED.processed_at
    WHERE chat_messages.processed_at IS NULL
      AND COALESCE(chat_messages.claimed_until, '-infinity') < EXCLUDED.received_at
  RETURNING message_id
),
activity AS (
  INSERT INTO kick_chat_activity AS t (kick_user_id, kick_username, color, is_subscriber, badges, last_message_at,
                                       updated_at)
  SELECT DISTINCT ON (i.kick_user_id) i.kick_user_id, i.kick_username, i.color, i.is_subscriber, i.badges,
         i.received_at, i.received_at
  FROM incoming i JOIN claimed c USING (message_id)
  ORDER BY i.kick_user_id, i.received_at DESC
  ON CONFLICT (kick_user_id) DO UPDATE SET
    kick_username = CASE WHEN t.last_message_at IS NULL OR EXCLUDED.last_message_at >= t.last_message_at
                         THEN EXCLUDED.kick_username ELSE t.kick_username END,
    color = CASE WHEN t.last_message_at IS NULL OR EXCLUDED.last_message_at >= t.last_message_at
                 THEN EXCLUDED.color ELSE t.color END,
    is_subscriber = CASE WHEN t.last_message_at IS NULL OR EXCLUDED.last_message_at >= t.last_message_at
                         THEN EXCLUDED.is_subscriber ELSE t.is_subscriber END,
    badges = CASE WHEN t.last_message_at IS NULL OR EXCLUDED.last_message_at >= t.last_message_at
                  THEN EXCLUDED.badges ELSE t.badges END,
    last_message_at = GREATEST(t.last_message_at, EXCLUDED.last_message_at),
    updated_at = EXCLUDED.updated_at
),
answered AS (
  SELECT message_id, array_agg(reply ORDER BY n) AS replies
  FROM jsonb_to_recordset($3::jsonb) AS r (n int, message_id text, reply text)
  GROUP BY message_id
),
done AS (
  UPDATE chat_messages m
  SET handled_by = CASE WHEN d.finished THEN COALESCE(m.handled_by, d.handled_by) ELSE m.handled_by END,
      errors = CASE WHEN d.finished THEN d.errors ELSE m.errors END,
      processed_at = CASE WHEN d.finished THEN COALESCE(m.processed_at, d.processed_at) ELSE m.processed_at END,
      claimed_until = CASE WHEN d.finished THEN NULL ELSE m.claimed_until END,
      replies = m.replies || COALESCE(d.replies, '{}')
  FROM (
    SELECT message_id, f.message_id IS NOT NULL AS finished, f.handled_by, f.errors, f.processed_at, a.replies
    FROM jsonb_to_recordset($2::jsonb) AS f (message_id text, handled_by text, errors text[], processed_at timestamptz)
    FULL JOIN answered a USING (message_id)
  ) d
  WHERE m.message_id = d.message_id
)
SELECT i.message_id, c.message_id IS NOT NULL AS claimed, m.processed_at IS NOT NULL AS processed
FROM incoming i
LEFT JOIN claimed c USING (message_id)
LEFT JOIN chat_messages m ON m.message_id = i.message_id`;

interface Reply {
  messageId: string;
  text: string;
}

export class ChatWriter {
  private incoming: Array<{ row: Incoming; waiter: Waiter<Claim> }> = [];
  private completions: Array<{ row: Completion; waiter: Waiter<void> }> = [];
  private replies: Array<{ row: Reply; waiter: Waiter<void> }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private readonly delayMs: number;
  private readonly maxRows: number;
  /** Statements written so far (tests and the benchmark read it). */
  batches = 0;

  constructor(
    private readonly database: Database,
    opts: ChatWriterOptions = {},
  ) {
    this.delayMs = opts.delayMs ?? 2;
    this.maxRows = opts.maxRows ?? 500;
  }

  /** Records a message (or finds it already there); settles once that is committed. */
  record(row: Incoming): Promise<Claim> {
    return new Promise((resolve, reject) => {
      this.incoming.push({ row, waiter: { resolve, reject } });
      this.schedule();
    });
  }

  /** Marks a message processed; settles once that is committed. */
  complete(row: Completion): Promise<void> {
    return new Promise((resolve, reject) => {
      this.completions.push({ row, waiter: { resolve, reject } });
      this.schedule();
    });
  }

  /** Keeps a reply (the bot's answer) with the message it answers; settles once that is committed. */
  reply(messageId: string, text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.replies.push({ row: { messageId, text }, waiter: { resolve, reject } });
      this.schedule();
    });
  }

  private get waiting(): number {
    return this.incoming.length + this.completions.length + this.replies.length;
  }

  /** Writes whatever is waiting now (and resolves when the queue is empty). */
  async drain(): Promise<void> {
    while (this.writing || this.waiting > 0) {
      if (this.writing) await this.writing;
      else await this.writeNow();
    }
  }

  private schedule(): void {
    if (this.writing) return; // the running write picks the rest up when it ends
    if (this.waiting >= this.maxRows) {
      void this.writeNow();
      return;
    }
    this.timer ??= setTimeout(() => void this.writeNow(), this.delayMs);
  }

  private writeNow(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.writing) return this.writing;
    const incoming = this.incoming.splice(0, this.maxRows);
    const completions = this.completions.splice(0, Math.max(0, this.maxRows - incoming.length) || this.maxRows);
    const replies = this.replies.splice(0, this.maxRows);
    if (incoming.length === 0 && completions.length === 0 && replies.length === 0) return Promise.resolve();
    this.writing = this.write(incoming, completions, replies).finally(() => {
      this.writing = null;
      if (this.waiting > 0) this.schedule();
    });
    return this.writing;
  }

  private async write(
    incoming: Array<{ row: Incoming; waiter: Waiter<Claim> }>,
    completions: Array<{ row: Completion; waiter: Waiter<void> }>,
    replies: Array<{ row: Reply; waiter: Waiter<void> }>,
  ): Promise<void> {
    const records = incoming.map(({ row: { message: m, ...r } }) => ({
      message_id: m.messageId,
      source: r.source,
      kick_user_id: m.kickUserId,
      kick_username: m.kickUsername,
      color: m.color,
      is_subscriber: m.isSubscriber,
      badges: m.badges,
      content: sliceText(m.content, MAX_CONTENT),
      sent_at: m.sentAt.toISOString(),
      received_at: r.receivedAt.toISOString(),
      linked_user_id: r.linkedUserId,
      claimed_until: r.claimedUntil?.toISOString() ?? null,
      processed_at: r.processedAt?.toISOString() ?? null,
    }));
    const done = completions.map(({ row: c }) => ({
      message_id: c.messageId,
      handled_by: c.handledBy,
      errors: c.errors,
      processed_at: c.processedAt.toISOString(),
    }));
    const answers = replies.map(({ row }, n) => ({ n, message_id: row.messageId, reply: row.text }));
    let rows: Array<{ message_id: string; claimed: boolean; processed: boolean }>;
    try {
      this.batches += 1;
      // Unnamed, so planned for each batch: a plan cached per connection since the tables were
      // fresh (PostgreSQL keeps it until the next ANALYZE) hashes ALL of chat_messages per batch
      // once they have grown — tens of milliseconds at 60,000 rows — where a batch's plan looks its
      // rows up by primary key (planning costs ~0.2 ms per batch).
      rows = await this.database.query(STATEMENT, [
        JSON.stringify(records),
        JSON.stringify(done),
        JSON.stringify(answers),
      ]);
    } catch (err) {
      if (incoming.length + completions.length + replies.length > 1 && isDataError(err)) {
        // The statement is all or nothing: one row the database refuses would fail every row
        // written with it. Each is written again on its own, so only that one fails. (Not on a
        // connection or server error, which every row would meet again.)
        for (const one of incoming) await this.write([one], [], []);
        for (const one of completions) await this.write([], [one], []);
        for (const one of replies) await this.write([], [], [one]);
        return;
      }
      for (const { waiter } of incoming) waiter.reject(err);
      for (const { waiter } of completions) waiter.reject(err);
      for (const { waiter } of replies) waiter.reject(err);
      return;
    }
    const outcome = new Map(rows.map((r) => [r.message_id, r]));
    for (const { row, waiter } of incoming) {
      const r = outcome.get(row.message.messageId);
      waiter.resolve(r?.claimed ? 'claimed' : r?.processed ? 'processed' : 'in-flight');
    }
    for (const { waiter } of completions) waiter.resolve();
    for (const { waiter } of replies) waiter.resolve();
  }
}

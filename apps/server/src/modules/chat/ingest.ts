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
import { eachAloneOnRefusal, StatementBatcher, type StatementBatcherOptions } from '../../lib/statement-batcher';
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

export type ChatWriterOptions = StatementBatcherOptions;

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
    -- Kick's expires_at is wrong: a badge-less message newer than the last sub event ends the sub
    -- (docs/features/kick-events-and-bans.md#subscriber-status).
    subscribed_until = CASE WHEN NOT EXCLUDED.is_subscriber
                              AND (t.last_message_at IS NULL OR EXCLUDED.last_message_at >= t.last_message_at)
                              AND (t.subscribed_at IS NULL OR EXCLUDED.last_message_at > t.subscribed_at)
                            THEN NULL ELSE t.subscribed_until END,
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

/** One row of a batch: a message to record, a message to mark processed, or a reply to keep. */
type Row = { kind: 'record'; row: Incoming } | { kind: 'complete'; row: Completion } | { kind: 'reply'; row: Reply };

/** What a row's caller gets: its claim (for a record), or the error that refused its row alone. */
type Written = { ok: true; claim: Claim } | { ok: false; error: unknown };

const claimOf = (written: Written): Claim => {
  if (!written.ok) throw written.error;
  return written.claim;
};
const nothing = (written: Written): void => {
  if (!written.ok) throw written.error;
};

/** The rows of a batch go to the database in ONE statement (lib/statement-batcher.ts). */
export class ChatWriter {
  private readonly batcher: StatementBatcher<Row, Written>;
  /** Statements written so far, retries of a refused batch included (tests and the benchmark read it). */
  batches = 0;

  constructor(
    private readonly database: Database,
    opts: ChatWriterOptions = {},
  ) {
    this.batcher = new StatementBatcher((rows) => this.write(rows), opts);
  }

  /** Records a message (or finds it already there); settles once that is committed. */
  record(row: Incoming): Promise<Claim> {
    return this.batcher.add({ kind: 'record', row }).then(claimOf);
  }

  /** Marks a message processed; settles once that is committed. */
  complete(row: Completion): Promise<void> {
    return this.batcher.add({ kind: 'complete', row }).then(nothing);
  }

  /** Keeps a reply (the bot's answer) with the message it answers; settles once that is committed. */
  reply(messageId: string, text: string): Promise<void> {
    return this.batcher.add({ kind: 'reply', row: { messageId, text } }).then(nothing);
  }

  /** Writes whatever is waiting now (and resolves when the queue is empty). */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  /** Writes a batch; a row the database refuses fails alone, a connection or server error fails them all. */
  private write(rows: Row[]): Promise<Written[]> {
    return eachAloneOnRefusal(
      rows,
      (r) => this.statement(r),
      (error) => ({ ok: false, error }),
    );
  }

  private async statement(rows: Row[]): Promise<Written[]> {
    // One pass over the rows, each into its list (the batch's every message, a few thousand a second).
    const records: object[] = [];
    const done: object[] = [];
    const answers: object[] = [];
    for (const r of rows) {
      if (r.kind === 'record') {
        const i = r.row;
        const m = i.message;
        records.push({
          message_id: m.messageId,
          source: i.source,
          kick_user_id: m.kickUserId,
          kick_username: m.kickUsername,
          color: m.color,
          is_subscriber: m.isSubscriber,
          badges: m.badges,
          content: sliceText(m.content, MAX_CONTENT),
          sent_at: m.sentAt.toISOString(),
          received_at: i.receivedAt.toISOString(),
          linked_user_id: i.linkedUserId,
          claimed_until: i.claimedUntil?.toISOString() ?? null,
          processed_at: i.processedAt?.toISOString() ?? null,
        });
      } else if (r.kind === 'complete') {
        const c = r.row;
        done.push({
          message_id: c.messageId,
          handled_by: c.handledBy,
          errors: c.errors,
          processed_at: c.processedAt.toISOString(),
        });
      } else {
        answers.push({ n: answers.length, message_id: r.row.messageId, reply: r.row.text });
      }
    }
    this.batches += 1;
    // Unnamed, so planned for each batch: a plan cached per connection since the tables were
    // fresh (PostgreSQL keeps it until the next ANALYZE) hashes ALL of chat_messages per batch
    // once they have grown — tens of milliseconds at 60,000 rows — where a batch's plan looks its
    // rows up by primary key (planning costs ~0.2 ms per batch).
    const result: Array<{ message_id: string; claimed: boolean; processed: boolean }> = await this.database.query(
      STATEMENT,
      [JSON.stringify(records), JSON.stringify(done), JSON.stringify(answers)],
    );
    const outcome = new Map(result.map((r) => [r.message_id, r]));
    return rows.map((r): Written => {
      if (r.kind !== 'record') return { ok: true, claim: 'processed' };
      const o = outcome.get(r.row.message.messageId);
      return { ok: true, claim: o?.claimed ? 'claimed' : o?.processed ? 'processed' : 'in-flight' };
    });
  }
}

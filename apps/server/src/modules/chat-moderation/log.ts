/**
 * The moderation log (docs/features/chat-moderation.md#the-log): one row per chat message acted on
 * or warned about. The row is written before Kick is asked — its unique message id is the claim,
 * so with several processes exactly one of them acts on a message — and completed with Kick's answer.
 */
import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { ModerationLogAction, ModerationLogEntry, ModerationRule } from '@kickback/common/http/chat-moderation';
import type { Database, Db } from '../../db/client';
import { eachAloneOnRefusal, StatementBatcher, type StatementBatcherOptions } from '../../lib/statement-batcher';
import { chatModerationLog, chatModerationPermits } from '../../db/schema/chat-moderation';

export const LOG_PAGE_SIZE = 50;
/** A sender with no action or warning logged within this is on a first offence. */
export const FIRST_OFFENCE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Claim {
  messageId: string;
  kickUserId: string;
  kickUsername: string;
  rule: ModerationRule;
  content: string;
  action: ModerationLogAction;
  timeoutMinutes: number | null;
  at: Date;
}

export interface ClaimResult {
  outcome: 'done' | 'failed';
  kickStatus: number | null;
  kickAnswer: string;
}

/**
 * Claims, and outcomes of earlier claims, that arrive within a few milliseconds go to the database
 * together in ONE statement (lib/statement-batcher.ts, as the chat writer's). Each claim is still
 * its own row whose unique message id decides, in the database, which process acts; a caller's
 * promise settles once the statement carrying its row has committed.
 */
const LOG_STATEMENT = `
WITH incoming AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (
    n int, message_id text, kick_user_id text, kick_username text, rule text, content text, action text,
    timeout_minutes int, created_at timestamptz)
),
claimed AS (
  INSERT INTO chat_moderation_log (message_id, kick_user_id, kick_username, rule, content, action,
                                   timeout_minutes, created_at)
  SELECT message_id, kick_user_id, kick_username, rule, content, action, timeout_minutes, created_at
  FROM incoming ORDER BY n
  ON CONFLICT (message_id) DO NOTHING
  RETURNING id, message_id
),
finished AS (
  UPDATE chat_moderation_log l
  SET outcome = f.outcome, kick_status = f.kick_status, kick_answer = f.kick_answer
  FROM jsonb_to_recordset($2::jsonb) AS f (id bigint, outcome text, kick_status int, kick_answer text)
  WHERE l.id = f.id
)
SELECT id, message_id FROM claimed`;

type LogRow = { kind: 'claim'; claim: Claim } | { kind: 'finish'; id: number; result: ClaimResult };
type LogWritten = { ok: true; id: number | null } | { ok: false; error: unknown };

const idOf = (w: LogWritten): number | null => {
  if (!w.ok) throw w.error;
  return w.id;
};
const nothing = (w: LogWritten): void => {
  if (!w.ok) throw w.error;
};

export class ModerationLogWriter {
  private readonly batcher: StatementBatcher<LogRow, LogWritten>;
  /** Statements written so far (tests read it). */
  get batches(): number {
    return this.batcher.batches;
  }

  constructor(
    private readonly database: Database,
    opts: StatementBatcherOptions = {},
  ) {
    this.batcher = new StatementBatcher((rows) => this.write(rows), opts);
  }

  /** The log row's id, or null when another process (or an earlier call) already took this message. */
  claim(claim: Claim): Promise<number | null> {
    return this.batcher.add({ kind: 'claim', claim }).then(idOf);
  }

  /** Kick's answer (or why it was not asked) on a claimed row. */
  finish(id: number, result: ClaimResult): Promise<void> {
    return this.batcher.add({ kind: 'finish', id, result }).then(nothing);
  }

  drain(): Promise<void> {
    return this.batcher.drain();
  }

  /** A row the database refuses fails alone; a connection or server error fails them all. */
  private write(rows: LogRow[]): Promise<LogWritten[]> {
    return eachAloneOnRefusal(
      rows,
      (r) => this.statement(r),
      (error) => ({ ok: false, error }),
    );
  }

  private async statement(rows: LogRow[]): Promise<LogWritten[]> {
    const claims: object[] = [];
    const finishes: object[] = [];
    for (const r of rows) {
      if (r.kind === 'claim') {
        const c = r.claim;
        claims.push({
          n: claims.length,
          message_id: c.messageId,
          kick_user_id: c.kickUserId,
          kick_username: c.kickUsername,
          rule: c.rule,
          content: c.content,
          action: c.action,
          timeout_minutes: c.timeoutMinutes,
          created_at: c.at.toISOString(),
        });
      } else {
        finishes.push({
          id: r.id,
          outcome: r.result.outcome,
          kick_status: r.result.kickStatus,
          kick_answer: r.result.kickAnswer,
        });
      }
    }
    const result: Array<{ id: string | number; message_id: string }> = await this.database.query(LOG_STATEMENT, [
      JSON.stringify(claims),
      JSON.stringify(finishes),
    ]);
    const taken = new Map(result.map((r) => [r.message_id, Number(r.id)]));
    return rows.map((r): LogWritten => {
      if (r.kind !== 'claim') return { ok: true, id: null };
      // The same message twice in one batch: the first row in the batch holds the claim.
      const id = taken.get(r.claim.messageId) ?? null;
      taken.delete(r.claim.messageId);
      return { ok: true, id };
    });
  }
}

export async function hasRecentOffence(db: Db, kickUserId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: chatModerationLog.id })
    .from(chatModerationLog)
    .where(
      and(
        eq(chatModerationLog.kickUserId, kickUserId),
        gt(chatModerationLog.createdAt, new Date(now.getTime() - FIRST_OFFENCE_WINDOW_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A moderator's `!permit`: this Kick user may post one link until `until`. */
export async function grantPermit(db: Db, kickUsername: string, until: Date): Promise<void> {
  const name = kickUsername.toLowerCase();
  await db
    .insert(chatModerationPermits)
    .values({ kickUsername: name, until })
    .onConflictDoUpdate({ target: chatModerationPermits.kickUsername, set: { until } });
}

/** Uses up the user's permit if one is in force (one link, once: the delete is the claim). */
export async function usePermit(db: Db, kickUsername: string, now: Date): Promise<boolean> {
  const rows = await db
    .delete(chatModerationPermits)
    .where(
      and(eq(chatModerationPermits.kickUsername, kickUsername.toLowerCase()), gt(chatModerationPermits.until, now)),
    )
    .returning({ kickUsername: chatModerationPermits.kickUsername });
  return rows.length > 0;
}

export async function logPage(db: Db, page: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(chatModerationLog)
      .orderBy(desc(chatModerationLog.createdAt), desc(chatModerationLog.id))
      .limit(LOG_PAGE_SIZE)
      .offset((page - 1) * LOG_PAGE_SIZE),
    db.select({ n: count() }).from(chatModerationLog),
  ]);
  const items: ModerationLogEntry[] = rows.map((r) => ({
    id: r.id,
    messageId: r.messageId,
    kickUserId: r.kickUserId,
    kickUsername: r.kickUsername,
    rule: r.rule as ModerationRule,
    content: r.content,
    action: r.action as ModerationLogAction,
    timeoutMinutes: r.timeoutMinutes,
    outcome: r.outcome as ModerationLogEntry['outcome'],
    kickStatus: r.kickStatus,
    kickAnswer: r.kickAnswer,
    createdAt: r.createdAt.toISOString(),
  }));
  return { items, total: total?.n ?? 0, page, pageSize: LOG_PAGE_SIZE };
}

/** Log rows and permits past their use are deleted after this long. */
export const LOG_KEEP_DAYS = 90;
export async function pruneLog(db: Db, now: Date): Promise<void> {
  await db
    .delete(chatModerationLog)
    .where(sql`${chatModerationLog.createdAt} < ${new Date(now.getTime() - LOG_KEEP_DAYS * 86_400_000)}`);
  await db.delete(chatModerationPermits).where(sql`${chatModerationPermits.until} < ${now}`);
}

/**
 * The moderation log (docs/features/chat-moderation.md#the-log): one row per chat message acted on
 * or warned about. The row is written before Kick is asked — its unique message id is the claim,
 * so with several processes exactly one of them acts on a message — and completed with Kick's answer.
 */
import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { ModerationLogAction, ModerationLogEntry, ModerationRule } from '@kickback/common/http/chat-moderation';
import type { Db } from '../../db/client';
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

/** The log row's id, or null when another process already took this message. */
export async function claimMessage(db: Db, claim: Claim): Promise<number | null> {
  const rows = await db
    .insert(chatModerationLog)
    .values({ ...claim, createdAt: claim.at })
    .onConflictDoNothing({ target: chatModerationLog.messageId })
    .returning({ id: chatModerationLog.id });
  return rows[0]?.id ?? null;
}

export async function finishClaim(
  db: Db,
  id: number,
  result: { outcome: 'done' | 'failed'; kickStatus: number | null; kickAnswer: string },
): Promise<void> {
  await db.update(chatModerationLog).set(result).where(eq(chatModerationLog.id, id));
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

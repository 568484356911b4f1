/** What the admin sees of broadcasts: one with its progress (and, once finished, who got it), or the recent ones. */
import { asc, desc, eq, sql } from 'drizzle-orm';
import {
  isFinished,
  recipientReason,
  type BroadcastRecipient,
  type BroadcastResult,
  type BroadcastSummary,
} from '@kickback/common/http/discord';
import type { Db } from '../../db/client';
import {
  discordBroadcastRecipients,
  discordBroadcasts,
  type DiscordBroadcastRecipientRow,
  type DiscordBroadcastRow,
} from '../../db/schema/discord-broadcasts';
import { notFound } from '../../lib/errors';

const RECENT = 10;

function summaryOf(row: DiscordBroadcastRow): BroadcastSummary {
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    total: row.total,
    sentCount: row.sent,
    failedCount: row.failed,
    createdBy: row.createdByLabel,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.lastError,
  };
}

function recipientOf(row: DiscordBroadcastRecipientRow): BroadcastRecipient {
  const reason = recipientReason.safeParse(row.reason);
  return {
    userId: row.userId,
    username: row.username,
    discordUsername: row.discordUsername,
    discordId: row.discordId,
    status: row.status,
    reason: reason.success ? reason.data : row.status === 'sent' || row.status === 'pending' ? null : 'error',
  };
}

export async function loadBroadcast(db: Db, id: string): Promise<BroadcastResult> {
  const [row] = await db.select().from(discordBroadcasts).where(eq(discordBroadcasts.id, id));
  if (!row) throw notFound('Broadcast not found.');
  const summary = summaryOf(row);
  if (!isFinished(row.status)) return { ...summary, users: [], failed: [] };
  const recipients = (
    await db
      .select()
      .from(discordBroadcastRecipients)
      .where(eq(discordBroadcastRecipients.broadcastId, id))
      .orderBy(asc(sql`lower(${discordBroadcastRecipients.username})`), asc(discordBroadcastRecipients.id))
  ).map(recipientOf);
  return {
    ...summary,
    users: recipients.filter((r) => r.status === 'sent'),
    failed: recipients.filter((r) => r.status === 'failed' || r.status === 'skipped'),
  };
}

export async function recentBroadcasts(db: Db): Promise<BroadcastSummary[]> {
  const rows = await db.select().from(discordBroadcasts).orderBy(desc(discordBroadcasts.createdAt)).limit(RECENT);
  return rows.map(summaryOf);
}

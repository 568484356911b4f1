/** Reading back what the pipeline did (the admin Chat Simulator page), and trimming old rows. */
import { desc, eq, lt } from 'drizzle-orm';
import type { ChatLogEntry } from '@kickback/common/http/chat';
import type { Db } from '../../db/client';
import { chatMessages, kickWebhookDeliveries } from '../../db/schema/chat';
import { users } from '../../db/schema/users';

const columns = {
  message: chatMessages,
  linkedId: users.id,
  linkedName: users.username,
};

type Row = { message: typeof chatMessages.$inferSelect; linkedId: string | null; linkedName: string | null };

function toEntry({ message: m, linkedId, linkedName }: Row): ChatLogEntry {
  return {
    messageId: m.messageId,
    source: m.source,
    kickUserId: m.kickUserId,
    kickUsername: m.kickUsername,
    color: m.color,
    isSubscriber: m.isSubscriber,
    content: m.content,
    sentAt: m.sentAt.toISOString(),
    receivedAt: m.receivedAt.toISOString(),
    linkedUser: linkedId && linkedName !== null ? { id: linkedId, username: linkedName } : null,
    handledBy: m.handledBy,
    replies: m.replies,
    errors: m.errors,
  };
}

export async function recentChatLog(db: Db, limit: number): Promise<ChatLogEntry[]> {
  const rows = await db
    .select(columns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.linkedUserId))
    .orderBy(desc(chatMessages.receivedAt), desc(chatMessages.messageId))
    .limit(limit);
  return rows.map(toEntry);
}

export async function chatLogEntry(db: Db, messageId: string): Promise<ChatLogEntry | null> {
  const [row] = await db
    .select(columns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.linkedUserId))
    .where(eq(chatMessages.messageId, messageId));
  return row ? toEntry(row) : null;
}

const KEEP_MESSAGES_MS = 7 * 24 * 60 * 60 * 1000;
/** Longer than the 5-minute signature window, so a replay is always recognised. */
const KEEP_DELIVERIES_MS = 24 * 60 * 60 * 1000;

export async function pruneChatLog(db: Db, now: Date): Promise<void> {
  await db.delete(chatMessages).where(lt(chatMessages.receivedAt, new Date(now.getTime() - KEEP_MESSAGES_MS)));
  await db
    .delete(kickWebhookDeliveries)
    .where(lt(kickWebhookDeliveries.receivedAt, new Date(now.getTime() - KEEP_DELIVERIES_MS)));
}

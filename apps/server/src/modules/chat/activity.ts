/**
 * Each Kick chatter's last activity (`kick_chat_activity`): name, colour and subscriber badge from
 * their newest message, the end of their subscription from subscription events, and when this
 * server last saw them chat. Giveaway eligibility ("chatted within N seconds", sub-only) reads it.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { kickChatActivity, type KickChatActivityRow } from '../../db/schema/chat';
import type { KickSubscriber } from '../../integrations/kick/events';
import type { ChatMessage } from '../../integrations/kick/chat-message';

/** A subscription event without an end date (the chat websocket's) counts for this long. */
const ASSUMED_SUBSCRIPTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The sender's activity; name, colour and badges follow their newest message. Kick's `expires_at`
 * is wrong (docs/features/kick-events-and-bans.md#subscriber-status): a message without the
 * subscriber badge, newer than the last subscription event, ends the subscription there.
 */
export async function recordChatActivity(db: DbOrTx, message: ChatMessage, at: Date): Promise<void> {
  const t = kickChatActivity;
  const newer = sql`(${t.lastMessageAt} IS NULL OR excluded.last_message_at >= ${t.lastMessageAt})`;
  const lapsed = sql`(NOT excluded.is_subscriber AND ${newer}
                      AND (${t.subscribedAt} IS NULL OR excluded.last_message_at > ${t.subscribedAt}))`;
  await db
    .insert(t)
    .values({
      kickUserId: message.kickUserId,
      kickUsername: message.kickUsername,
      color: message.color,
      isSubscriber: message.isSubscriber,
      badges: message.badges,
      lastMessageAt: at,
      updatedAt: at,
      firstSeenAt: at,
    })
    .onConflictDoUpdate({
      target: t.kickUserId,
      set: {
        kickUsername: sql`CASE WHEN ${newer} THEN excluded.kick_username ELSE ${t.kickUsername} END`,
        color: sql`CASE WHEN ${newer} THEN excluded.color ELSE ${t.color} END`,
        isSubscriber: sql`CASE WHEN ${newer} THEN excluded.is_subscriber ELSE ${t.isSubscriber} END`,
        badges: sql`CASE WHEN ${newer} THEN excluded.badges ELSE ${t.badges} END`,
        subscribedUntil: sql`CASE WHEN ${lapsed} THEN NULL ELSE ${t.subscribedUntil} END`,
        lastMessageAt: sql`GREATEST(${t.lastMessageAt}, excluded.last_message_at)`,
        updatedAt: at,
        // The account-age rule counts from here (docs/features/fair-earning.md#account-and-link-age).
        firstSeenAt: sql`coalesce(${t.firstSeenAt}, excluded.first_seen_at)`,
      },
    });
}

/** Subscription events: the subscriber counts as one until the event's end (or a month). */
export async function recordSubscribers(db: DbOrTx, subscribers: KickSubscriber[], at: Date): Promise<void> {
  const t = kickChatActivity;
  for (const s of subscribers) {
    const until = s.expiresAt ?? new Date(at.getTime() + ASSUMED_SUBSCRIPTION_MS);
    if (s.kickUserId) {
      await db
        .insert(t)
        .values({
          kickUserId: s.kickUserId,
          kickUsername: s.kickUsername,
          isSubscriber: true,
          subscribedUntil: until,
          subscribedAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: t.kickUserId,
          set: {
            isSubscriber: true,
            subscribedUntil: sql`GREATEST(${t.subscribedUntil}, excluded.subscribed_until)`,
            subscribedAt: sql`GREATEST(${t.subscribedAt}, excluded.subscribed_at)`,
            updatedAt: at,
          },
        });
    } else {
      // The websocket names subscribers only by username: update chatters we already know.
      await db
        .update(t)
        .set({
          isSubscriber: true,
          subscribedUntil: sql`GREATEST(${t.subscribedUntil}, ${until})`,
          subscribedAt: sql`GREATEST(${t.subscribedAt}, ${at})`,
          updatedAt: at,
        })
        .where(eq(sql`lower(${t.kickUsername})`, s.kickUsername.toLowerCase()));
    }
  }
}

/** Whether a chatter is a subscriber at `now`: the badge on their newest message, or a subscription still running. */
export function isSubscribedNow(
  row: Pick<KickChatActivityRow, 'isSubscriber' | 'subscribedUntil'>,
  now: Date,
): boolean {
  return row.isSubscriber || (row.subscribedUntil !== null && row.subscribedUntil > now);
}

export async function findChatActivity(db: DbOrTx, kickUserId: string): Promise<KickChatActivityRow | null> {
  const [row] = await db.select().from(kickChatActivity).where(eq(kickChatActivity.kickUserId, kickUserId));
  return row ?? null;
}

export async function recentChatters(db: DbOrTx, limit: number): Promise<KickChatActivityRow[]> {
  return db
    .select()
    .from(kickChatActivity)
    .orderBy(sql`${kickChatActivity.lastMessageAt} DESC NULLS LAST`, desc(kickChatActivity.updatedAt))
    .limit(limit);
}

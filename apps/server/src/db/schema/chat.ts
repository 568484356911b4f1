import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const kickWebhookDeliveries = pgTable(
  'kick_webhook_deliveries',
  {
    messageId: text('message_id').primaryKey(),
    eventType: text('event_type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('kick_webhook_deliveries_received').on(t.receivedAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    messageId: text('message_id').primaryKey(),
    source: text('source').notNull(),
    kickUserId: text('kick_user_id').notNull(),
    kickUsername: text('kick_username').notNull(),
    color: text('color'),
    isSubscriber: boolean('is_subscriber').notNull(),
    badges: text('badges').array().notNull().default([]),
    content: text('content').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    linkedUserId: uuid('linked_user_id').references(() => users.id, { onDelete: 'set null' }),
    handledBy: text('handled_by'),
    replies: text('replies').array().notNull().default([]),
    errors: text('errors').array().notNull().default([]),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** While unprocessed: until when the process that recorded it owns it (a lease). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  },
  (t) => [
    index('chat_messages_received').on(t.receivedAt.desc()),
    index('chat_messages_unprocessed')
      .on(t.claimedUntil)
      .where(sql`processed_at IS NULL`),
    index('chat_messages_kick_user').on(t.kickUserId, t.receivedAt.desc()),
  ],
);

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** Each Kick chatter's last activity; giveaway eligibility and sub-only rules read it. */
export const kickChatActivity = pgTable(
  'kick_chat_activity',
  {
    kickUserId: text('kick_user_id').primaryKey(),
    kickUsername: text('kick_username').notNull(),
    color: text('color'),
    isSubscriber: boolean('is_subscriber').notNull().default(false),
    badges: text('badges').array().notNull().default([]),
    subscribedUntil: timestamp('subscribed_until', { withTimezone: true }),
    /** When the newest subscription event for this account arrived. */
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** When this channel first saw the account (1260): the account-age rule. */
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }),
  },
  (t) => [
    index('kick_chat_activity_last_message').on(t.lastMessageAt.desc()),
    index('kick_chat_activity_username').on(sql`lower(${t.kickUsername})`),
  ],
);

export type KickChatActivityRow = typeof kickChatActivity.$inferSelect;

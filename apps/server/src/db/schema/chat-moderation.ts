/** Chat moderation filters: settings, log and link permits (1240_chat_moderation.sql). */
import { bigint, index, integer, jsonb, pgTable, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';

/** One row (id 1): the filters as Admin → Moderation saved them. */
export const chatModerationSettings = pgTable('chat_moderation_settings', {
  id: smallint('id').primaryKey().default(1),
  settings: jsonb('settings').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every action and warning; the unique message id lets one process act on a message, once. */
export const chatModerationLog = pgTable(
  'chat_moderation_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    messageId: text('message_id').notNull(),
    kickUserId: text('kick_user_id').notNull(),
    kickUsername: text('kick_username').notNull(),
    rule: text('rule').notNull(),
    content: text('content').notNull(),
    action: text('action').notNull(),
    timeoutMinutes: integer('timeout_minutes'),
    outcome: text('outcome').notNull().default('pending'),
    kickStatus: integer('kick_status'),
    kickAnswer: text('kick_answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('chat_moderation_log_message').on(t.messageId),
    index('chat_moderation_log_sender').on(t.kickUserId, t.createdAt),
    index('chat_moderation_log_created').on(t.createdAt),
  ],
);

/** A moderator's `!permit <user>`: one link allowed until `until` (lower-case Kick name). */
export const chatModerationPermits = pgTable('chat_moderation_permits', {
  kickUsername: text('kick_username').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The latest Kick ban (`moderation.banned`) of each Kick account: `expiresAt` null is permanent,
 * `liftedAt` set when an admin lifted it on the site. Keyed by the Kick account so a ban counts as
 * soon as the account is linked.
 */
export const kickBans = pgTable(
  'kick_bans',
  {
    kickUserId: text('kick_user_id').primaryKey(),
    kickUsername: text('kick_username').notNull(),
    reason: text('reason'),
    moderator: text('moderator'),
    bannedAt: timestamp('banned_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    messageId: text('message_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: uuid('lifted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('kick_bans_active')
      .on(t.expiresAt)
      .where(sql`lifted_at IS NULL`),
  ],
);
export type KickBanRow = typeof kickBans.$inferSelect;

/** The last delivery of each Kick event type ever processed (the deliveries are kept a day). */
export const kickEventLastSeen = pgTable('kick_event_last_seen', {
  eventType: text('event_type').primaryKey(),
  lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull(),
});

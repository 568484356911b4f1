import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const discordBroadcasts = pgTable(
  'discord_broadcasts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    message: text('message').notNull(),
    audience: jsonb('audience').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    total: integer('total').notNull(),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByLabel: text('created_by_label').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    index('discord_broadcasts_newest').on(t.createdAt.desc()),
    index('discord_broadcasts_open')
      .on(t.createdAt)
      .where(sql`${t.status} IN ('pending', 'running')`),
  ],
);
export type DiscordBroadcastRow = typeof discordBroadcasts.$inferSelect;

export const discordBroadcastRecipients = pgTable(
  'discord_broadcast_recipients',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    broadcastId: uuid('broadcast_id')
      .notNull()
      .references(() => discordBroadcasts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    discordId: text('discord_id'),
    discordUsername: text('discord_username'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    unique().on(t.broadcastId, t.discordId),
    index('discord_broadcast_recipients_pending')
      .on(t.broadcastId, t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);
export type DiscordBroadcastRecipientRow = typeof discordBroadcastRecipients.$inferSelect;

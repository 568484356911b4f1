/** Custom chat commands and timers (1230_chat_commands.sql, docs/features/custom-commands.md). */
import {
  bigint,
  boolean,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const chatCommands = pgTable(
  'chat_commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    aliases: text('aliases').array().notNull().default([]),
    response: text('response').notNull(),
    userCooldownSeconds: integer('user_cooldown_seconds').notNull().default(0),
    globalCooldownSeconds: integer('global_cooldown_seconds').notNull().default(0),
    permission: text('permission').notNull().default('everyone'),
    liveOnly: boolean('live_only').notNull().default(false),
    cost: numeric('cost', { precision: 18, scale: 2 }).notNull().default('0'),
    enabled: boolean('enabled').notNull().default(true),
    uses: bigint('uses', { mode: 'number' }).notNull().default(0),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_commands_name').on(t.name)],
);
export type ChatCommandRow = typeof chatCommands.$inferSelect;

export const chatCommandUses = pgTable(
  'chat_command_uses',
  {
    commandId: uuid('command_id')
      .notNull()
      .references(() => chatCommands.id, { onDelete: 'cascade' }),
    kickUserId: text('kick_user_id').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.commandId, t.kickUserId] })],
);

export const chatBuiltinAliases = pgTable('chat_builtin_aliases', {
  alias: text('alias').primaryKey(),
  builtin: text('builtin').notNull(),
});

export const chatTimers = pgTable('chat_timers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  message: text('message').notNull(),
  intervalMinutes: integer('interval_minutes').notNull(),
  minLines: integer('min_lines').notNull(),
  liveOnly: boolean('live_only').notNull().default(true),
  enabled: boolean('enabled').notNull().default(true),
  position: integer('position').notNull().default(0),
  posts: bigint('posts', { mode: 'number' }).notNull().default(0),
  lastPostedAt: timestamp('last_posted_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ChatTimerRow = typeof chatTimers.$inferSelect;

/** One row: when the rotation last posted (the guard of a round). */
export const chatTimerRound = pgTable('chat_timer_round', {
  id: smallint('id').primaryKey().default(1),
  lastPostAt: timestamp('last_post_at', { withTimezone: true }),
});

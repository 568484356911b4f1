/** Discord roles and go-live posts (1250_discord_roles.sql, docs/features/discord-roles.md). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const discordRoleSettings = pgTable('discord_role_settings', {
  id: smallint('id').primaryKey().default(1),
  guildId: text('guild_id'),
  goLiveChannelId: text('go_live_channel_id'),
  /** Rule key → Discord role id (`linked`, `subscriber`, `vip`, `code:<field>`…). */
  roleIds: jsonb('role_ids').$type<Record<string, string>>().notNull().default({}),
  lastProblem: text('last_problem'),
  lastProblemAt: timestamp('last_problem_at', { withTimezone: true }),
  lastReconcileAt: timestamp('last_reconcile_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const discordRoleJobs = pgTable(
  'discord_role_jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    discordId: text('discord_id').notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    reconcile: boolean('reconcile').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('discord_role_jobs_one_pending')
      .on(t.discordId)
      .where(sql`status = 'pending'`),
    index('discord_role_jobs_due')
      .on(t.notBefore)
      .where(sql`status = 'pending'`),
  ],
);

export const discordRoleMembers = pgTable('discord_role_members', {
  discordId: text('discord_id').primaryKey(),
  desired: text('desired').array().notNull().default([]),
  applied: text('applied').array().notNull().default([]),
  note: text('note'),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
});

export const discordGoLivePosts = pgTable(
  'discord_go_live_posts',
  {
    streamKey: text('stream_key').primaryKey(),
    title: text('title'),
    category: text('category'),
    status: text('status', { enum: ['pending', 'posted', 'failed'] })
      .notNull()
      .default('pending'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    messageId: text('message_id'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }),
  },
  (t) => [
    index('discord_go_live_posts_pending')
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

export const discordSubGifters = pgTable('discord_sub_gifters', {
  kickUserId: text('kick_user_id').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

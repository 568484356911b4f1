/** Support rewards and the channel-points bridge (1020_support_rewards.sql). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

export const supportRewardKinds = ['sub', 'gift', 'kicks', 'follow'] as const;
export type SupportRewardKind = (typeof supportRewardKinds)[number];
export const supportRewardStatuses = ['pending', 'held', 'paid', 'capped', 'skipped', 'expired', 'reversed'] as const;
export type SupportRewardStatus = (typeof supportRewardStatuses)[number];

/** One row (id 1): the amounts, the daily cap per user per kind, the pending window. */
export const supportRewardSettings = pgTable('support_reward_settings', {
  id: smallint('id').primaryKey().default(1),
  enabled: boolean('enabled').notNull().default(true),
  subPoints: numeric('sub_points', { precision: 18, scale: 2 }).notNull(),
  giftPoints: numeric('gift_points', { precision: 18, scale: 2 }).notNull(),
  kickPoints: numeric('kick_points', { precision: 18, scale: 2 }).notNull(),
  followPoints: numeric('follow_points', { precision: 18, scale: 2 }).notNull(),
  dailyCap: numeric('daily_cap', { precision: 18, scale: 2 }).notNull(),
  pendingHours: integer('pending_hours').notNull(),
  /** Gifted subs wait this long as `held` before they pay (0 = at once), 1170_support_gift_hold.sql. */
  giftHoldMinutes: integer('gift_hold_minutes').notNull().default(5),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const supportRewards = pgTable(
  'support_rewards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    kind: text('kind', { enum: supportRewardKinds }).notNull(),
    kickUserId: text('kick_user_id'),
    kickUsername: text('kick_username'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    units: integer('units').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull().default('0'),
    status: text('status', { enum: supportRewardStatuses }).notNull(),
    note: text('note'),
    eventAt: timestamp('event_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** A `held` gift pays at this time unless reversed first. */
    holdUntil: timestamp('hold_until', { withTimezone: true }),
    ledgerId: bigint('ledger_id', { mode: 'number' }),
    announced: boolean('announced').notNull().default(true),
    reversedBy: uuid('reversed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_rewards_pending')
      .on(t.kickUserId)
      .where(sql`status = 'pending'`),
    index('support_rewards_held')
      .on(t.id)
      .where(sql`status = 'held'`),
    index('support_rewards_user_day').on(t.userId, t.kind, t.paidAt),
    index('support_rewards_unannounced')
      .on(t.id)
      .where(sql`NOT announced`),
    index('support_rewards_newest').on(t.id.desc()),
  ],
);
export type SupportRewardRow = typeof supportRewards.$inferSelect;

export const kickChannelRewards = pgTable('kick_channel_rewards', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  cost: integer('cost').notNull(),
  points: numeric('points', { precision: 18, scale: 2 }).notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kickRewardRedemptions = pgTable(
  'kick_reward_redemptions',
  {
    id: text('id').primaryKey(),
    rewardId: text('reward_id').notNull(),
    kickUserId: text('kick_user_id'),
    kickUsername: text('kick_username'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    points: numeric('points', { precision: 18, scale: 2 }).notNull().default('0'),
    outcome: text('outcome', { enum: ['accepted', 'rejected'] }).notNull(),
    reason: text('reason'),
    ledgerId: bigint('ledger_id', { mode: 'number' }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('kick_reward_redemptions_unsettled')
      .on(t.createdAt)
      .where(sql`settled_at IS NULL`),
  ],
);

/** Earning that cannot be farmed (1260_fair_earning.sql, docs/features/fair-earning.md). */
import { date, index, integer, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One row (id 1): the daily caps, the real-chat gate, the age rules and the signals' retention. */
export const fairEarningSettings = pgTable('fair_earning_settings', {
  id: smallint('id').primaryKey().default(1),
  /** Points per user per UTC day from channel-point conversions; 0 = no cap. */
  channelPointsDailyCap: numeric('channel_points_daily_cap', { precision: 18, scale: 2 }).notNull().default('0'),
  /** Points per user per UTC day from chat minutes; 0 = no cap. */
  chatPointsDailyCap: numeric('chat_points_daily_cap', { precision: 18, scale: 2 }).notNull().default('0'),
  /** Distinct linked chatters needed in the last 10 minutes for chat points; 0 = off. */
  realChatMinChatters: integer('real_chat_min_chatters').notNull().default(0),
  minKickAccountDays: integer('min_kick_account_days').notNull().default(0),
  minLinkDays: integer('min_link_days').notNull().default(0),
  signalRetentionDays: integer('signal_retention_days').notNull().default(90),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type FairEarningSettingsRow = typeof fairEarningSettings.$inferSelect;

/** What each user earned per kind and UTC day, checked against the daily caps. */
export const earningDailyTotals = pgTable(
  'earning_daily_totals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull().default('0'),
    /** What the last conditional update granted (read back by the same statement). */
    lastGranted: numeric('last_granted', { precision: 18, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.day] }), index('earning_daily_totals_day').on(t.day)],
);

/** Keyed hashes of a sign-in address, a device cookie or a partner id, per user (never the value). */
export const accountSignals = pgTable(
  'account_signals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    hash: text('hash').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.hash] }),
    index('account_signals_hash').on(t.kind, t.hash),
    index('account_signals_last_seen').on(t.lastSeenAt),
  ],
);

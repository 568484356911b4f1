import {
  bigint,
  boolean,
  date,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

export const dailyRewardPolicies = pgTable('daily_reward_policies', {
  rewardType: smallint('reward_type').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
  earningsPercent: numeric('earnings_percent', { precision: 9, scale: 4 }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type DailyRewardPolicyRow = typeof dailyRewardPolicies.$inferSelect;

export const dailyRewardClaims = pgTable(
  'daily_reward_claims',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rewardType: smallint('reward_type').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    unit: text('unit').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('daily_reward_claims_once_per_day').on(t.userId, t.rewardType, t.day)],
);

export const partnerDailyWagers = pgTable(
  'partner_daily_wagers',
  {
    site: smallint('site').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    playerName: text('player_name').notNull(),
    wagered: numeric('wagered', { precision: 18, scale: 2 }).notNull(),
    weightedWagered: numeric('weighted_wagered', { precision: 18, scale: 2 }),
  },
  (t) => [primaryKey({ columns: [t.site, t.day, t.playerName] })],
);

export const partnerDailyFetches = pgTable(
  'partner_daily_fetches',
  {
    site: smallint('site').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    players: integer('players').notNull(),
  },
  (t) => [primaryKey({ columns: [t.site, t.day] })],
);

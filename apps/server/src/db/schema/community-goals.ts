/**
 * Community wager goals (1220_community_goals.sql, docs/features/community-goal.md): one per
 * partner site, with its progress per leaderboard period.
 */
import { bigint, boolean, numeric, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { leaderboardPeriods } from './leaderboards';

export const communityGoals = pgTable('community_goals', {
  site: smallint('site').primaryKey(),
  title: text('title').notNull(),
  target: numeric('target', { precision: 18, scale: 2 }).notNull(),
  reward: text('reward').notNull().default(''),
  active: boolean('active').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const communityGoalPeriods = pgTable('community_goal_periods', {
  periodId: bigint('period_id', { mode: 'number' })
    .primaryKey()
    .references(() => leaderboardPeriods.id, { onDelete: 'cascade' }),
  site: smallint('site').notNull(),
  progress: numeric('progress', { precision: 18, scale: 2 }).notNull().default('0'),
  reachedAt: timestamp('reached_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

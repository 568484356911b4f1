import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
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

export const leaderboardSites = pgTable('leaderboard_sites', {
  site: smallint('site').primaryKey(),
  shown: boolean('shown').notNull().default(true),
  periodAnchor: timestamp('period_anchor', { withTimezone: true }).notNull(),
  periodDays: integer('period_days').notNull().default(7),
  pointsPerUnit: numeric('points_per_unit', { precision: 10, scale: 2 }).notNull().default('10'),
  rewardUnit: text('reward_unit', { enum: ['USD', 'gems', 'coins'] }).notNull(),
  rewards: jsonb('rewards').notNull().default([]),
  codes: jsonb('codes').notNull().default([]),
  referralUrl: text('referral_url'),
  excludedNames: jsonb('excluded_names').notNull().default([]),
  nextPollAt: timestamp('next_poll_at', { withTimezone: true }).notNull(),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type LeaderboardSiteRow = typeof leaderboardSites.$inferSelect;

export const leaderboardPeriods = pgTable(
  'leaderboard_periods',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    site: smallint('site').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    rewardUnit: text('reward_unit'),
  },
  (t) => [
    unique().on(t.site, t.startAt),
    index('leaderboard_periods_site_end').on(t.site, t.endAt.desc()),
    index('leaderboard_periods_open')
      .on(t.site)
      .where(sql`${t.status} = 'open'`),
  ],
);
export type LeaderboardPeriodRow = typeof leaderboardPeriods.$inferSelect;

export const leaderboardStandings = pgTable(
  'leaderboard_standings',
  {
    periodId: bigint('period_id', { mode: 'number' }).notNull(),
    playerKey: text('player_key').notNull(),
    username: text('username').notNull(),
    externalId: text('external_id'),
    avatarUrl: text('avatar_url'),
    wagered: numeric('wagered', { precision: 18, scale: 2 }).notNull(),
    weightedWagered: numeric('weighted_wagered', { precision: 18, scale: 2 }),
    unit: text('unit').notNull(),
    onCode: boolean('on_code').notNull().default(true),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
    credited: numeric('credited', { precision: 18, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.periodId, t.playerKey] })],
);
export type LeaderboardStandingRow = typeof leaderboardStandings.$inferSelect;

export const leaderboardResults = pgTable(
  'leaderboard_results',
  {
    periodId: bigint('period_id', { mode: 'number' }).notNull(),
    rank: integer('rank').notNull(),
    playerKey: text('player_key').notNull(),
    username: text('username').notNull(),
    externalId: text('external_id'),
    avatarUrl: text('avatar_url'),
    rankedAmount: numeric('ranked_amount', { precision: 18, scale: 2 }).notNull(),
    isActive: boolean('is_active').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    reward: numeric('reward', { precision: 18, scale: 2 }),
    rewardBonus: numeric('reward_bonus', { precision: 18, scale: 2 }),
    fulfilmentId: bigint('fulfilment_id', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.periodId, t.rank] })],
);
export type LeaderboardResultRow = typeof leaderboardResults.$inferSelect;

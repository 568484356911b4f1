/** The milestone ladder of each partner site (1200_milestones.sql, docs/features/milestone-rewards.md). */
import {
  bigint,
  boolean,
  index,
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

export const milestoneLadders = pgTable('milestone_ladders', {
  site: smallint('site').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  automatic: boolean('automatic').notNull().default(false),
  cycle: text('cycle', { enum: ['period', 'all_time'] })
    .notNull()
    .default('period'),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type MilestoneLadderRow = typeof milestoneLadders.$inferSelect;

export const milestoneTiers = pgTable(
  'milestone_tiers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    site: smallint('site')
      .notNull()
      .references(() => milestoneLadders.site, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
    threshold: numeric('threshold', { precision: 18, scale: 2 }).notNull(),
    rewardKind: text('reward_kind', { enum: ['points', 'cash'] }).notNull(),
    rewardAmount: numeric('reward_amount', { precision: 18, scale: 2 }).notNull(),
  },
  (t) => [unique().on(t.site, t.threshold)],
);
export type MilestoneTierRow = typeof milestoneTiers.$inferSelect;

/** One row per (site, cycle, linked viewer): the cycle's wager and what the cycle paid. */
export const milestoneProgress = pgTable(
  'milestone_progress',
  {
    site: smallint('site').notNull(),
    cycleKey: text('cycle_key').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    wagered: numeric('wagered', { precision: 18, scale: 2 }).notNull().default('0'),
    paidThreshold: numeric('paid_threshold', { precision: 18, scale: 2 }).notNull().default('0'),
    paidPoints: numeric('paid_points', { precision: 18, scale: 2 }).notNull().default('0'),
    paidCash: numeric('paid_cash', { precision: 18, scale: 2 }).notNull().default('0'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.site, t.cycleKey, t.userId] }), index('milestone_progress_user').on(t.userId)],
);

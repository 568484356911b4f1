/** Limits on prizes a Moderator sets, and the tally they are checked against (0960_staff_prize_limits.sql). */
import { bigint, date, index, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One row (id 1): the per-event and per-UTC-day caps, in points. */
export const staffPrizeLimits = pgTable('staff_prize_limits', {
  id: smallint('id').primaryKey().default(1),
  perEvent: numeric('per_event', { precision: 18, scale: 2 }).notNull(),
  perDay: numeric('per_day', { precision: 18, scale: 2 }).notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each capped prize paid straight through the ledger (not held back), by UTC day. */
export const staffPrizePayouts = pgTable(
  'staff_prize_payouts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_prize_payouts_day').on(t.day)],
);

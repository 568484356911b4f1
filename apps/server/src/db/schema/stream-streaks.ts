/**
 * Stream streaks (1221_stream_streaks.sql, docs/features/stream-streaks.md): live sessions, one
 * attendance per (user, session), each user's streak, the bonus per length and the bonuses paid.
 */
import { bigint, integer, numeric, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const streamSessions = pgTable('stream_sessions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().unique(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
});

export const streamAttendance = pgTable(
  'stream_attendance',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => streamSessions.id, { onDelete: 'cascade' }),
    streak: integer('streak').notNull(),
    attendedAt: timestamp('attended_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId] })],
);

export const streamStreaks = pgTable('stream_streaks', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  current: integer('current').notNull().default(0),
  best: integer('best').notNull().default(0),
  lastSessionId: bigint('last_session_id', { mode: 'number' }).references(() => streamSessions.id, {
    onDelete: 'set null',
  }),
  lost: integer('lost').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const streamStreakBonuses = pgTable('stream_streak_bonuses', {
  length: integer('length').primaryKey(),
  points: numeric('points', { precision: 18, scale: 2 }).notNull(),
});

export const streamStreakPayouts = pgTable(
  'stream_streak_payouts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => streamSessions.id, { onDelete: 'cascade' }),
    length: integer('length').notNull(),
    points: numeric('points', { precision: 18, scale: 2 }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId, t.length] })],
);

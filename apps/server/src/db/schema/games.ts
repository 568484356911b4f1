import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SplitOrStealStatusCode } from '@kickback/common/games/split-or-steal';
import { users } from './users';

/** Pending phase deadlines of live games (games/timers). */
export const gameTimers = pgTable(
  'game_timers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    version: integer('version').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.kind, t.subjectId, t.version), index('game_timers_due').on(t.dueAt)],
);

/** Chat of live games, one room per game (games/chat). */
export const gameChatMessages = pgTable(
  'game_chat_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    room: text('room').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('game_chat_room_newest').on(t.room, t.id.desc())],
);

export const splitOrStealGames = pgTable(
  'split_or_steal_games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: smallint('status').$type<SplitOrStealStatusCode>().notNull().default(0),
    version: integer('version').notNull().default(1),
    reward: numeric('reward', { precision: 18, scale: 2 }).notNull(),
    counterSeconds: integer('counter_seconds').notNull(),
    isPrivate: boolean('is_private').notNull().default(false),
    designated1UserId: uuid('designated1_user_id').references(() => users.id, { onDelete: 'set null' }),
    designated2UserId: uuid('designated2_user_id').references(() => users.id, { onDelete: 'set null' }),
    player1UserId: uuid('player1_user_id').references(() => users.id, { onDelete: 'set null' }),
    player2UserId: uuid('player2_user_id').references(() => users.id, { onDelete: 'set null' }),
    player1Selection: smallint('player1_selection'),
    player2Selection: smallint('player2_selection'),
    player1Answer1: smallint('player1_answer1').notNull(),
    player1Answer2: smallint('player1_answer2').notNull(),
    player2Answer1: smallint('player2_answer1').notNull(),
    player2Answer2: smallint('player2_answer2').notNull(),
    player1Winnings: numeric('player1_winnings', { precision: 18, scale: 2 }),
    player2Winnings: numeric('player2_winnings', { precision: 18, scale: 2 }),
    phaseEndsAt: timestamp('phase_ends_at', { withTimezone: true }),
    phaseVersion: integer('phase_version'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('split_or_steal_games_newest').on(t.createdAt.desc())],
);
export type SplitOrStealRow = typeof splitOrStealGames.$inferSelect;

/** Games stored by the engine as versioned JSON state (games/store.ts). */
export const liveGames = pgTable(
  'live_games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Creation order, for games made at the same clock instant. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    version: integer('version').notNull().default(1),
    state: jsonb('state').notNull(),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who created the game, where its owner is someone else (Deal or No Deal's player; 1100). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Whose action finished the game (a battle's final; 1181). */
    finishedBy: uuid('finished_by').references(() => users.id, { onDelete: 'set null' }),
    phaseEndsAt: timestamp('phase_ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_games_kind_newest').on(t.kind, t.createdAt.desc())],
);
export type LiveGameRow = typeof liveGames.$inferSelect;

/** The bonus hunt's tables (0900_bonus_hunt.sql). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const hunts = pgTable(
  'hunts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    status: text('status', { enum: ['running', 'finished'] })
      .notNull()
      .default('running'),
    startCost: money('start_cost').notNull(),
    guessPrize: money('guess_prize').notNull().default('0'),
    guessing: text('guessing', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    guessingClosedAt: timestamp('guessing_closed_at', { withTimezone: true }),
    guessesHash: text('guesses_hash'),
    winnerUserId: uuid('winner_user_id').references(() => users.id, { onDelete: 'set null' }),
    winnerKickUsername: text('winner_kick_username'),
    winnerAmount: money('winner_amount'),
    prizeLedgerId: bigint('prize_ledger_id', { mode: 'number' }),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('hunts_one_running')
      .on(sql`(${t.status} = 'running')`)
      .where(sql`${t.status} = 'running'`),
    index('hunts_created').on(t.createdAt.desc()),
  ],
);
export type HuntRow = typeof hunts.$inferSelect;

export const huntBonuses = pgTable(
  'hunt_bonuses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    huntId: uuid('hunt_id')
      .notNull()
      .references(() => hunts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    slot: text('slot').notNull(),
    provider: text('provider').notNull().default(''),
    bet: money('bet').notNull(),
    cost: money('cost').notNull().default('0'),
    payout: money('payout'),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    /** The Kick name of the viewer whose slot call this bonus came from (../slot-calls). */
    calledBy: text('called_by'),
  },
  (t) => [unique('hunt_bonuses_position').on(t.huntId, t.position)],
);
export type HuntBonusRow = typeof huntBonuses.$inferSelect;

export const huntGuesses = pgTable(
  'hunt_guesses',
  {
    huntId: uuid('hunt_id')
      .notNull()
      .references(() => hunts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kickUsername: text('kick_username').notNull(),
    amount: money('amount').notNull(),
    guessedAt: timestamp('guessed_at', { withTimezone: true }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.huntId, t.userId] }), index('hunt_guesses_order').on(t.huntId, t.guessedAt, t.seq)],
);

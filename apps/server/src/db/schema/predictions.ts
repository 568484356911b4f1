/** Chat predictions: escrowed bets and settled pools (migration 0800_predictions.sql). */
import { integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { liveGames } from './games';
import { users } from './users';

export const predictionBets = pgTable(
  'prediction_bets',
  {
    predictionId: uuid('prediction_id')
      .notNull()
      .references(() => liveGames.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answerId: integer('answer_id').notNull(),
    stake: numeric('stake', { precision: 18, scale: 2 }).notNull(),
    payout: numeric('payout', { precision: 18, scale: 2 }),
    bets: integer('bets').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.predictionId, t.userId] })],
);
export type PredictionBetRow = typeof predictionBets.$inferSelect;

export const predictionSettlements = pgTable('prediction_settlements', {
  predictionId: uuid('prediction_id')
    .primaryKey()
    .references(() => liveGames.id, { onDelete: 'cascade' }),
  outcome: text('outcome', { enum: ['resolved', 'refunded', 'cancelled'] }).notNull(),
  winningAnswerId: integer('winning_answer_id'),
  pool: numeric('pool', { precision: 18, scale: 2 }).notNull(),
  paid: numeric('paid', { precision: 18, scale: 2 }).notNull(),
  remainder: numeric('remainder', { precision: 18, scale: 2 }).notNull(),
  settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
});

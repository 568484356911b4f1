import { index, integer, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const challenges = pgTable(
  'challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    price: numeric('price', { precision: 18, scale: 2 }).notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    status: smallint('status').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    winnerUserId: uuid('winner_user_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('challenges_category_status').on(t.category, t.status)],
);
export type ChallengeRow = typeof challenges.$inferSelect;

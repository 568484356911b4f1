/** Ticket raffles (1030_raffles.sql, docs/features/raffles.md). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { raffleStatuses, ticketSources } from '@kickback/common/http/raffles';
import { users } from './users';

export const raffles = pgTable(
  'raffles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    imageUrl: text('image_url'),
    status: text('status', { enum: raffleStatuses }).notNull().default('draft'),
    ticketPrice: numeric('ticket_price', { precision: 18, scale: 2 }).notNull(),
    maxTicketsPerUser: integer('max_tickets_per_user').notNull(),
    requireKick: boolean('require_kick').notNull().default(false),
    requireVerifiedPartner: boolean('require_verified_partner').notNull().default(false),
    subsOnly: boolean('subs_only').notNull().default(false),
    sellTickets: boolean('sell_tickets').notNull().default(true),
    ticketsPerSub: integer('tickets_per_sub').notNull().default(0),
    subCap: integer('sub_cap').notNull().default(0),
    ticketsPerGift: integer('tickets_per_gift').notNull().default(0),
    giftCap: integer('gift_cap').notNull().default(0),
    kicksPerTicket: integer('kicks_per_ticket').notNull().default(0),
    kicksCap: integer('kicks_cap').notNull().default(0),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    version: integer('version').notNull().default(1),
    seedHash: text('seed_hash'),
    serverSeed: text('server_seed'),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    snapshot: text('snapshot'),
    snapshotHash: text('snapshot_hash'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('raffles_status').on(t.status, t.closesAt.desc())],
);
export type RaffleRow = typeof raffles.$inferSelect;

export const rafflePrizes = pgTable(
  'raffle_prizes',
  {
    raffleId: uuid('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['points', 'item'] }).notNull(),
    points: numeric('points', { precision: 18, scale: 2 }),
    item: text('item'),
  },
  (t) => [primaryKey({ columns: [t.raffleId, t.position] })],
);
export type RafflePrizeRow = typeof rafflePrizes.$inferSelect;

/** Each owner's tally in a raffle: the row a purchase or a grant locks, so the cap holds. */
export const raffleEntries = pgTable(
  'raffle_entries',
  {
    raffleId: uuid('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tickets: integer('tickets').notNull().default(0),
    bought: integer('bought').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.raffleId, t.userId] })],
);

/** Every acquisition of tickets: its source, how many, what it cost, and its refund. */
export const raffleTickets = pgTable(
  'raffle_tickets',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    raffleId: uuid('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ticketSources }).notNull(),
    quantity: integer('quantity').notNull(),
    pointsPaid: numeric('points_paid', { precision: 18, scale: 2 }).notNull().default('0'),
    eventId: text('event_id'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('raffle_tickets_user').on(t.userId, t.id.desc()),
    index('raffle_tickets_raffle').on(t.raffleId, t.userId),
    uniqueIndex('raffle_tickets_event')
      .on(t.raffleId, t.source, t.eventId)
      .where(sql`${t.eventId} IS NOT NULL`),
  ],
);

export const raffleWinners = pgTable(
  'raffle_winners',
  {
    raffleId: uuid('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    prize: text('prize').notNull(),
  },
  (t) => [primaryKey({ columns: [t.raffleId, t.position] })],
);

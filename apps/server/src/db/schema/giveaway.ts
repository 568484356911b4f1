/** The chat giveaway's tables (0840_giveaway.sql). */
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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { users } from './users';

/** One row (id 1): the settings, the current round and the last roll's winners. */
export const giveawaySettings = pgTable('giveaway_settings', {
  id: smallint('id').primaryKey().default(1),
  isSubOnly: boolean('is_sub_only').notNull().default(false),
  isClashIdLinkedOnly: boolean('is_clash_id_linked_only').notNull().default(false),
  isRustMagicCodeOnly: boolean('is_rust_magic_code_only').notNull().default(false),
  isRoobetCodeOnly: boolean('is_roobet_code_only').notNull().default(false),
  subLuck: smallint('sub_luck').notNull().default(1),
  chatActivityFilterSeconds: integer('chat_activity_filter_seconds').notNull().default(0),
  rewinCooldownSeconds: integer('rewin_cooldown_seconds').notNull().default(86400),
  winnersPerRoll: smallint('winners_per_roll').notNull().default(1),
  prizePoints: numeric('prize_points', { precision: 18, scale: 2 }).notNull().default('0'),
  /** "Linked at least N days" (1280): 0 is off. */
  minLinkedDays: integer('min_linked_days').notNull().default(0),
  roundId: bigint('round_id', { mode: 'number' }).notNull().default(1),
  recentClearedAt: timestamp('recent_cleared_at', { withTimezone: true }),
  lastRollId: uuid('last_roll_id'),
  lastWinnerKickIds: text('last_winner_kick_ids').array().notNull().default([]),
  /** Who last saved the settings (the prize): a Moderator's prize is capped (modules/staff-prizes). */
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type GiveawaySettingsRow = typeof giveawaySettings.$inferSelect;

export const giveawayKeys = pgTable('giveaway_keys', {
  keyLower: text('key_lower').primaryKey(),
  key: text('key').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const giveawayParticipants = pgTable(
  'giveaway_participants',
  {
    roundId: bigint('round_id', { mode: 'number' }).notNull(),
    kickUserId: text('kick_user_id').notNull(),
    kickUsername: text('kick_username').notNull(),
    /** The Kick user id and name as JSON strings, comma-separated: what the roll reads (0845). */
    drawEntry: text('draw_entry').notNull(),
    color: text('color'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roundId, t.kickUserId] }),
    index('giveaway_participants_entered').on(t.roundId, t.enteredAt),
  ],
);

/**
 * Participants per round, kept by statement-level triggers on `giveaway_participants` (0950): the
 * count the admin state and the overlay show, read as one row.
 */
export const giveawayRoundCounts = pgTable('giveaway_round_counts', {
  roundId: bigint('round_id', { mode: 'number' }).primaryKey(),
  participants: integer('participants').notNull(),
});

export const giveawayDraws = pgTable(
  'giveaway_draws',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serverSeed: text('server_seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    committedAt: timestamp('committed_at', { withTimezone: true }).notNull(),
    rolledAt: timestamp('rolled_at', { withTimezone: true }),
    rolledBy: uuid('rolled_by').references(() => users.id, { onDelete: 'set null' }),
    roundId: bigint('round_id', { mode: 'number' }),
    /** Rolls before migration 0845; later rolls store `snapshotGz`. */
    snapshot: jsonb('snapshot'),
    /** The hashed snapshot text, gzip-compressed (0845). */
    snapshotGz: bytea('snapshot_gz'),
    eligibleCount: integer('eligible_count'),
    snapshotHash: text('snapshot_hash'),
    winnersWanted: smallint('winners_wanted'),
    prizePoints: numeric('prize_points', { precision: 18, scale: 2 }),
  },
  (t) => [
    uniqueIndex('giveaway_draws_one_open')
      .on(sql`(${t.rolledAt} IS NULL)`)
      .where(sql`${t.rolledAt} IS NULL`),
    index('giveaway_draws_rolled').on(t.rolledAt.desc()),
  ],
);
export type GiveawayDrawRow = typeof giveawayDraws.$inferSelect;

export const giveawayWinners = pgTable(
  'giveaway_winners',
  {
    drawId: uuid('draw_id')
      .notNull()
      .references(() => giveawayDraws.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    kickUserId: text('kick_user_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    wonAt: timestamp('won_at', { withTimezone: true }).notNull(),
    entry: jsonb('entry').notNull(),
    prizeLedgerId: bigint('prize_ledger_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.drawId, t.position] }),
    unique('giveaway_winners_once_per_draw').on(t.drawId, t.kickUserId),
    index('giveaway_winners_kick').on(t.kickUserId, t.wonAt.desc()),
    index('giveaway_winners_won').on(t.wonAt.desc()),
  ],
);

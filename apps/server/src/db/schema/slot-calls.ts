/** Slot calls (1050_slot_calls.sql, docs/features/slot-calls.md). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { slotCallStatuses, unknownSlotPolicies } from '@kickback/common/http/slot-calls';
import { huntBonuses } from './hunt';
import { users } from './users';

const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** One row (id 1): whether calls are open, the rules, and the seed committed for the next pick. */
export const slotCallSettings = pgTable('slot_call_settings', {
  id: integer('id').primaryKey(),
  isOpen: boolean('is_open').notNull().default(false),
  maxPerViewer: integer('max_per_viewer').notNull().default(1),
  cooldownSeconds: integer('cooldown_seconds').notNull().default(0),
  cost: money('cost').notNull().default('0'),
  linkedOnly: boolean('linked_only').notNull().default(false),
  subsOnly: boolean('subs_only').notNull().default(false),
  maxQueue: integer('max_queue').notNull().default(50),
  unknownSlots: text('unknown_slots', { enum: unknownSlotPolicies }).notNull().default('accept'),
  blacklist: text('blacklist').array().notNull().default([]),
  payoutMultiplier: money('payout_multiplier').notNull().default('100'),
  payoutPoints: money('payout_points').notNull().default('0'),
  seedHash: text('seed_hash'),
  serverSeed: text('server_seed'),
  seedCommittedAt: timestamp('seed_committed_at', { withTimezone: true }),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type SlotCallSettingsRow = typeof slotCallSettings.$inferSelect;

export const slotCalls = pgTable(
  'slot_calls',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    messageId: text('message_id').notNull(),
    kickUserId: text('kick_user_id').notNull(),
    kickUsername: text('kick_username').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    slot: text('slot').notNull(),
    provider: text('provider'),
    typed: text('typed').notNull(),
    known: boolean('known').notNull(),
    status: text('status', { enum: slotCallStatuses }).notNull().default('queued'),
    cost: money('cost').notNull().default('0'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    huntBonusId: bigint('hunt_bonus_id', { mode: 'number' }).references(() => huntBonuses.id, {
      onDelete: 'set null',
    }),
    multiplier: money('multiplier'),
    payout: money('payout'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Who put the call in the hunt (1100): one of those who run its payout. */
    huntedBy: uuid('hunted_by').references(() => users.id, { onDelete: 'set null' }),
    calledAt: timestamp('called_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('slot_calls_message').on(t.messageId),
    uniqueIndex('slot_calls_hunt_bonus')
      .on(t.huntBonusId)
      .where(sql`${t.huntBonusId} IS NOT NULL`),
    index('slot_calls_waiting')
      .on(t.status, t.id)
      .where(sql`${t.status} IN ('queued', 'playing')`),
    index('slot_calls_caller').on(t.kickUserId, t.calledAt.desc()),
    index('slot_calls_resolved')
      .on(t.resolvedAt.desc())
      .where(sql`${t.resolvedAt} IS NOT NULL`),
  ],
);
export type SlotCallRow = typeof slotCalls.$inferSelect;

export const slotCallPicks = pgTable('slot_call_picks', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  callId: bigint('call_id', { mode: 'number' })
    .notNull()
    .references(() => slotCalls.id, { onDelete: 'cascade' }),
  seedHash: text('seed_hash').notNull(),
  serverSeed: text('server_seed').notNull(),
  committedAt: timestamp('committed_at', { withTimezone: true }).notNull(),
  snapshot: text('snapshot').notNull(),
  snapshotHash: text('snapshot_hash').notNull(),
  pickedBy: uuid('picked_by').references(() => users.id, { onDelete: 'set null' }),
  pickedAt: timestamp('picked_at', { withTimezone: true }).notNull(),
});

export const slotCatalogue = pgTable(
  'slot_catalogue',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    provider: text('provider').notNull(),
    slotKey: text('slot_key').notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('slot_catalogue_key').on(t.slotKey)],
);

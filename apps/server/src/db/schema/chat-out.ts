import { bigint, doublePrecision, index, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** The outgoing Kick chat queue: one row per bot message (docs/features/kick-chat-queue.md). */
export const chatOut = pgTable(
  'chat_out',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    topic: text('topic'),
    addressee: text('addressee'),
    body: text('body').notNull(),
    replyTo: text('reply_to'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    state: text('state').notNull().default('queued'),
    attempt: text('attempt'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    kickMessageId: text('kick_message_id'),
  },
  (t) => [
    index('chat_out_waiting')
      .on(t.state, t.id)
      .where(sql`state IN ('queued', 'sending')`),
    index('chat_out_done').on(t.doneAt),
  ],
);

/** The queue's one sender row: lease, token bucket, 429 pause, totals, posting mode, last refusal. */
export const chatOutSender = pgTable('chat_out_sender', {
  id: smallint('id').primaryKey().default(1),
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  tokens: doublePrecision('tokens'),
  refilledAt: timestamp('refilled_at', { withTimezone: true }),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  /** Paused by Kick's daily message quota until this UTC midnight (1171_chat_quota.sql). */
  quotaUntil: timestamp('quota_until', { withTimezone: true }),
  sent: bigint('sent', { mode: 'number' }).notNull().default(0),
  merged: bigint('merged', { mode: 'number' }).notNull().default(0),
  dropped: bigint('dropped', { mode: 'number' }).notNull().default(0),
  throttled: bigint('throttled', { mode: 'number' }).notNull().default(0),
  failed: bigint('failed', { mode: 'number' }).notNull().default(0),
  postingMode: text('posting_mode').notNull().default('streamer'),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  hint: text('hint'),
});

import { bigint, index, numeric, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { currencies } from './ledger';
import { users } from './users';

export const fulfilmentStatuses = ['pending', 'delivered', 'rejected'] as const;
export type FulfilmentStatus = (typeof fulfilmentStatuses)[number];

export const fulfilmentItems = pgTable(
  'fulfilment_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    amount: numeric('amount', { precision: 18, scale: 2 }),
    unit: text('unit'),
    status: text('status', { enum: fulfilmentStatuses }).notNull().default('pending'),
    refundCurrency: text('refund_currency', { enum: currencies }),
    refundAmount: numeric('refund_amount', { precision: 18, scale: 2 }),
    /** A held-back prize: delivering (an Admin's approval) pays this through the ledger. */
    creditCurrency: text('credit_currency', { enum: currencies }),
    creditAmount: numeric('credit_amount', { precision: 18, scale: 2 }),
    creditReason: text('credit_reason'),
    /**
     * Who ran the event the item came from, and when (1100): that person cannot deliver it, and
     * when they are not an Admin, a staff winner or an account newer than the event waits for one.
     */
    runBy: uuid('run_by').references(() => users.id, { onDelete: 'set null' }),
    runAt: timestamp('run_at', { withTimezone: true }),
    note: text('note'),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique().on(t.kind, t.reference),
    index('fulfilment_status').on(t.status, t.id.desc()),
    index('fulfilment_user').on(t.userId, t.id.desc()),
  ],
);

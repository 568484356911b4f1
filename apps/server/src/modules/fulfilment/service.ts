/**
 * The fulfilment queue: things a person must deliver (store orders, daily-reward payouts,
 * challenge prizes, leaderboard prizes, game wins). Features enqueue inside their own transaction;
 * (kind, reference) is unique, so enqueuing the same thing twice is a no-op.
 */
import { sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import type { Currency } from '../../db/schema/ledger';
import { rowsOf } from '../../db/rows';
import type { PrizeReason } from '../ledger/service';

export type FulfilmentKind =
  | 'order'
  | 'daily_reward'
  | 'challenge'
  | 'leaderboard'
  | 'split_or_steal'
  | 'deal_or_no_deal'
  | 'giveaway'
  | 'staff_prize'
  | 'raffle'
  | 'battle'
  | 'milestone';

export interface FulfilmentRequest {
  kind: FulfilmentKind;
  /** Unique per kind: the order id, "claim:<id>", "period:<site>:<start>:<rank>", … */
  reference: string;
  userId: string;
  description: string;
  amount?: number | string | null;
  /** What `amount` is in: 'points', 'gems', 'coins', 'USD', … */
  unit?: string | null;
  /** Rejecting the item refunds this through the ledger (e.g. the points an order cost). */
  refund?: { currency: Currency; amount: number | string } | null;
  /**
   * A prize held back for an Admin's approval (../staff-prizes): delivering the item pays this
   * through the ledger, and only an Admin may deliver it.
   */
  credit?: { currency: Currency; amount: number | string; reason: PrizeReason } | null;
  /**
   * Who ran the event the item is the prize of, and when (Deal or No Deal's creator): that person
   * cannot deliver it, and ./handling.ts asks for an Admin when they are not one and the winner is
   * staff or an account created or linked after the event was run.
   */
  runBy?: { userId: string; at: Date } | null;
}

/**
 * Of these references, those whose item of this kind still waits (pending): how a game's result
 * tells a prize held for an Admin's approval (kind `staff_prize`, docs/features/staff-prize-limits.md#what-happens-to-a-prize-of-a-moderator-run-event)
 * from one paid.
 */
export async function pendingReferences(db: DbOrTx, kind: FulfilmentKind, references: string[]): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const rows = rowsOf<{ reference: string }>(
    await db.execute(sql`
      SELECT reference FROM fulfilment_items
      WHERE kind = ${kind} AND status = 'pending'
        AND reference IN (SELECT jsonb_array_elements_text(${JSON.stringify(references)}::jsonb))
    `),
  );
  return new Set(rows.map((r) => r.reference));
}

/** Adds the item; returns its id, or null when (kind, reference) was already queued. */
export async function enqueueFulfilment(tx: DbOrTx, item: FulfilmentRequest): Promise<number | null> {
  const amount = item.amount === undefined || item.amount === null ? null : centsToText(toCents(item.amount));
  const refundAmount = item.refund ? centsToText(toCents(item.refund.amount)) : null;
  const creditAmount = item.credit ? centsToText(toCents(item.credit.amount)) : null;
  const result = await tx.execute<{ id: string | number }>(sql`
    INSERT INTO fulfilment_items (kind, reference, user_id, description, amount, unit, refund_currency, refund_amount,
                                  credit_currency, credit_amount, credit_reason, run_by, run_at)
    VALUES (${item.kind}, ${item.reference}, ${item.userId}, ${item.description}, ${amount}::numeric,
            ${item.unit ?? null}, ${item.refund?.currency ?? null}, ${refundAmount}::numeric,
            ${item.credit?.currency ?? null}, ${creditAmount}::numeric, ${item.credit?.reason ?? null},
            ${item.runBy?.userId ?? null}::uuid, ${item.runBy?.at.toISOString() ?? null}::timestamptz)
    ON CONFLICT (kind, reference) DO NOTHING
    RETURNING id
  `);
  const row = rowsOf<{ id: string | number }>(result)[0];
  return row ? Number(row.id) : null;
}

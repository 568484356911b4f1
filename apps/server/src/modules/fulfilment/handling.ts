/**
 * Handling a fulfilment item: deliver it (with an optional note such as a tip id) or reject it with
 * its refund paid back through the ledger. Both are one conditional update `… WHERE status =
 * 'pending'` in the same transaction as the refund and the audit entry: of two admins acting at
 * once, exactly one wins, so a refund is paid at most once.
 */
import { and, eq } from 'drizzle-orm';
import { fulfilmentMessages } from '@kickback/common/http/fulfilment';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { Db, DbOrTx } from '../../db/client';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';

export interface HandleResult {
  message: string;
}

async function explainMiss(db: Db, id: number): Promise<never> {
  const [row] = await db
    .select({ status: fulfilmentItems.status })
    .from(fulfilmentItems)
    .where(eq(fulfilmentItems.id, id));
  if (!row) throw notFound(fulfilmentMessages.notFound);
  throw conflict(fulfilmentMessages.alreadyHandled(row.status));
}

/** Moves a pending item to `status`; null when it is not pending (or not there). */
async function takePending(
  tx: DbOrTx,
  id: number,
  status: 'delivered' | 'rejected',
  actor: Actor,
  note: string | null,
  now: Date,
) {
  const [item] = await tx
    .update(fulfilmentItems)
    .set({ status, note, handledBy: actor.userId, handledAt: now })
    .where(and(eq(fulfilmentItems.id, id), eq(fulfilmentItems.status, 'pending')))
    .returning();
  return item ?? null;
}

export async function deliverItem(
  db: Db,
  actor: Actor,
  id: number,
  note: string | null,
  now: Date,
): Promise<HandleResult> {
  const done = await db.transaction(async (tx) => {
    const item = await takePending(tx, id, 'delivered', actor, note, now);
    if (!item) return false;
    await recordAudit(tx, actor, {
      action: 'fulfilment.deliver',
      targetType: 'fulfilment',
      targetId: String(id),
      before: { status: 'pending', kind: item.kind, reference: item.reference, userId: item.userId },
      after: { status: 'delivered', note },
    });
    return true;
  });
  if (!done) await explainMiss(db, id);
  return { message: fulfilmentMessages.delivered };
}

export async function rejectItem(
  db: Db,
  actor: Actor,
  id: number,
  note: string | null,
  now: Date,
): Promise<HandleResult> {
  const message = await db.transaction(async (tx) => {
    const item = await takePending(tx, id, 'rejected', actor, note, now);
    if (!item) return null;
    let refunded: { currency: string; amount: string; balance: string } | null = null;
    if (item.refundCurrency && item.refundAmount && toCents(item.refundAmount) > 0n) {
      const result = await applyBalanceChange(tx, {
        userId: item.userId,
        currency: item.refundCurrency,
        delta: item.refundAmount,
        reason: item.kind === 'order' ? 'order_refund' : 'fulfilment_refund',
        reference: item.kind === 'order' ? item.reference : `fulfilment:${item.id}`,
        memo: item.description,
      });
      refunded = {
        currency: item.refundCurrency,
        amount: centsToText(toCents(item.refundAmount)),
        balance: result?.balance ?? '',
      };
    }
    await recordAudit(tx, actor, {
      action: 'fulfilment.reject',
      targetType: 'fulfilment',
      targetId: String(id),
      before: { status: 'pending', kind: item.kind, reference: item.reference, userId: item.userId },
      after: { status: 'rejected', note, refund: refunded },
    });
    return refunded
      ? fulfilmentMessages.rejectedWithRefund(`${formatAmount(refunded.amount)} ${refunded.currency}`)
      : fulfilmentMessages.rejected;
  });
  if (message === null) return explainMiss(db, id);
  return { message };
}

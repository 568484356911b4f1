/**
 * Handling a fulfilment item: deliver it (with an optional note such as a tip id) or reject it with
 * its refund paid back through the ledger. Both are one conditional update `… WHERE status =
 * 'pending'` in the same transaction as the refund and the audit entry: of two admins acting at
 * once, exactly one wins, so a refund is paid at most once.
 */
import { and, eq, sql } from 'drizzle-orm';
import { fulfilmentMessages } from '@kickback/common/http/fulfilment';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { Db, DbOrTx } from '../../db/client';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { rowsOf } from '../../db/rows';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import { payApprovedPrize } from '../staff-prizes/service';

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

/**
 * Why an item of an event a non-Admin ran must wait for an Admin (docs/features/staff-prize-limits.md#deal-or-no-deal):
 * the winner is staff, or their account was created, or linked to Kick or a partner site, after the
 * event was run. Null when nothing holds it (or an Admin ran the event).
 */
async function whyAdminOnly(tx: DbOrTx, item: { userId: string; runBy: string | null; runAt: Date | null }) {
  if (!item.runBy || !item.runAt) return null;
  const [row] = rowsOf<{ runner_admin: boolean; role: string; created_at: string; linked_at: string | null }>(
    await tx.execute(sql`
      SELECT coalesce((SELECT role = 'Admin' FROM users WHERE id = ${item.runBy}), false) AS runner_admin,
             u.role, u.created_at::text AS created_at,
             greatest(
               (SELECT max(used_at) FROM kick_link_codes WHERE user_id = u.id),
               (SELECT max(claimed_at) FROM partner_links WHERE user_id = u.id)
             )::text AS linked_at
      FROM users u WHERE u.id = ${item.userId}
    `),
  );
  if (!row || row.runner_admin) return null;
  const ranAt = item.runAt.getTime();
  if (row.role === 'Moderator' || row.role === 'Admin') return `the winner is a staff account (${row.role})`;
  if (new Date(row.created_at).getTime() > ranAt) return 'the winner’s account was created after the game was';
  if (row.linked_at !== null && new Date(row.linked_at).getTime() > ranAt) {
    return 'the winner linked an account after the game was created';
  }
  return null;
}

/**
 * Marks an item delivered. An item with a credit (a prize held back for an Admin's approval,
 * ../staff-prizes) is paid through the ledger in the same transaction — so exactly once, by the
 * one request that took it from pending — and only an Admin may deliver it.
 */
export async function deliverItem(
  db: Db,
  actor: Actor & { isAdmin: boolean },
  id: number,
  note: string | null,
  now: Date,
): Promise<HandleResult> {
  const message = await db.transaction(async (tx) => {
    const item = await takePending(tx, id, 'delivered', actor, note, now);
    if (!item) return null;
    // A Moderator never closes the item of a game he ran; an Admin is trusted with his own, as with
    // every event only Admins run (docs/features/staff-prize-limits.md#deal-or-no-deal).
    if (!actor.isAdmin && item.runBy !== null && item.runBy === actor.userId) {
      throw forbidden(fulfilmentMessages.ranItYourself);
    }
    if (!actor.isAdmin) {
      const why = await whyAdminOnly(tx, item);
      if (why) throw forbidden(fulfilmentMessages.waitsForAdmin(why));
    }
    let credited: { currency: string; amount: string; balance: string } | null = null;
    if (item.creditCurrency && item.creditAmount) {
      if (!actor.isAdmin) throw forbidden(fulfilmentMessages.approvalIsAdmins);
      const result = await payApprovedPrize(tx, {
        userId: item.userId,
        currency: item.creditCurrency,
        amount: item.creditAmount,
        reason: item.creditReason,
        reference: item.reference,
        memo: item.description,
      });
      if (!result) throw conflict(fulfilmentMessages.excludedCannotBePaid);
      credited = {
        currency: item.creditCurrency,
        amount: centsToText(toCents(item.creditAmount)),
        balance: result.balance,
      };
    }
    await recordAudit(tx, actor, {
      action: 'fulfilment.deliver',
      targetType: 'fulfilment',
      targetId: String(id),
      before: { status: 'pending', kind: item.kind, reference: item.reference, userId: item.userId },
      after: { status: 'delivered', note, ...(credited ? { paid: credited } : {}) },
    });
    return credited
      ? fulfilmentMessages.approvedAndPaid(`${formatAmount(credited.amount)} ${credited.currency}`)
      : fulfilmentMessages.delivered;
  });
  if (message === null) return explainMiss(db, id);
  return { message };
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

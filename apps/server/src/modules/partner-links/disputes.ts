/**
 * Disputes: a user says a partner id another account holds is theirs. An admin either dismisses
 * it or awards the link: the holder's link is rejected, what it credited is taken back through
 * the ledger as far as the balance goes (never below zero) and the rest becomes a debt that
 * blocks spending until later earnings or an admin settle it; the claimant gets a verified link.
 */
import { and, eq, sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import type { DisputeBody } from '@kickback/common/http/partner-links';
import type { Db, DbOrTx } from '../../db/client';
import { partnerDisputes, partnerLinks } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import { holderOf, insertVerifiedLink } from './claims';
import { clearProfileField } from './decisions';
import { fieldOfKey, labelOfField } from './keys';

export const disputeMessages = {
  opened: 'Your dispute was sent to the admins. You will see their decision on your profile.',
  nobodyHolds: 'Nobody holds that id: save it in your partner ids instead.',
  yours: 'That id is already linked to your account.',
  alreadyOpen: 'You have already contested this id; an admin will decide.',
  notFound: 'Dispute not found.',
  decided: 'This dispute was already decided.',
  awarded: 'The link moved to the claimant.',
  dismissed: 'Dispute dismissed.',
} as const;

export async function openDispute(db: Db, userId: string, body: DisputeBody, now: Date): Promise<void> {
  const field = fieldOfKey(body.field);
  await db.transaction(async (tx) => {
    const holder = await holderOf(tx, field, body.value);
    if (!holder) throw badRequest(disputeMessages.nobodyHolds);
    if (holder.userId === userId) throw conflict(disputeMessages.yours);
    try {
      await tx
        .insert(partnerDisputes)
        .values({ linkId: holder.id, userId, value: body.value, note: body.note, status: 'open', createdAt: now });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(disputeMessages.alreadyOpen);
      throw err;
    }
  });
}

/** Takes back up to `amount` points from the user; what the balance cannot cover becomes debt. */
export async function reverseCredits(
  tx: DbOrTx,
  userId: string,
  amount: bigint,
  reference: string,
  memo: string,
): Promise<{ taken: string; debt: string }> {
  if (amount <= 0n) return { taken: '0.00', debt: '0.00' };
  const [row] = await tx.select({ points: users.points }).from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw notFound('User not found.');
  const balance = toCents(row.points);
  const taken = balance < amount ? balance : amount;
  const debt = amount - taken;
  if (taken > 0n) {
    await applyBalanceChange(tx, {
      userId,
      currency: 'points',
      delta: { cents: -taken },
      reason: 'partner_reversal',
      reference,
      memo,
    });
  }
  if (debt > 0n) {
    await tx
      .update(users)
      .set({ pointsDebt: sql`${users.pointsDebt} + ${centsToText(debt)}::numeric` })
      .where(eq(users.id, userId));
  }
  return { taken: centsToText(taken), debt: centsToText(debt) };
}

async function lockOpenDispute(tx: DbOrTx, disputeId: number) {
  const [dispute] = await tx.select().from(partnerDisputes).where(eq(partnerDisputes.id, disputeId)).for('update');
  if (!dispute) throw notFound(disputeMessages.notFound);
  if (dispute.status !== 'open') throw conflict(disputeMessages.decided);
  return dispute;
}

export async function awardDispute(db: Db, actor: Actor, disputeId: number, reason: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const dispute = await lockOpenDispute(tx, disputeId);
    // The row lock on the link serialises this with polls crediting it and other decisions.
    const [link] = await tx.select().from(partnerLinks).where(eq(partnerLinks.id, dispute.linkId)).for('update');
    if (!link) throw notFound(disputeMessages.notFound);
    const label = labelOfField(link.field);
    let reversal = { taken: '0.00', debt: '0.00' };
    if (link.state === 'claimed' || link.state === 'verified') {
      await tx
        .update(partnerLinks)
        .set({
          state: 'rejected',
          decidedAt: now,
          decidedBy: actor.label,
          decisionReason: `Dispute ${dispute.id} awarded to another account. ${reason}`.trim(),
        })
        .where(eq(partnerLinks.id, link.id));
      await clearProfileField(tx, link.userId, link.field);
      reversal = await reverseCredits(
        tx,
        link.userId,
        toCents(link.creditedPoints),
        `partner-link:${link.id}:reversed`,
        `${label} ${link.value} belongs to another account: wager points it earned are taken back`,
      );
    }
    const newLinkId = await insertVerifiedLink(tx, dispute.userId, link.field, dispute.value, {
      now,
      decidedBy: actor.label,
      reason: `Dispute ${dispute.id} awarded. ${reason}`.trim(),
      externalId: link.externalId,
    });
    await tx
      .update(partnerDisputes)
      .set({ status: 'awarded', decidedAt: now, decidedBy: actor.label, decisionReason: reason || null })
      .where(eq(partnerDisputes.id, dispute.id));
    // Anyone else contesting the same link contests a link that no longer exists.
    await tx
      .update(partnerDisputes)
      .set({
        status: 'dismissed',
        decidedAt: now,
        decidedBy: actor.label,
        decisionReason: 'The link moved to another account.',
      })
      .where(and(eq(partnerDisputes.linkId, link.id), eq(partnerDisputes.status, 'open')));
    await recordAudit(tx, actor, {
      action: 'partner_dispute.award',
      targetType: 'partner_dispute',
      targetId: String(dispute.id),
      before: { linkId: link.id, holder: link.userId, state: link.state, creditedPoints: link.creditedPoints },
      after: { linkId: newLinkId, owner: dispute.userId, reversed: reversal.taken, debt: reversal.debt, reason },
    });
  });
}

export async function dismissDispute(
  db: Db,
  actor: Actor,
  disputeId: number,
  reason: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const dispute = await lockOpenDispute(tx, disputeId);
    await tx
      .update(partnerDisputes)
      .set({ status: 'dismissed', decidedAt: now, decidedBy: actor.label, decisionReason: reason })
      .where(eq(partnerDisputes.id, dispute.id));
    await recordAudit(tx, actor, {
      action: 'partner_dispute.dismiss',
      targetType: 'partner_dispute',
      targetId: String(dispute.id),
      before: { status: 'open', linkId: dispute.linkId, claimant: dispute.userId },
      after: { status: 'dismissed', reason },
    });
  });
}

/** An admin forgives what a user owes (the debt blocks spending until settled). */
export async function settleDebt(db: Db, actor: Actor, userId: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ debt: users.pointsDebt }).from(users).where(eq(users.id, userId)).for('update');
    if (!row) throw notFound('User not found.');
    if (toCents(row.debt) === 0n) throw conflict('This user owes nothing.');
    await tx.update(users).set({ pointsDebt: '0' }).where(eq(users.id, userId));
    await recordAudit(tx, actor, {
      action: 'user.debt_settle',
      targetType: 'user',
      targetId: userId,
      before: { pointsDebt: row.debt },
      after: { pointsDebt: '0.00', reason },
    });
  });
}

/**
 * What ends a claim: verification (a proof code seen by a poll, or an admin's approval) credits
 * the held wager points through the ledger; rejection drops them. Each is ONE conditional update
 * of the claimed row (`WHERE state = 'claimed'`), so concurrent approvals credit exactly once:
 * the second finds nothing left to decide.
 */
import { and, eq, sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { partnerLinks, type PartnerLinkField } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange } from '../ledger/service';
import { rowsOf } from '../../db/rows';
import { labelOfField } from './keys';

export const decisionMessages = {
  notFound: 'Claim not found.',
  alreadyDecided: 'This claim was already decided.',
} as const;

/** The poller's proof check, as the audit log names it. */
export const proofActor: Actor = { userId: null, label: 'proof code' };

export interface VerifyOptions {
  reason: string;
  now: Date;
  /** The stable id the proof showed (pinned with the verification). */
  externalId?: string | null;
}

/** Verifies a claimed link and credits its held points. Throws 404 / 409 when there is none to verify. */
export async function verifyClaim(tx: DbOrTx, actor: Actor, linkId: number, opts: VerifyOptions): Promise<string> {
  const rows = rowsOf<{ user_id: string; field: PartnerLinkField; value: string; held: string }>(
    await tx.execute(sql`
      WITH claim AS (
        SELECT id, held_points FROM partner_links WHERE id = ${linkId} AND state = 'claimed' FOR UPDATE
      )
      UPDATE partner_links l SET state = 'verified', held_points = 0,
        credited_points = l.credited_points + claim.held_points,
        external_id = COALESCE(${opts.externalId ?? null}::text, l.external_id),
        decided_at = ${opts.now.toISOString()}::timestamptz, decided_by = ${actor.label},
        decision_reason = ${opts.reason || null}
      FROM claim WHERE l.id = claim.id
      RETURNING l.user_id, l.field, l.value, claim.held_points::text AS held
    `),
  );
  const done = rows[0];
  if (!done) throw await whyNot(tx, linkId);
  const held = toCents(done.held);
  const label = labelOfField(done.field);
  if (held > 0n) {
    const credit = await applyBalanceChange(tx, {
      userId: done.user_id,
      currency: 'points',
      delta: { cents: held },
      reason: 'wager',
      reference: `partner-link:${linkId}:verified`,
      memo: `${label} ${done.value} verified: wager points held since the claim`,
      earning: true,
    });
    // An excluded account earns nothing: the link records that nothing was credited.
    if (!credit) {
      await tx
        .update(partnerLinks)
        .set({ creditedPoints: sql`${partnerLinks.creditedPoints} - ${done.held}::numeric` })
        .where(eq(partnerLinks.id, linkId));
    }
  }
  await recordAudit(tx, actor, {
    action: 'partner_link.verify',
    targetType: 'partner_link',
    targetId: String(linkId),
    before: { state: 'claimed', heldPoints: done.held },
    after: { state: 'verified', userId: done.user_id, field: done.field, value: done.value, reason: opts.reason },
  });
  return centsToText(held);
}

/** Rejects a claimed link: its held points are dropped and the profile field is cleared. */
export async function rejectClaim(tx: DbOrTx, actor: Actor, linkId: number, reason: string, now: Date): Promise<void> {
  const [done] = await tx
    .update(partnerLinks)
    .set({ state: 'rejected', decidedAt: now, decidedBy: actor.label, decisionReason: reason })
    .where(and(eq(partnerLinks.id, linkId), eq(partnerLinks.state, 'claimed')))
    .returning();
  if (!done) throw await whyNot(tx, linkId);
  await clearProfileField(tx, done.userId, done.field);
  await recordAudit(tx, actor, {
    action: 'partner_link.reject',
    targetType: 'partner_link',
    targetId: String(linkId),
    before: { state: 'claimed', heldPoints: done.heldPoints },
    after: { state: 'rejected', userId: done.userId, field: done.field, value: done.value, reason },
  });
}

/** The users column mirrors the user's current claim; a link that ends clears it. */
export async function clearProfileField(tx: DbOrTx, userId: string, field: PartnerLinkField): Promise<void> {
  await tx
    .update(users)
    .set({ [field]: null })
    .where(eq(users.id, userId));
}

async function whyNot(tx: DbOrTx, linkId: number): Promise<Error> {
  const [row] = await tx.select({ id: partnerLinks.id }).from(partnerLinks).where(eq(partnerLinks.id, linkId));
  return row ? conflict(decisionMessages.alreadyDecided) : notFound(decisionMessages.notFound);
}

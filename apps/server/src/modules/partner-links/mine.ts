/** The signed-in user's partner links, disputes and debt (profile and My activity). */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { decimalToNumber } from '@kickback/common/money';
import { proofMethodOf, type MyPartnerLinks } from '@kickback/common/http/partner-links';
import type { Db } from '../../db/client';
import { partnerDisputes, partnerLinks } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { conflict } from '../../lib/errors';
import { activeLink } from './claims';
import { fieldOfKey, keyOfField, labelOfField, newProofCode, usesProofCode } from './keys';
import type { PartnerIdKey } from '@kickback/common/http/accounts';

export async function myPartnerLinks(db: Db, userId: string): Promise<MyPartnerLinks> {
  const [links, disputes, [me]] = await Promise.all([
    db
      .select()
      .from(partnerLinks)
      .where(and(eq(partnerLinks.userId, userId), inArray(partnerLinks.state, ['claimed', 'verified', 'rejected'])))
      .orderBy(desc(partnerLinks.id)),
    db
      .select({ dispute: partnerDisputes, field: partnerLinks.field })
      .from(partnerDisputes)
      .innerJoin(partnerLinks, eq(partnerLinks.id, partnerDisputes.linkId))
      .where(eq(partnerDisputes.userId, userId))
      .orderBy(desc(partnerDisputes.id)),
    db.select({ debt: users.pointsDebt }).from(users).where(eq(users.id, userId)),
  ]);
  // Current links, and per field the last rejection only when nothing replaced it.
  const seen = new Set<string>();
  const shown = links.filter((l) => {
    if (seen.has(l.field)) return false;
    seen.add(l.field);
    return true;
  });
  return {
    links: shown.map((l) => {
      const key = keyOfField(l.field);
      return {
        id: l.id,
        field: key,
        label: labelOfField(l.field),
        value: l.value,
        state: l.state,
        proof: proofMethodOf[key],
        proofCode: l.state === 'claimed' ? l.proofCode : null,
        heldPoints: decimalToNumber(l.heldPoints),
        claimedAt: l.claimedAt.toISOString(),
        decidedAt: l.decidedAt?.toISOString() ?? null,
        reason: l.decisionReason,
      };
    }),
    disputes: disputes.map(({ dispute: d, field }) => ({
      id: d.id,
      field: keyOfField(field),
      label: labelOfField(field),
      value: d.value,
      status: d.status,
      createdAt: d.createdAt.toISOString(),
      reason: d.decisionReason,
    })),
    pointsDebt: decimalToNumber(me?.debt ?? '0'),
  };
}

/** A new one-time code for the user's claimed link (the old one stops counting). */
export async function renewProofCode(db: Db, userId: string, key: PartnerIdKey): Promise<string> {
  const field = fieldOfKey(key);
  if (!usesProofCode(field)) throw conflict(`${labelOfField(field)} is verified by an admin; there is no code to set.`);
  return db.transaction(async (tx) => {
    const link = await activeLink(tx, userId, field, true);
    if (!link || link.state !== 'claimed')
      throw conflict(`You have no ${labelOfField(field)} waiting for verification.`);
    const code = newProofCode();
    await tx.update(partnerLinks).set({ proofCode: code }).where(eq(partnerLinks.id, link.id));
    return code;
  });
}

/**
 * Claiming partner ids (`POST /api/User/ids`): each changed id ends the user's current link for
 * that field (unlinked) and opens a new claimed one. A claim carries no partner id until it is
 * proven (docs/features/partner-links.md#rules): a typed name may be a stranger's, so pinning it
 * would lock the stranger out of his own id. The partial unique indexes of 0600 refuse a player
 * another account holds (by name, or by the stable id of a verified link), also when two claims
 * race.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { partnerIdFields } from '@kickback/common/http/accounts';
import type { DbOrTx } from '../../db/client';
import { partnerLinks, type PartnerLinkField, type PartnerLinkRow } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict } from '../../lib/errors';
import { rowsOf } from '../../db/rows';
import { labelOfField, nameKeyOf, newProofCode, sitesOfField, usesProofCode } from './keys';

export function partnerIdTaken(label: string): string {
  return `That ${label} is already linked to another account.`;
}

/** The 409 of a taken id, on the request's field (`POST /api/User/ids` spells it ClashId, …). */
function takenConflict(field: PartnerLinkField) {
  const key = partnerIdFields.find((f) => f.userKey === field)?.key;
  return conflict(partnerIdTaken(labelOfField(field)), key);
}

export const activeStates = ['claimed', 'verified'] as const;

export async function activeLink(
  tx: DbOrTx,
  userId: string,
  field: PartnerLinkField,
  lock = false,
): Promise<PartnerLinkRow | null> {
  const query = tx
    .select()
    .from(partnerLinks)
    .where(
      and(
        eq(partnerLinks.userId, userId),
        eq(partnerLinks.field, field),
        inArray(partnerLinks.state, [...activeStates]),
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * The stable id of the player a typed value names, from the newest board row that lists them by
 * that id or that name; null when no board has seen them yet (a later poll pins it).
 */
export async function resolveExternalId(tx: DbOrTx, field: PartnerLinkField, value: string): Promise<string | null> {
  const sites = sitesOfField(field);
  if (sites.length === 0) return null;
  const rows = rowsOf<{ external_id: string }>(
    await tx.execute(sql`
      SELECT lower(s.external_id) AS external_id
      FROM leaderboard_standings s JOIN leaderboard_periods p ON p.id = s.period_id
      WHERE p.site IN (SELECT jsonb_array_elements_text(${JSON.stringify(sites)}::jsonb)::int)
        AND s.external_id IS NOT NULL
        AND (lower(s.external_id) = ${value.toLowerCase()}
             OR regexp_replace(lower(s.username), '\\s', '', 'g') = ${nameKeyOf(value)})
      ORDER BY s.seen_at DESC
      LIMIT 1
    `),
  );
  return rows[0]?.external_id ?? null;
}

/** The active link another account holds on this player (by name or stable id), if any. */
export async function holderOf(tx: DbOrTx, field: PartnerLinkField, value: string): Promise<PartnerLinkRow | null> {
  const key = nameKeyOf(value);
  const external = await resolveExternalId(tx, field, value);
  const [row] = await tx
    .select()
    .from(partnerLinks)
    .where(
      and(
        eq(partnerLinks.field, field),
        inArray(partnerLinks.state, [...activeStates]),
        sql`(${partnerLinks.nameKey} = ${key} OR ${partnerLinks.externalId} = ${value.toLowerCase()}
             OR (${external}::text IS NOT NULL AND ${partnerLinks.externalId} = ${external}))`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Sets the user's id for one field inside the caller's transaction: null unlinks; the same player
 * (same normalised name) only updates how it is spelled; anything else is a new claim.
 */
export async function replaceClaim(
  tx: DbOrTx,
  userId: string,
  field: PartnerLinkField,
  value: string | null,
  now: Date,
): Promise<void> {
  const current = await activeLink(tx, userId, field, true);
  if (current && value !== null && current.nameKey === nameKeyOf(value)) {
    if (current.value !== value) await tx.update(partnerLinks).set({ value }).where(eq(partnerLinks.id, current.id));
    return;
  }
  if (current) {
    // Held points of an unfinished claim go with it: they were never the user's.
    await tx
      .update(partnerLinks)
      .set({ state: 'unlinked', decidedAt: now, decidedBy: 'user', decisionReason: 'Changed or removed by the user.' })
      .where(eq(partnerLinks.id, current.id));
  }
  if (value === null) return;
  const holder = await holderOf(tx, field, value);
  if (holder && holder.userId !== userId) throw takenConflict(field);
  try {
    await tx.insert(partnerLinks).values({
      userId,
      field,
      value,
      nameKey: nameKeyOf(value),
      // Unpinned until proven: a name that matches a board row may be a stranger's.
      externalId: null,
      state: 'claimed',
      proofCode: usesProofCode(field) ? newProofCode() : null,
      claimedAt: now,
    });
  } catch (err) {
    // Two accounts claiming one player at once: the partial unique indexes let one through.
    if (isUniqueViolation(err)) throw takenConflict(field);
    throw err;
  }
}

/**
 * A link verified by someone's decision rather than a claim: an admin moving a disputed player to
 * its rightful owner, or demo data. Ends the user's current link for that field and mirrors the
 * value into the profile column.
 */
export async function insertVerifiedLink(
  tx: DbOrTx,
  userId: string,
  field: PartnerLinkField,
  value: string,
  opts: { now: Date; decidedBy: string; reason: string; externalId?: string | null },
): Promise<number> {
  const current = await activeLink(tx, userId, field, true);
  if (current) {
    await tx
      .update(partnerLinks)
      .set({ state: 'unlinked', decidedAt: opts.now, decidedBy: opts.decidedBy, decisionReason: opts.reason })
      .where(eq(partnerLinks.id, current.id));
  }
  const [row] = await tx
    .insert(partnerLinks)
    .values({
      userId,
      field,
      value,
      nameKey: nameKeyOf(value),
      externalId: opts.externalId ?? (await resolveExternalId(tx, field, value)),
      state: 'verified',
      claimedAt: opts.now,
      decidedAt: opts.now,
      decidedBy: opts.decidedBy,
      decisionReason: opts.reason,
    })
    .returning({ id: partnerLinks.id });
  await tx
    .update(users)
    .set({ [field]: value })
    .where(eq(users.id, userId));
  return row!.id;
}

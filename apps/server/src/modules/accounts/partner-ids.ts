/**
 * Partner wagering-site ids (ClashId, RustMagicId, RoobetName, CasesId): trimmed, each checked by
 * its own rule (packages/common accounts: at most 64 characters, no control characters, a number
 * only as a real user number from 1), "" unlinks. Each id saved is a claim (partner-links/claims):
 * one player per account per site — by normalised name and by the partner's stable id — so a
 * player another account holds answers 409, and the profile offers a dispute instead. The users
 * columns mirror the user's current claim for the profile and the admin pages.
 */
import { eq } from 'drizzle-orm';
import { partnerIdFields, partnerIdProblem, type PartnerIdsBody } from '@kickback/common/http/accounts';
import type { Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema/users';
import { badRequest } from '../../lib/errors';
import { replaceClaim } from '../partner-links/service';

type PartnerColumn = (typeof partnerIdFields)[number]['userKey'];

export { partnerIdTaken } from '../partner-links/service';

export async function savePartnerIds(db: Db, user: UserRow, body: PartnerIdsBody, now: Date): Promise<void> {
  const changes: Partial<Record<PartnerColumn, string | null>> = {};
  for (const field of partnerIdFields) {
    const raw = body[field.key];
    if (raw === undefined) continue;
    const value = (raw ?? '').trim();
    const problem = partnerIdProblem(field.key, value);
    if (problem) throw badRequest(problem, field.key);
    const next = value === '' ? null : value;
    if (next !== user[field.userKey]) changes[field.userKey] = next;
  }
  if (Object.keys(changes).length === 0) return;
  // One transaction: a refused id leaves every field as it was.
  await db.transaction(async (tx) => {
    for (const [field, value] of Object.entries(changes) as Array<[PartnerColumn, string | null]>) {
      await replaceClaim(tx, user.id, field, value, now);
    }
    await tx.update(users).set(changes).where(eq(users.id, user.id));
  });
}

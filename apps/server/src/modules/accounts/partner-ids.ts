/**
 * Partner wagering-site ids (ClashId, RustMagicId, RoobetName, CasesId): trimmed, at most 64
 * characters, no control characters, "" unlinks, unique per site across users regardless of
 * letter case — the unique indexes of 0100_accounts.sql decide, so a race answers 409 too.
 */
import { eq } from 'drizzle-orm';
import { partnerIdFields, partnerIdProblem, type PartnerIdsBody } from '@kickback/common/http/accounts';
import type { Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema/users';
import { isUniqueViolation, violatedConstraint } from '../../lib/db-errors';
import { badRequest, conflict } from '../../lib/errors';

type PartnerColumn = (typeof partnerIdFields)[number]['userKey'];

/** The unique index of each partner id (0100_accounts.sql). */
const uniqueIndexOf: Record<PartnerColumn, string> = {
  clashId: 'users_clash_id_unique',
  rustMagicId: 'users_rustmagic_id_unique',
  roobetName: 'users_roobet_name_unique',
  casesId: 'users_cases_id_unique',
};

export function partnerIdTaken(label: string): string {
  return `That ${label} is already linked to another account.`;
}

export async function savePartnerIds(db: Db, user: UserRow, body: PartnerIdsBody): Promise<void> {
  const changes: Partial<Record<PartnerColumn, string | null>> = {};
  for (const field of partnerIdFields) {
    const raw = body[field.key];
    if (raw === undefined) continue;
    const value = (raw ?? '').trim();
    const problem = partnerIdProblem(field.label, value);
    if (problem) throw badRequest(problem);
    const next = value === '' ? null : value;
    if (next !== user[field.userKey]) changes[field.userKey] = next;
  }
  if (Object.keys(changes).length === 0) return;
  try {
    await db.update(users).set(changes).where(eq(users.id, user.id));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const index = violatedConstraint(err);
    const field = partnerIdFields.find((f) => uniqueIndexOf[f.userKey] === index);
    throw conflict(partnerIdTaken(field?.label ?? 'id'));
  }
}

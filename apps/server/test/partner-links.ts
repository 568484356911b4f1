/**
 * Partner links for tests that are about something else (boards, wager points, daily rewards):
 * a user whose partner ids are already verified, written the way an admin's decision writes them.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { partnerLinkFields, type PartnerLinkField } from '../src/db/schema/partner-links';
import { users } from '../src/db/schema/users';
import { insertVerifiedLink } from '../src/modules/partner-links/claims';

export async function linkVerified(
  db: Db,
  userId: string,
  values: Partial<Record<PartnerLinkField, string>>,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [field, value] of Object.entries(values) as Array<[PartnerLinkField, string]>) {
      await insertVerifiedLink(tx, userId, field, value, { now, decidedBy: 'test', reason: 'test setup' });
    }
  });
}

/** Sets user columns; partner ids among them become verified links (as an admin would decide). */
export async function setUser(
  db: Db,
  userId: string,
  values: Partial<typeof users.$inferInsert>,
  now = new Date(),
): Promise<void> {
  const links: Partial<Record<PartnerLinkField, string>> = {};
  const rest: Partial<typeof users.$inferInsert> = {};
  for (const [key, value] of Object.entries(values)) {
    if ((partnerLinkFields as readonly string[]).includes(key) && typeof value === 'string') {
      links[key as PartnerLinkField] = value;
    } else {
      Object.assign(rest, { [key]: value });
    }
  }
  if (Object.keys(rest).length > 0) await db.update(users).set(rest).where(eq(users.id, userId));
  await linkVerified(db, userId, links, now);
}

/**
 * The site configuration as served: the file's values (config.ts, `SITE_CONFIG`) with the admin's
 * changes on top. Today that is the 18+ gate, kept in `settings` under 'age_gate'; a change is
 * audited in its transaction and the cached `/api/site` read is dropped once it has committed.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ageGate, type AgeGate, type AgeGateBody, type SiteConfig } from '@kickback/common/http/site';
import type { DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/audit';
import { users } from '../../db/schema/users';
import { actorOf, recordAudit } from '../audit/service';

export const SITE_READ = 'site';
const AGE_GATE_KEY = 'age_gate';

async function storedAgeGate(db: DbOrTx): Promise<AgeGate | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, AGE_GATE_KEY));
  const parsed = ageGate.safeParse(row?.value);
  return parsed.success ? parsed.data : null;
}

export async function siteConfigNow(app: FastifyInstance): Promise<SiteConfig> {
  const gate = await storedAgeGate(app.db);
  return { ...app.config.site, ageGate: gate ?? app.config.site.ageGate };
}

export async function updateAgeGate(
  app: FastifyInstance,
  admin: { id: string; username: string },
  body: AgeGateBody,
): Promise<AgeGate> {
  const next: AgeGate = { enabled: body.enabled, text: body.text };
  await app.db.transaction(async (tx) => {
    const before = (await storedAgeGate(tx)) ?? app.config.site.ageGate;
    await tx
      .insert(settings)
      .values({ key: AGE_GATE_KEY, value: next })
      .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: sql`now()` } });
    await recordAudit(tx, actorOf(admin), {
      action: 'site.age_gate',
      targetType: 'settings',
      targetId: AGE_GATE_KEY,
      before,
      after: next,
    });
  });
  app.reads.invalidate(SITE_READ); // after commit: the next /api/site read sees the change
  return next;
}

/** Remembers the user's confirmation (the first one counts; confirming again changes nothing). */
export async function confirmAge(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ ageConfirmedAt: sql`coalesce(${users.ageConfirmedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(users.id, userId));
}

/**
 * First run: claiming the site (docs/go-live.md). While no account is Admin the site keeps one
 * random setup token in `settings` ('setup_claim') and every start prints its link; the first
 * signed-in user who posts it becomes the Admin, audited, and the token is deleted in the same
 * transaction. Once an admin exists no link is printed and any old token is gone.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/audit';
import { users } from '../../db/schema/users';
import { conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';

const SETUP_KEY = 'setup_claim';
const stored = z.object({ token: z.string() });

export const setupMessages = {
  invalid: 'This setup link is not valid: it was already used, or it is not the one in the server log.',
  alreadyClaimed: 'This site already has an admin. Ask them to make you an admin on Admin → Users.',
  claimed: 'You are the admin of this site now.',
} as const;

async function adminExists(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'Admin')).limit(1);
  return rows.length > 0;
}

/**
 * The setup link while the site has no admin (the same token at every start and in every process,
 * until it is used), or null once an admin exists.
 */
export async function setupLink(db: Db, publicUrl: string): Promise<string | null> {
  if (await adminExists(db)) {
    await db.delete(settings).where(eq(settings.key, SETUP_KEY));
    return null;
  }
  await db
    .insert(settings)
    .values({ key: SETUP_KEY, value: { token: randomBytes(24).toString('base64url') } })
    .onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETUP_KEY));
  const parsed = stored.safeParse(row?.value);
  return parsed.success ? `${publicUrl}/setup/${parsed.data.token}` : null;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `token` is the live setup token (and no admin exists yet), with the reason when not. */
export async function setupLinkState(db: Db, token: string): Promise<{ usable: boolean; message: string | null }> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETUP_KEY));
  const live = stored.safeParse(row?.value);
  if (!live.success || !sameToken(live.data.token, token)) return { usable: false, message: setupMessages.invalid };
  if (await adminExists(db)) return { usable: false, message: setupMessages.alreadyClaimed };
  return { usable: true, message: null };
}

/** Makes `user` the Admin if `token` is the live setup token; 404 otherwise, 409 once an admin exists. */
export async function claimSite(db: Db, user: { id: string; username: string }, token: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(settings).where(eq(settings.key, SETUP_KEY)).for('update');
    const live = stored.safeParse(row?.value);
    if (!live.success || !sameToken(live.data.token, token)) throw notFound(setupMessages.invalid);
    // An ADMIN_STEAM_IDS account (or `npm run admin -- grant`) got there first: the next start drops the token.
    if (await adminExists(tx)) throw conflict(setupMessages.alreadyClaimed);
    const [before] = await tx.select({ role: users.role }).from(users).where(eq(users.id, user.id)).for('update');
    await tx.update(users).set({ role: 'Admin' }).where(eq(users.id, user.id));
    await tx.delete(settings).where(eq(settings.key, SETUP_KEY));
    await recordAudit(tx, actorOf(user), {
      action: 'site.claim',
      targetType: 'user',
      targetId: user.id,
      before: { role: before?.role ?? 'User' },
      after: { role: 'Admin' },
    });
  });
}

/**
 * Server-side sessions: an opaque random token in an HttpOnly cookie, its sha256 as the row id.
 * Sign-out and role changes take effect at once on every process because each request reads the
 * row (joined with its user).
 */
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema/sessions';
import { users, type UserRow } from '../../db/schema/users';
import { randomToken, sha256Hex } from '../../lib/random';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry slides forward when it is used, at most this often (saves a write per call). */
const TOUCH_EVERY_MS = 10 * 60 * 1000;

export interface LoadedSession {
  id: string;
  user: UserRow;
}

export async function createSession(
  db: Db,
  userId: string,
  now: Date,
  userAgent: string | undefined,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export async function loadSession(db: Db, token: string, now: Date): Promise<LoadedSession | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const id = sha256Hex(token);
  const rows = await db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.id, id));
  }
  return { id, user: row.user };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

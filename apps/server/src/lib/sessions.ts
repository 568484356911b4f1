/**
 * Server-side sessions: an opaque random token in an HttpOnly cookie, its sha256 as the row id.
 * Sign-out and role changes take effect at once on every process because each request reads the
 * row (joined with its user) — except on identity-only routes, which may use a session loaded up to
 * a few seconds earlier (session-cache.ts).
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions } from '../db/schema/sessions';
import { users, type UserRow } from '../db/schema/users';
import { randomToken, sha256Hex } from './random';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry slides forward when it is used, at most this often (saves a write per call). */
const TOUCH_EVERY_MS = 10 * 60 * 1000;

export interface LoadedSession {
  id: string;
  user: UserRow;
  expiresAt: Date;
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

function prepareLookup(db: Db) {
  return db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('kickback_load_session');
}

/** The lookup runs on every request: built once per database, prepared once per connection. */
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

export async function loadSession(db: Db, token: string, now: Date): Promise<LoadedSession | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const id = sha256Hex(token);
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = prepareLookup(db)));
  const rows = await lookup.execute({ id, now });
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
    return { id, user: row.user, expiresAt };
  }
  return { id, user: row.user, expiresAt: row.expiresAt };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

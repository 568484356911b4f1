/**
 * Finds or creates the site user for a verified SteamID, refreshing name and avatar from Steam and
 * granting Admin to ids listed in ADMIN_STEAM_IDS.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema/users';
import type { SteamProfile } from '../../integrations/steam/profiles';

export async function upsertSteamUser(
  db: Db,
  steamId: string,
  profile: SteamProfile | null,
  adminSteamIds: readonly string[],
  now: Date,
): Promise<UserRow> {
  const isListedAdmin = adminSteamIds.includes(steamId);
  const fallbackName = `Player ${steamId.slice(-5)}`;
  const [row] = await db
    .insert(users)
    .values({
      steamId,
      username: profile?.personaName ?? fallbackName,
      avatarUrl: profile?.avatarUrl ?? null,
      role: isListedAdmin ? 'Admin' : 'User',
      lastLoginAt: now,
    })
    .onConflictDoUpdate({
      target: users.steamId,
      set: {
        username: profile ? profile.personaName : sql`${users.username}`,
        avatarUrl: profile ? profile.avatarUrl : sql`${users.avatarUrl}`,
        role: isListedAdmin ? 'Admin' : sql`${users.role}`,
        lastLoginAt: now,
      },
    })
    .returning();
  if (!row) throw new Error('user upsert returned nothing');
  return row;
}

export async function findUserBySteamId(db: Db, steamId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.steamId, steamId)).limit(1);
  return row ?? null;
}

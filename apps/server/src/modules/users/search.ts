/**
 * Admin user pickers: username prefix, case-insensitive, at most 20, optionally only users with a
 * linked Discord. Excluded accounts (bots, alts) are left out: they never play or win.
 */
import { and, asc, isNotNull, sql, type SQL } from 'drizzle-orm';
import { USER_SEARCH_LIMIT, type UserOption } from '@kickback/common/http/users';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function searchUsers(db: Db, query: string, discordLinkedOnly: boolean): Promise<UserOption[]> {
  const filters: SQL[] = [sql`NOT ${users.excluded}`];
  const prefix = query.trim().toLowerCase();
  if (prefix) filters.push(sql`lower(${users.username}) LIKE ${`${escapeLike(prefix)}%`}`);
  if (discordLinkedOnly) filters.push(isNotNull(users.discordId));
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      avatarUrl: users.avatarUrl,
      kickUsername: users.kickUsername,
      discordUsername: users.discordUsername,
    })
    .from(users)
    .where(and(...filters))
    .orderBy(asc(sql`lower(${users.username}) COLLATE "C"`), asc(users.id))
    .limit(USER_SEARCH_LIMIT);
  return rows.map((r) => ({
    value: r.id,
    label: r.username,
    avatarUrl: r.avatarUrl,
    kickUsername: r.kickUsername,
    discordUsername: r.discordUsername,
  }));
}

/**
 * Admin: Users (`/api/admin/users`): search with balances and linked accounts; grant or deduct
 * points or gems (reason required), change role, mark excluded. The rules live in admin-service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { asc, or, sql, type SQL } from 'drizzle-orm';
import { adminUserEndpoints, adminUserMessages, type AdminUser } from '@kickback/common/http/admin-users';
import { decimalToNumber } from '@kickback/common/money';
import { readPage } from '../../db/page';
import { users, type UserRow } from '../../db/schema/users';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { adjustBalance, setExcluded, setRole } from './admin-service';

const PAGE_SIZE = 25;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function toAdminUser(u: UserRow): AdminUser {
  return {
    id: u.id,
    steamId: u.steamId,
    username: u.username,
    avatarUrl: u.avatarUrl,
    role: u.role,
    points: decimalToNumber(u.points),
    gems: decimalToNumber(u.gems),
    excluded: u.excluded,
    kickUsername: u.kickUsername,
    discordUsername: u.discordUsername,
    clashId: u.clashId,
    rustMagicId: u.rustMagicId,
    roobetName: u.roobetName,
    casesId: u.casesId,
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  };
}

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  route(app, adminUserEndpoints.list, async (request) => {
    const { query, page } = request.query;
    let where: SQL | undefined;
    const q = query.toLowerCase();
    if (q) {
      const prefix = `${escapeLike(q)}%`;
      // Name prefix, or an exact id on any linked account (SteamID, Kick, Discord, partner ids).
      where = or(
        sql`lower(${users.username}) LIKE ${prefix}`,
        sql`${users.steamId} = ${query}`,
        sql`lower(${users.kickUsername}) = ${q}`,
        sql`lower(${users.discordUsername}) = ${q}`,
        sql`lower(${users.clashId}) = ${q}`,
        sql`lower(${users.rustMagicId}) = ${q}`,
        sql`lower(${users.roobetName}) = ${q}`,
        sql`lower(${users.casesId}) = ${q}`,
      );
    }
    return readPage(app.db, {
      rows: app.db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(sql`lower(${users.username}) COLLATE "C"`), asc(users.id))
        .$dynamic(),
      count: { from: users, where },
      page,
      pageSize: PAGE_SIZE,
      map: toAdminUser,
    });
  });

  route(app, adminUserEndpoints.adjustBalance, async (request) => {
    const { message, user } = await adjustBalance(app.db, actorOf(currentUser(request)), {
      userId: request.params.id,
      ...request.body,
    });
    return { message, user: toAdminUser(user) };
  });

  route(app, adminUserEndpoints.setRole, async (request) => {
    const user = await setRole(app.db, actorOf(currentUser(request)), request.params.id, request.body.role);
    app.sessionCache.evict({ userId: user.id });
    return { message: adminUserMessages.roleChanged(user.role), user: toAdminUser(user) };
  });

  route(app, adminUserEndpoints.setExcluded, async (request) => {
    const user = await setExcluded(app.db, actorOf(currentUser(request)), request.params.id, request.body.excluded);
    app.sessionCache.evict({ userId: user.id });
    await app.chat.linkChanged(user.id);
    return {
      message: user.excluded ? adminUserMessages.excluded : adminUserMessages.included,
      user: toAdminUser(user),
    };
  });
}

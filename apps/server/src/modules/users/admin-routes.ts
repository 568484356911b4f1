/**
 * Admin: Users (`/api/admin/users`): search with balances and linked accounts; grant or deduct
 * points or gems (reason required), change role, mark excluded. The rules live in admin-service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { adminUserEndpoints, adminUserMessages, type AdminUser } from '@kickback/common/http/admin-users';
import { decimalToNumber } from '@kickback/common/money';
import { readPage } from '../../db/page';
import { users, type UserRow } from '../../db/schema/users';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { notFound } from '../../lib/errors';
import { actorOf } from '../audit/service';
import { bansInForce, liftBan, type BanView } from '../kick-bans/service';
import { adjustBalance, setExcluded, setRole } from './admin-service';

const PAGE_SIZE = 25;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function toAdminUser(u: UserRow, kickBan: BanView | null = null): AdminUser {
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
    kickBan: kickBan && {
      reason: kickBan.reason,
      bannedAt: kickBan.bannedAt.toISOString(),
      expiresAt: kickBan.expiresAt?.toISOString() ?? null,
    },
  };
}

/** The users as the admin sees them, each with the Kick ban in force on their linked Kick account. */
async function withBans(app: FastifyInstance, list: UserRow[]): Promise<AdminUser[]> {
  const kickIds = list.flatMap((u) => (u.kickId ? [u.kickId] : []));
  const bans = await bansInForce(app.db, kickIds, app.clock.now());
  return list.map((u) => toAdminUser(u, (u.kickId && bans.get(u.kickId)) || null));
}
const withBan = async (app: FastifyInstance, u: UserRow) => (await withBans(app, [u]))[0]!;

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  route(app, adminUserEndpoints.list, async (request) => {
    const { query, page } = request.query;
    // Removed accounts are tombstones kept for the events they took part in: not listed.
    let where: SQL | undefined = isNull(users.removedAt);
    const q = query.toLowerCase();
    if (q) {
      const prefix = `${escapeLike(q)}%`;
      // Name prefix, or an exact id on any linked account (SteamID, Kick, Discord, partner ids).
      where = and(
        where,
        or(
          sql`lower(${users.username}) LIKE ${prefix}`,
          sql`${users.steamId} = ${query}`,
          sql`lower(${users.kickUsername}) = ${q}`,
          sql`lower(${users.discordUsername}) = ${q}`,
          sql`lower(${users.clashId}) = ${q}`,
          sql`lower(${users.rustMagicId}) = ${q}`,
          sql`lower(${users.roobetName}) = ${q}`,
          sql`lower(${users.casesId}) = ${q}`,
        ),
      );
    }
    const found = await readPage(app.db, {
      rows: app.db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(sql`lower(${users.username}) COLLATE "C"`), asc(users.id))
        .$dynamic(),
      count: { from: users, where },
      page,
      pageSize: PAGE_SIZE,
      map: (u) => u,
    });
    return { ...found, items: await withBans(app, found.items) };
  });

  route(app, adminUserEndpoints.adjustBalance, async (request) => {
    const { message, user } = await adjustBalance(app.db, actorOf(currentUser(request)), {
      userId: request.params.id,
      ...request.body,
    });
    return { message, user: await withBan(app, user) };
  });

  route(app, adminUserEndpoints.setRole, async (request) => {
    const user = await setRole(app.db, actorOf(currentUser(request)), request.params.id, request.body.role);
    app.sessionCache.evict({ userId: user.id });
    return { message: adminUserMessages.roleChanged(user.role), user: await withBan(app, user) };
  });

  route(app, adminUserEndpoints.setExcluded, async (request) => {
    const user = await setExcluded(app.db, actorOf(currentUser(request)), request.params.id, request.body.excluded);
    app.sessionCache.evict({ userId: user.id });
    await app.chat.linkChanged(user.id);
    return {
      message: user.excluded ? adminUserMessages.excluded : adminUserMessages.included,
      user: await withBan(app, user),
    };
  });

  route(app, adminUserEndpoints.liftKickBan, async (request) => {
    await liftBan(app.db, actorOf(currentUser(request)), request.params.id, app.clock.now());
    app.kickBans.changed();
    return {
      message: adminUserMessages.kickBanLifted,
      user: await withBan(app, await loadUser(app, request.params.id)),
    };
  });
}

async function loadUser(app: FastifyInstance, id: string): Promise<UserRow> {
  const [u] = await app.db.select().from(users).where(eq(users.id, id));
  if (!u) throw notFound('User not found.');
  return u;
}

/**
 * Kick bans as this site keeps them (docs/features/kick-events-and-bans.md): Kick's
 * `moderation.banned` recorded per Kick account (the latest ban wins; one older than the stored one,
 * arriving late, changes nothing), lifted by an admin on the site (Kick sends no unban event), and
 * the question every gate asks: is this account banned at this instant?
 */
import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { kickBans, type KickBanRow } from '../../db/schema/kick-bans';
import { users } from '../../db/schema/users';
import { rowsOf } from '../../db/rows';
import type { KickEventMeta } from '../../integrations/kick/event-handlers';
import { kickDate, type ModerationBanned } from '../../integrations/kick/events';
import { conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';

/** A ban in force at `at` for the Kick account `kickUserId` (an SQL expression). */
export function activeBanSql(kickUserId: SQL, at: Date | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM kick_bans b WHERE b.kick_user_id = ${kickUserId} AND b.lifted_at IS NULL
                     AND (b.expires_at IS NULL OR b.expires_at > ${at}))`;
}

const inForce = (now: Date) =>
  and(isNull(kickBans.liftedAt), or(isNull(kickBans.expiresAt), gt(kickBans.expiresAt, now)));

export type Who = { userId: string } | { kickUserId: string };

/**
 * Whether the account is banned on Kick at `now`: by Kick account id, or by site user (through the
 * Kick account they linked; a user with none is never banned). Exact: reads the table, so it may run
 * inside the caller's transaction.
 */
export async function isBanned(db: DbOrTx, who: Who, now: Date): Promise<boolean> {
  const kickUserId =
    'kickUserId' in who
      ? sql`${who.kickUserId}::text`
      : sql`(SELECT u.kick_id FROM users u WHERE u.id = ${who.userId})`;
  const [row] = rowsOf<{ banned: boolean }>(await db.execute(sql`SELECT ${activeBanSql(kickUserId, now)} AS banned`));
  return row?.banned === true;
}

/**
 * Records a `moderation.banned`: true when it is now the account's ban — not an older one arriving
 * late, nor the same ban again (Kick delivers some events twice under new message ids, and a copy
 * must not undo an admin's lift: docs/features/kick-events-and-bans.md#lifting-a-ban).
 */
export async function recordBan(tx: DbOrTx, event: ModerationBanned, meta: KickEventMeta): Promise<boolean> {
  const u = event.banned_user;
  const values = {
    kickUserId: u.user_id,
    kickUsername: u.username,
    reason: event.metadata.reason ?? null,
    moderator: event.moderator?.username ?? null,
    bannedAt: kickDate(event.metadata.created_at) ?? meta.sentAt,
    expiresAt: kickDate(event.metadata.expires_at),
    messageId: meta.messageId,
    receivedAt: meta.receivedAt,
  };
  const rows = await tx
    .insert(kickBans)
    .values(values)
    .onConflictDoUpdate({
      target: kickBans.kickUserId,
      set: { ...values, liftedAt: null, liftedBy: null },
      setWhere: sql`${kickBans.bannedAt} < excluded.banned_at`,
    })
    .returning({ kickUserId: kickBans.kickUserId });
  return rows.length > 0;
}

export interface BanView {
  kickUserId: string;
  reason: string | null;
  bannedAt: Date;
  /** Null: permanent. */
  expiresAt: Date | null;
}

/** The bans in force at `now` among these Kick accounts, by Kick account id. */
export async function bansInForce(
  db: DbOrTx,
  kickUserIds: readonly string[],
  now: Date,
): Promise<Map<string, BanView>> {
  if (kickUserIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(kickBans)
    .where(and(inForce(now), sql`${kickBans.kickUserId} = ANY (${sql.param([...kickUserIds])}::text[])`));
  return new Map(rows.map((r) => [r.kickUserId, viewOf(r)]));
}

/** Every ban in force at `now` (the in-memory list the chat gates read). */
export async function allBansInForce(db: DbOrTx, now: Date): Promise<BanView[]> {
  return (await db.select().from(kickBans).where(inForce(now))).map(viewOf);
}

const viewOf = (r: KickBanRow): BanView => ({
  kickUserId: r.kickUserId,
  reason: r.reason,
  bannedAt: r.bannedAt,
  expiresAt: r.expiresAt,
});

/** An admin lifts the Kick ban of a site user's linked Kick account (audited). Returns the Kick account id. */
export async function liftBan(db: Db, actor: Actor, userId: string, now: Date): Promise<string> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ kickId: users.kickId }).from(users).where(eq(users.id, userId));
    if (!user) throw notFound('User not found.');
    if (!user.kickId) throw conflict('This user has no Kick account linked.');
    const [ban] = await tx
      .select()
      .from(kickBans)
      .where(and(eq(kickBans.kickUserId, user.kickId), inForce(now)))
      .for('update');
    if (!ban) throw conflict('This user is not banned on Kick.');
    await tx
      .update(kickBans)
      .set({ liftedAt: now, liftedBy: actor.userId })
      .where(eq(kickBans.kickUserId, ban.kickUserId));
    await recordAudit(tx, actor, {
      action: 'kick.ban.lift',
      targetType: 'user',
      targetId: userId,
      before: {
        kickUserId: ban.kickUserId,
        reason: ban.reason,
        bannedAt: ban.bannedAt.toISOString(),
        expiresAt: ban.expiresAt?.toISOString() ?? null,
      },
    });
    return ban.kickUserId;
  });
}

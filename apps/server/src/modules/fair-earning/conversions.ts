/**
 * The fair-earning rules a channel-points conversion passes (docs/features/fair-earning.md): the
 * link and account ages, then the daily cap (last, since it takes from the day's allowance). Run in
 * the transaction that credits the redemption, after the redeemer's row was locked.
 */
import { desc, eq } from 'drizzle-orm';
import { fairEarningRefusals } from '@kickback/common/http/fair-earning';
import { decimalToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx, Tx } from '../../db/client';
import { kickChannelRewards, kickRewardRedemptions } from '../../db/schema/support-rewards';
import { users, type UserRow } from '../../db/schema/users';
import { ageRefusal } from './ages';
import { grantWithinDailyCap, utcDay } from './caps';
import { readFairSettings } from './settings';

export async function conversionRefusal(
  tx: Tx,
  user: Pick<UserRow, 'id' | 'kickId' | 'kickLinkedAt'>,
  points: string,
  now: Date,
): Promise<string | null> {
  const settings = await readFairSettings(tx);
  const tooNew = await ageRefusal(tx, settings, user, now);
  if (tooNew) return tooNew;
  const cap = toCents(settings.channelPointsDailyCap);
  if (cap <= 0n) return null;
  const day = utcDay(now);
  const granted = await grantWithinDailyCap(
    tx,
    'channel_points',
    cap,
    [{ userId: user.id, day, cents: toCents(points) }],
    'whole',
  );
  if ((granted.get(`${user.id}|${day}`) ?? 0n) > 0n) return null;
  return fairEarningRefusals.channelCap(decimalToNumber(settings.channelPointsDailyCap).toLocaleString('en-US'));
}

/** The newest refused conversions, with their reasons (the admin's list). */
export async function recentRefusals(db: DbOrTx, limit = 50) {
  const rows = await db
    .select({
      id: kickRewardRedemptions.id,
      kickUsername: kickRewardRedemptions.kickUsername,
      username: users.username,
      reward: kickChannelRewards.title,
      reason: kickRewardRedemptions.reason,
      at: kickRewardRedemptions.createdAt,
    })
    .from(kickRewardRedemptions)
    .innerJoin(kickChannelRewards, eq(kickChannelRewards.id, kickRewardRedemptions.rewardId))
    .leftJoin(users, eq(users.id, kickRewardRedemptions.userId))
    .where(eq(kickRewardRedemptions.outcome, 'rejected'))
    .orderBy(desc(kickRewardRedemptions.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, reason: r.reason ?? 'Rejected.', at: r.at.toISOString() }));
}

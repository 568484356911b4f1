/**
 * Channel-points redemptions (docs/features/channel-points.md). A redemption of a bridged reward is
 * kept once (its Kick id is the primary key) in the transaction that claims its delivery: a linked,
 * non-excluded, non-banned redeemer is credited the reward's points there; anyone else is marked
 * rejected with the reason. Kick is told afterwards (accept, or reject so it refunds the channel
 * points) by `settle`, after the commit and again every few seconds until Kick took it, so neither a
 * restart nor a redelivery settles twice or credits twice. A credited redemption is announced in
 * chat once, after the commit, through the outgoing chat queue (`redemptionThanks`), merged with the
 * others waiting: "Channel points: @a 500 pts · @b 200 pts".
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { abbreviatePoints } from '@kickback/common/games/prediction';
import { decimalToNumber } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { kickChannelRewards, kickRewardRedemptions } from '../../db/schema/support-rewards';
import { users } from '../../db/schema/users';
import { MalformedKickEvent, rewardRedemption, type KickEventMeta } from '../../integrations/kick/support-events';
import type { ChatOut } from '../chat-out/service';
import { applyBalanceChange } from '../ledger/service';
import { isBanned } from '../kick-bans/service';
import { conversionRefusal } from '../fair-earning/service';

const SETTLE_BATCH = 25;

async function decide(tx: Tx, kickUserId: string | null, now: Date, points: string) {
  if (!kickUserId) return { userId: null, reason: 'Anonymous redeemer.' };
  const [user] = await tx.select().from(users).where(eq(users.kickId, kickUserId)).for('update');
  if (!user) return { userId: null, reason: 'Kick account not linked to a site account.' };
  if (user.excluded) return { userId: user.id, reason: 'Excluded account.' };
  if (await isBanned(tx, { userId: user.id }, now)) return { userId: user.id, reason: 'Banned in Kick chat.' };
  // Ages and the daily cap (docs/features/fair-earning.md), under the redeemer's row lock.
  return { userId: user.id, reason: await conversionRefusal(tx, user, points, now) };
}

/** A redemption credited in this delivery's transaction: what chat is told once it committed. */
export interface CreditedRedemption {
  kickUsername: string;
  /** The site points credited (decimal text). */
  points: string;
}

/** The topic the queue folds channel-points thanks under. */
export const REDEMPTION_TOPIC = 'Channel points';

/** A credited redemption's chat line, folded by the queue with the others of its topic. */
export const redemptionThanks = (credited: CreditedRedemption): ChatOut => ({
  kind: 'thanks',
  topic: REDEMPTION_TOPIC,
  addressee: credited.kickUsername,
  item: `${abbreviatePoints(decimalToNumber(credited.points))} pts`,
});

/**
 * `channel.reward.redemption.updated`: only new (pending) redemptions of a bridged reward count.
 * Resolves to the credit made now (null when nothing was credited: a rejection, an echo, or a
 * redemption kept before), so the caller announces each redemption once.
 */
export async function redemptionHandler(
  tx: Tx,
  payload: unknown,
  meta: KickEventMeta,
): Promise<CreditedRedemption | null> {
  const parsed = rewardRedemption.safeParse(payload);
  if (!parsed.success) throw new MalformedKickEvent(meta.type);
  const event = parsed.data;
  if (event.status !== 'pending') return null; // Kick's echo of a settlement
  const [reward] = await tx.select().from(kickChannelRewards).where(eq(kickChannelRewards.id, event.reward.id));
  if (!reward) return null; // not a bridged reward: the streamer handles it on Kick
  const [claimed] = await tx
    .insert(kickRewardRedemptions)
    .values({
      id: event.id,
      rewardId: reward.id,
      kickUserId: event.redeemer.user_id ?? null,
      kickUsername: event.redeemer.username ?? null,
      outcome: 'rejected',
      reason: 'Being decided.',
    })
    .onConflictDoNothing({ target: kickRewardRedemptions.id })
    .returning({ id: kickRewardRedemptions.id });
  if (!claimed) return null; // kept before, under another delivery: credited (or not) then
  const { userId, reason } = await decide(tx, event.redeemer.user_id ?? null, meta.receivedAt, reward.points);
  if (reason || !userId) {
    await tx.update(kickRewardRedemptions).set({ userId, reason }).where(eq(kickRewardRedemptions.id, event.id));
    return null;
  }
  const credit = await applyBalanceChange(tx, {
    userId,
    currency: 'points',
    delta: reward.points,
    reason: 'channel_points',
    reference: `redemption:${event.id}`,
    memo: reward.title,
    earning: true,
  });
  await tx
    .update(kickRewardRedemptions)
    .set(
      credit
        ? { userId, outcome: 'accepted', reason: null, points: reward.points, ledgerId: credit.ledgerId }
        : { userId, reason: 'Excluded account.' },
    )
    .where(eq(kickRewardRedemptions.id, event.id));
  return credit ? { kickUsername: event.redeemer.username ?? 'Someone', points: reward.points } : null;
}

/**
 * Tells Kick the outcome of every redemption not settled yet (one process per row: the rows stay
 * locked until Kick answered). Without a connected Kick account they wait. Returns how many settled.
 */
export async function settleRedemptions(app: FastifyInstance): Promise<number> {
  const token = app.kickBot ? await app.kickBot.tokens.accessToken() : null;
  if (!token || !app.kickBot) return 0;
  const { api } = app.kickBot;
  return app.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(kickRewardRedemptions)
      .where(isNull(kickRewardRedemptions.settledAt))
      .orderBy(kickRewardRedemptions.createdAt)
      .limit(SETTLE_BATCH)
      .for('update', { skipLocked: true });
    if (rows.length === 0) return 0;
    let settled = 0;
    for (const outcome of ['accepted', 'rejected'] as const) {
      const batch = rows.filter((r) => r.outcome === outcome);
      if (batch.length === 0) continue;
      // Ids Kick reports as failed were settled before (settling is final on Kick): done either way.
      await api.settleRedemptions(
        token,
        outcome === 'accepted' ? 'accept' : 'reject',
        batch.map((r) => r.id),
      );
      for (const r of batch) {
        if (outcome === 'rejected') {
          app.log.info(
            { redemptionId: r.id, kickUsername: r.kickUsername, reason: r.reason },
            'channel points redemption rejected',
          );
        }
      }
      await tx
        .update(kickRewardRedemptions)
        .set({ settledAt: app.clock.now() })
        .where(
          and(
            inArray(
              kickRewardRedemptions.id,
              batch.map((r) => r.id),
            ),
            isNull(kickRewardRedemptions.settledAt),
          ),
        );
      settled += batch.length;
    }
    return settled;
  });
}

/**
 * Admin → Support rewards → Channel points: the Kick channel rewards created from the site (through
 * Kick's rewards API, with the connected account's token) and the Kickback points each is worth.
 * Kick allows 15 rewards per channel, counting those made on Kick itself: the 16th is refused here
 * with a clear message before Kick is asked.
 */
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decimalToNumber } from '@kickback/common/money';
import { KICK_REWARDS_MAX, supportRewardMessages, type ChannelReward } from '@kickback/common/http/support-rewards';
import { kickChannelRewards, kickRewardRedemptions } from '../../db/schema/support-rewards';
import { KickApiError } from '../../integrations/kick/api';
import { conflict, notFound } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';

type Admin = { id: string; username: string };

async function kickAccess(app: FastifyInstance) {
  const token = app.kickBot ? await app.kickBot.tokens.accessToken() : null;
  if (!token || !app.kickBot) throw conflict(supportRewardMessages.kickNotConnected);
  return { token, api: app.kickBot.api };
}

export async function listChannelRewards(app: FastifyInstance): Promise<ChannelReward[]> {
  const rows = await app.db
    .select({ reward: kickChannelRewards, redemptions: count(kickRewardRedemptions.id) })
    .from(kickChannelRewards)
    .leftJoin(kickRewardRedemptions, eq(kickRewardRedemptions.rewardId, kickChannelRewards.id))
    .groupBy(kickChannelRewards.id)
    .orderBy(kickChannelRewards.createdAt);
  return rows.map(({ reward, redemptions }) => ({
    id: reward.id,
    title: reward.title,
    cost: reward.cost,
    points: decimalToNumber(reward.points),
    redemptions,
  }));
}

export async function createChannelReward(
  app: FastifyInstance,
  admin: Admin,
  body: { title: string; cost: number; points: number },
): Promise<ChannelReward> {
  const { token, api } = await kickAccess(app);
  if ((await api.listRewards(token)).length >= KICK_REWARDS_MAX) throw conflict(supportRewardMessages.tooManyRewards);
  let created;
  try {
    created = await api.createReward(token, {
      title: body.title,
      cost: body.cost,
      description: `Worth ${body.points} points on the site.`,
    });
  } catch (err) {
    if (err instanceof KickApiError && err.status === 400) throw conflict(`Kick refused the reward: ${err.message}`);
    throw err;
  }
  const points = String(body.points);
  await app.db.transaction(async (tx) => {
    await tx
      .insert(kickChannelRewards)
      .values({ id: created.id, title: created.title, cost: created.cost, points, createdBy: admin.id });
    await recordAudit(tx, actorOf(admin), {
      action: 'channel_rewards.create',
      targetType: 'kick_reward',
      targetId: created.id,
      after: { title: created.title, cost: created.cost, points },
    });
  });
  return { id: created.id, title: created.title, cost: created.cost, points: body.points, redemptions: 0 };
}

export async function deleteChannelReward(app: FastifyInstance, admin: Admin, id: string): Promise<void> {
  const [row] = await app.db.select().from(kickChannelRewards).where(eq(kickChannelRewards.id, id));
  if (!row) throw notFound('Channel reward not found.');
  const { token, api } = await kickAccess(app);
  await api.deleteReward(token, id);
  await app.db.transaction(async (tx) => {
    await tx.delete(kickChannelRewards).where(eq(kickChannelRewards.id, id));
    await recordAudit(tx, actorOf(admin), {
      action: 'channel_rewards.delete',
      targetType: 'kick_reward',
      targetId: id,
      before: { title: row.title, cost: row.cost, points: row.points },
    });
  });
}

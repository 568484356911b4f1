/**
 * "How to earn points" (docs/features/earning-points.md): every way a viewer earns points, with the
 * amounts as the admins set them, read from the modules that pay them (through their services). The
 * route keeps it as a cached public read; each of those modules drops it when its amounts change.
 */
import type { FastifyInstance } from 'fastify';
import type { EarnWays } from '@kickback/common/http/earn';
import { listChannelRewards } from '../channel-points/service';
import { presentSupportRewardSettings, readSupportRewardSettings } from '../support-rewards/service';

/** The cached read's key; the writers name it too (EARN_READ in their service.ts). */
export const EARN_READ = 'earn';

export async function earnWays(app: FastifyInstance): Promise<EarnWays> {
  const [support, rewards, wagering] = await Promise.all([
    readSupportRewardSettings(app.db).then(presentSupportRewardSettings),
    listChannelRewards(app),
    app.leaderboards.wagerPointRates(),
  ]);
  return {
    chatPointsPerMinute: app.config.chatPoints.pointsPerMinute,
    support: {
      enabled: support.enabled,
      subPoints: support.subPoints,
      giftPoints: support.giftPoints,
      kickPoints: support.kickPoints,
      followPoints: support.followPoints,
      dailyCap: support.dailyCap,
    },
    channelRewards: rewards.filter((r) => r.points > 0).map(({ title, cost, points }) => ({ title, cost, points })),
    wagering,
  };
}

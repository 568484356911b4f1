/**
 * The channel-points bridge: the admin routes for Kick channel rewards, and settling redemptions
 * with Kick after each handled event and every few seconds in a listening server (restart safe).
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { supportRewardEndpoints, supportRewardMessages } from '@kickback/common/http/support-rewards';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { settleRedemptions } from './redemptions';
import { EARN_READ } from './service';
import { createChannelReward, deleteChannelReward, listChannelRewards } from './rewards';

declare module 'fastify' {
  interface FastifyInstance {
    channelPoints: { settleSoon(): void; settle(): Promise<number> };
  }
}

const SETTLE_EVERY_MS = 10_000;

export const channelPointsPlugin = plugin({
  name: 'channelPointsPlugin',
  dependencies: ['kickBotPlugin'],
})(async (app: FastifyInstance) => {
  let running: Promise<number> = Promise.resolve(0);
  const settle = () => {
    const next = running.then(
      () => settleRedemptions(app),
      () => settleRedemptions(app),
    );
    running = next.catch(() => 0);
    return next;
  };
  const settleSoon = () =>
    void settle().catch((err: unknown) =>
      app.log.warn({ err }, 'channel points: settling with Kick failed; retried later'),
    );
  app.decorate('channelPoints', { settleSoon, settle });

  route(app, supportRewardEndpoints.channelRewards, async () => listChannelRewards(app));
  route(app, supportRewardEndpoints.createChannelReward, async (request) => {
    const reward = await createChannelReward(app, currentUser(request), request.body);
    app.reads.invalidate(EARN_READ); // committed: /earn lists it
    return { message: supportRewardMessages.rewardCreated, reward };
  });
  route(app, supportRewardEndpoints.deleteChannelReward, async (request) => {
    await deleteChannelReward(app, currentUser(request), request.params.id);
    app.reads.invalidate(EARN_READ);
    return { message: supportRewardMessages.rewardDeleted };
  });

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    settleSoon();
    timer = setInterval(settleSoon, SETTLE_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
});

/**
 * `app.supportRewards`: the announcer of paid support rewards (chat and the alerts overlay), its
 * sweep in a listening server, the admin routes and the overlay's hub.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { supportAlertsHub } from '@kickback/common/hubs/support-alerts';
import { ALERTS_ROOM, SupportAnnouncer } from './announcer';
import { supportRewardRoutes } from './routes';
import { GIFT_HOLD_TIMER, releaseHeldReward } from './hold';

declare module 'fastify' {
  interface FastifyInstance {
    supportRewards: { announcer: SupportAnnouncer };
  }
}

const SWEEP_EVERY_MS = 5_000;

export const supportRewardsPlugin = plugin({
  name: 'supportRewardsPlugin',
  dependencies: ['chatOutModule', 'realtimePlugin', 'gamesPlugin'],
})(async (app: FastifyInstance) => {
  // One `thanks` per reward through the outgoing chat queue, which merges them (never dropped by age).
  const announcer = new SupportAnnouncer(app, (...messages) => app.chatOut.enqueue(...messages));
  app.decorate('supportRewards', { announcer });
  // A held gift's hold ended (./hold.ts): pays it once, unless an Admin reversed it meanwhile.
  app.timers.register(GIFT_HOLD_TIMER, {
    fire: async (tx, id, _version, after) => {
      const released = await releaseHeldReward(tx, Number(id), app.clock.now());
      if (released?.status === 'paid') after.push(() => announcer.schedule());
      return 'done';
    },
  });
  app.realtime.register(supportAlertsHub, {
    async connect(ctx) {
      ctx.join(ALERTS_ROOM);
    },
    calls: { GetRecentAlerts: () => announcer.recent() },
  });
  await app.register(supportRewardRoutes);

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(() => announcer.schedule(), SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    announcer.stop();
  });
});

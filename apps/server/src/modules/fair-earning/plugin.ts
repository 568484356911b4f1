/**
 * `app.fairEarning` (docs/features/fair-earning.md): the admin routes (settings, possible alts,
 * refused conversions), recording the hashed sign-in signals, and the retention sweep (hourly in a
 * listening server; one DELETE, harmless when two processes run it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fairEarningEndpoints, fairEarningMessages } from '@kickback/common/http/fair-earning';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { recentRefusals } from './conversions';
import { presentFairSettings, readFairSettings, updateFairSettings } from './settings';
import { deviceOf, listAltGroups, recordSignals, sweepSignals, type Signal } from './signals';

declare module 'fastify' {
  interface FastifyInstance {
    fairEarning: {
      /** Keeps the hashed address and device of a sign-in (the device cookie is set when missing). */
      recordSignIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
      /** Keeps the hashed partner ids a user saved (`site:id`). */
      recordPartnerIds(userId: string, ids: readonly string[]): Promise<void>;
      sweep(): Promise<number>;
    };
  }
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const fairEarningPlugin = plugin({ name: 'fairEarningPlugin' })(async (app: FastifyInstance) => {
  const secret = app.config.sessionSecret;
  const record = (userId: string, signals: Signal[]) => recordSignals(app.db, secret, userId, signals, app.clock.now());
  const sweep = async () => sweepSignals(app.db, (await readFairSettings(app.db)).signalRetentionDays, app.clock.now());
  app.decorate('fairEarning', {
    async recordSignIn(request, reply, userId) {
      const device = deviceOf(request, reply, app.config.cookies);
      await record(userId, [
        { kind: 'address', value: request.ip },
        { kind: 'device', value: device },
      ]);
    },
    async recordPartnerIds(userId, ids) {
      await record(
        userId,
        ids.map((value) => ({ kind: 'partner', value: value.toLowerCase() })),
      );
    },
    sweep,
  });

  route(app, fairEarningEndpoints.settings, async () => presentFairSettings(app.db));
  route(app, fairEarningEndpoints.update, async (request) => {
    const settings = await updateFairSettings(app.db, currentUser(request), request.body, app.clock.now());
    return { message: fairEarningMessages.saved, settings };
  });
  route(app, fairEarningEndpoints.alts, async () => ({
    groups: await listAltGroups(app.db),
    retentionDays: (await readFairSettings(app.db)).signalRetentionDays,
  }));
  route(app, fairEarningEndpoints.refusals, async () => ({ items: await recentRefusals(app.db) }));

  let timer: NodeJS.Timeout | null = null;
  const sweepLater = () =>
    void sweep().catch((err: unknown) => app.log.warn({ err }, 'fair earning: signal sweep failed; retried later'));
  app.addHook('onListen', async () => {
    sweepLater();
    timer = setInterval(sweepLater, SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
});

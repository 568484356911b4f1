/** Puts the durable game timers on the app (`app.timers`): sweeping from ready, stopped on close. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GameTimers } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    timers: GameTimers;
  }
}

export const timersPlugin = fp(async (app: FastifyInstance) => {
  const timers = new GameTimers(app.db, app.clock, app.log, app.config.timerSweepMs);
  app.decorate('timers', timers);
  app.addHook('onReady', async () => timers.start());
  app.addHook('preClose', async () => timers.stop());
});

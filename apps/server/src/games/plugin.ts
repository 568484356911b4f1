/**
 * Puts the game engine on the app: the durable timers (`app.timers`, sweeping from ready, stopped
 * on close), the game chat pipeline (`app.gameChat`, Redis flood limits when configured) and the
 * engine games register with (`app.games`). Registered after the real-time layer.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import { FallbackLimiter, MemoryLimiter, RedisLimiter } from '../lib/limiter';
import { GameChat } from './chat';
import { GameEngine } from './engine';
import { GameTimers } from './timers';

declare module 'fastify' {
  interface FastifyInstance {
    timers: GameTimers;
    gameChat: GameChat;
    games: GameEngine;
  }
}

export const gamesPlugin = plugin({
  name: 'gamesPlugin',
  dependencies: ['realtimePlugin'],
})(async (app: FastifyInstance) => {
  const timers = new GameTimers(app.db, app.clock, app.log, app.config.timerSweepMs);
  app.decorate('timers', timers);
  app.addHook('onReady', async () => timers.start());
  app.addHook('preClose', async () => timers.stop());

  const limiter =
    app.redis && app.redisStatus
      ? new FallbackLimiter(new RedisLimiter(app.redis, app.config.redisPrefix), new MemoryLimiter(), app.redisStatus)
      : new MemoryLimiter();
  app.decorate('gameChat', new GameChat(app.db, limiter, () => app.clock.now()));

  app.decorate('games', new GameEngine({ db: app.db, clock: app.clock, log: app.log, realtime: app.realtime, timers }));
});

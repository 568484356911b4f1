/** Puts the game chat pipeline on the app (`app.gameChat`), with Redis flood limits when configured. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MemoryLimiter, RedisLimiter } from '../../lib/limiter';
import { GameChat } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    gameChat: GameChat;
  }
}

export const gameChatPlugin = fp(async (app: FastifyInstance) => {
  const limiter = app.redis ? new RedisLimiter(app.redis, app.config.redisPrefix) : new MemoryLimiter();
  app.decorate('gameChat', new GameChat(app.db, limiter, () => app.clock.now()));
});

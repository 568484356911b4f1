/**
 * With Redis (REDIS_URL), read-cache invalidations reach every process: each is published on one
 * channel and every process drops the entries it names. Without Redis there is one process (or
 * each process waits for its entries' time-to-live).
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ReadCache } from './read-cache';

export async function syncReadCache(app: FastifyInstance, redis: Redis, cache: ReadCache): Promise<void> {
  const channel = `${app.config.redisPrefix}read-invalidate`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {
    // ioredis reconnects by itself; until then entries still expire after their time-to-live.
  });
  subscriber.on('message', (from: string, prefix: string) => {
    if (from === channel) cache.invalidateLocally(prefix);
  });
  await subscriber.subscribe(channel).catch((err: Error) => {
    app.log.warn({ err: err.message }, 'read-cache invalidations: not subscribed yet');
  });
  cache.onInvalidate((prefix) => {
    redis.publish(channel, prefix).catch((err: Error) => {
      app.log.warn({ err: err.message }, 'read-cache invalidation not published; other processes wait for the TTL');
    });
  });
  app.addHook('onClose', async () => void (await subscriber.quit().catch(() => subscriber.disconnect())));
}

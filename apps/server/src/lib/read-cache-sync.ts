/**
 * With Redis (REDIS_URL), read-cache invalidations reach every process: each is published on one
 * channel and every process drops the entries it names. Without Redis there is one process (or
 * each process waits for its entries' time-to-live; the same while Redis is away, and a process
 * that rejoins drops its entries, since invalidations sent meanwhile were lost).
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { subscribeQueued } from './redis';
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
  await subscribeQueued(subscriber, channel, redis, (err) => {
    app.log.warn({ err: err.message }, 'read-cache invalidations: not subscribed yet');
  });
  const status = app.redisStatus;
  cache.onInvalidate((prefix) => {
    // While Redis is away nothing is published (the outage is logged once, lib/redis.ts).
    if (status && !status.up) return;
    redis.publish(channel, prefix).catch((err: Error) => {
      if (status?.up !== false) {
        app.log.warn({ err: err.message }, 'read-cache invalidation not published; other processes wait for the TTL');
      }
    });
  });
  // Invalidations published elsewhere during an outage were lost: start afresh on rejoining.
  status?.onRejoin(() => cache.invalidateLocally(''));
  app.addHook('onClose', async () => void (await subscriber.quit().catch(() => subscriber.disconnect())));
}

/**
 * With Redis (REDIS_URL), session-cache evictions reach every process: each eviction is published
 * on one channel and every process drops the entries it names. Without Redis, a process learns of
 * a sign-out or role change elsewhere only when its entry's few seconds run out (session-cache.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { subscribeQueued } from './redis';
import type { Eviction, SessionCache } from './session-cache';

function parseEviction(message: string): Eviction | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (typeof value.sessionId === 'string') return { sessionId: value.sessionId };
    if (typeof value.userId === 'string') return { userId: value.userId };
  } catch {
    // not ours
  }
  return null;
}

export async function syncSessionCache(app: FastifyInstance, redis: Redis, cache: SessionCache): Promise<void> {
  const channel = `${app.config.redisPrefix}session-evict`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {
    // ioredis reconnects by itself; until then entries still expire after their few seconds.
  });
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const eviction = parseEviction(message);
    if (eviction) cache.evictLocally(eviction);
  });
  // ioredis subscribes again after a reconnect; a Redis that is down at start must not stop the app.
  await subscribeQueued(subscriber, channel, redis, (err) => {
    app.log.warn({ err: err.message }, 'session evictions: not subscribed yet');
  });
  const status = app.redisStatus;
  cache.onEvict((eviction) => {
    // While Redis is away nothing is published (the outage is logged once, lib/redis.ts).
    if (status && !status.up) return;
    redis.publish(channel, JSON.stringify(eviction)).catch((err: Error) => {
      if (status?.up !== false) {
        app.log.warn({ err: err.message }, 'session eviction not published; other processes wait for the TTL');
      }
    });
  });
  // Evictions published elsewhere during an outage were lost: start afresh on rejoining.
  status?.onRejoin(() => cache.clear());
  app.addHook('onClose', async () => void (await subscriber.quit().catch(() => subscriber.disconnect())));
}

/**
 * The Redis connection of a process (only with REDIS_URL): the Socket.IO streams adapter, the
 * API rate-limit store and the game-chat flood limits share it. Without Redis all of these run
 * in-process.
 */
import { Redis } from 'ioredis';

export function openRedis(url: string): Redis {
  const redis = new Redis(url, {
    // Fail a command quickly when Redis is down instead of queueing forever: rate limits skip on
    // error and broadcasts resume once the adapter reconnects.
    maxRetriesPerRequest: 2,
    connectionName: 'kickback',
  });
  redis.on('error', () => {
    // ioredis reconnects by itself; the errors reach the callers of each command.
  });
  return redis;
}

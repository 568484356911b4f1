/**
 * Tests that need a real Redis (TEST_REDIS_URL, else redis://127.0.0.1:6379): in CI a missing Redis
 * fails the run; elsewhere the test is skipped and says why.
 */
import { Redis } from 'ioredis';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why Redis cannot be used (null when it answers a ping). */
export async function redisMissing(): Promise<string | null> {
  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return `Redis at ${testRedisUrl} is not reachable (${(err as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

/** For `describe.skipIf(missing !== null)`: throws in CI, prints the skip elsewhere. */
export async function redisForTest(testName: string): Promise<string | null> {
  const missing = await redisMissing();
  if (missing) {
    if (process.env.CI) throw new Error(`${testName}: ${missing}`);
    console.log(`${testName} SKIPPED: ${missing}`);
  }
  return missing;
}

/**
 * With REDIS_URL the API rate limit is one budget per user across every process (docs/architecture.md#redis
 * scale-out). Skipped outside CI, with the reason printed, when no Redis answers.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { users } from '../db/schema/users';
import { createSession } from '../lib/sessions';
import { buildTestApp, type TestApp } from '../../test/app';
import { listen } from '../../test/hub-client';
import { redisForTest, testRedisUrl } from '../../test/redis';

const missing = await redisForTest('Redis rate-limit test');

describe.skipIf(missing !== null)('rate limits with Redis', () => {
  const prefix = `kbtest:rl:${randomBytes(4).toString('hex')}:`;
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
    const redis = new Redis(testRedisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '4' };
    a = await buildTestApp({ env });
    apps.push(a);
    b = await buildTestApp({ env });
    apps.push(b);
  });

  it('counts one user’s calls on two processes against one budget', async () => {
    // The same user (same id) on both: sessions live in each app's database, the budget in Redis.
    const user = await a.signIn();
    const twin = await b.signIn();
    await b.database.db.delete(users).where(eq(users.id, twin.user.id));
    await b.database.db.insert(users).values({ ...user.user });
    const { token } = await createSession(b.database.db, user.user.id, new Date(), 'test');
    const onB = { user: user.user, cookie: `kb_session=${token}` };

    const codes: number[] = [];
    for (const [app, as] of [
      [a, user],
      [b, onB],
      [a, user],
      [b, onB],
      [a, user],
    ] as const) {
      codes.push((await app.call({ url: '/api/User/ping', as })).statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 200, 429]);
  });

  it('the cached reads answered in front of the router take from the same budget in Redis', async () => {
    const [onA, onB] = [`${await listen(a.app)}/api/site`, `${await listen(b.app)}/api/site`];
    const answers: Array<[number, boolean]> = [];
    // Fresh address budget: the user's calls above were counted under the user's id.
    for (const [{ app }, url] of [
      [a, onA],
      [a, onA],
      [b, onB],
      [b, onB],
      [a, onA],
    ] as const) {
      const before = app.readFastPath.answeredCount;
      const res = await fetch(url, { headers: { 'x-requested-with': 'kickback' } });
      answers.push([res.status, app.readFastPath.answeredCount > before]);
    }
    // Each process builds its entry on the router, then answers in front of it; the fifth call is
    // over the shared budget of 4 and refused by the router.
    expect(answers).toEqual([
      [200, false],
      [200, true],
      [200, false],
      [200, true],
      [429, false],
    ]);
  });
});

/** Demo challenges: active and ended (with winners and queued prizes) on the public page, once. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { buildTestApp, type TestApp } from '../../../test/app';
import { seedChallenges } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

it('seeds active and ended challenges with winners, queues their prizes, and runs once', async () => {
  await seedChallenges(t.app);
  await seedChallenges(t.app);
  const { challenges } = (await t.call({ url: '/api/Challenge/getuserchallenges' })).json() as {
    challenges: Array<{ status: number; winnerUserName: string | null }>;
  };
  const active = challenges.filter((c) => c.status === 0);
  const ended = challenges.filter((c) => c.status === 1);
  expect(active.length).toBeGreaterThanOrEqual(3);
  expect(ended.length).toBeGreaterThanOrEqual(2);
  expect(ended.every((c) => c.winnerUserName)).toBe(true);
  const prizes = await t.database.db.select().from(fulfilmentItems).where(eq(fulfilmentItems.kind, 'challenge'));
  expect(prizes).toHaveLength(ended.length);
});

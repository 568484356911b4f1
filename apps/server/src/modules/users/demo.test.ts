/** Demo staff: the dev provider's demo Moderator is seeded as a Moderator, once; a role set since is kept. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { demoUsers } from '../../config';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../../test/app';
import { seedDemoModerators } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const roleOf = async (steamId: string) =>
  (await t.database.db.select().from(users).where(eq(users.steamId, steamId)))[0]?.role;

it('seeds the demo Moderator as a Moderator, and leaves an existing user’s role alone', async () => {
  const moderator = demoUsers.find((u) => u.moderator);
  expect(moderator).toBeDefined();
  await seedDemoModerators(t.app);
  expect(await roleOf(moderator!.steamId)).toBe('Moderator');
  await t.database.db.update(users).set({ role: 'User' }).where(eq(users.steamId, moderator!.steamId));
  await seedDemoModerators(t.app); // a second start: an admin's change stays
  expect(await roleOf(moderator!.steamId)).toBe('User');
  expect(await t.database.db.select().from(users).where(eq(users.steamId, moderator!.steamId))).toHaveLength(1);
});

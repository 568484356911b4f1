/** Demo daily rewards: LuckyLuke's calendar has claimed and missed days; the payouts are queued. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildCalendar, cardStateOf } from '@kickback/common/rewards/calendar';
import { demoUsers } from '../../config';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ManualClock } from '../../lib/clock';
import { buildTestApp, type TestApp } from '../../../test/app';
import { seedDemoData } from '../demo/seed';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock('2026-03-10T12:00:00Z') });
});
afterAll(async () => {
  await t.close();
});

it("seeds LuckyLuke's claims this month with their payouts, once", async () => {
  await seedDemoData(t.app);
  await seedDemoData(t.app);
  const luke = demoUsers.find((u) => u.name === 'LuckyLuke')!;
  const me = await t.signIn({ steamId: luke.steamId, name: luke.name });
  const records = (await t.call({ url: '/api/DailyReward/GetMontlyRewardsRoobet', as: me })).json();
  const states = buildCalendar(t.clock.now(), records).map(cardStateOf);
  expect(states.slice(0, 11)).toEqual([
    'claimed',
    'claimed',
    'timeout',
    'claimed',
    'claimed',
    'claimed',
    'timeout',
    'claimed',
    'claimed',
    'available',
    'locked',
  ]);
  const items = await t.database.db.select().from(fulfilmentItems).where(eq(fulfilmentItems.kind, 'daily_reward'));
  expect(items).toHaveLength(7);
  expect(items.filter((i) => i.status === 'pending')).toHaveLength(1);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ManualClock } from '../../lib/clock';
import { seedDemoData } from '../demo/seed';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock('2026-03-04T12:00:00Z') });
});
afterAll(async () => {
  await t.close();
});

it('demo data: prizes, codes, linked users and a finished previous week on every board; seeding twice adds nothing', async () => {
  await seedDemoData(t.app);
  const sites = (await t.call({ url: '/api/LeaderBoard/sites' })).json().sites;
  expect(sites).toHaveLength(7);
  expect(sites[0]).toMatchObject({ id: 1, codes: ['VEX', 'VEXGG'], referralUrl: 'https://clash.gg/r/VEX' });
  expect(sites[6].codes).toEqual(['VEX', 'VEXCASES']);
  expect(sites[5].codes).toEqual(['VEX']);

  const previous = (await t.call({ url: '/api/LeaderBoard/previous' })).json();
  expect(previous.period).toEqual({ startDate: '2026-02-23T00:00:00.000Z', endDate: '2026-03-02T00:00:00.000Z' });
  expect(previous.data.length).toBeGreaterThan(15);
  // A player who left the code during the week: the "Not active" cross has a row to show on.
  expect(previous.data.filter((e: { isActive: boolean }) => !e.isActive).length).toBeGreaterThan(0);
  expect(previous.rewards[0]).toEqual({ rank: 1, reward: 1000, rewardBonus: 250 });
  // LuckyLuke linked their Clash id and shows their name: named, with the Clash Id popover.
  expect(previous.data.find((e: { userName: string }) => e.userName === 'LuckyLuke')?.clashId).not.toBe(-1);
  // CrateQueen is linked but keeps her name hidden.
  expect(previous.data.some((e: { userName: string }) => e.userName === 'Cr***en')).toBe(true);
  // Other features' demo data queue their own prizes too (challenges, daily rewards).
  const queued = await t.database.db.select().from(fulfilmentItems);
  const before = queued.length;
  expect(queued.filter((q) => q.kind === 'leaderboard').length).toBeGreaterThan(0);

  await seedDemoData(t.app);
  expect(await t.database.db.select().from(fulfilmentItems)).toHaveLength(before);
});

/**
 * `GET /api/earn` (docs/features/earning-points.md): public, and in step with the settings that pay —
 * a change of the support-reward amounts, a channel reward created or deleted and a site's points
 * rate each show on the next read (the cached read is dropped when they commit).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EarnWays } from '@kickback/common/http/earn';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { connectKickBot } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

async function ways(): Promise<EarnWays> {
  const res = await t.call({ url: '/api/earn', as: null });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<EarnWays>();
}

const supportBody = {
  enabled: true,
  subPoints: 500,
  giftPoints: 500,
  kickPoints: 10,
  followPoints: 100,
  dailyCap: 5000,
  pendingHours: 72,
};

async function saveSupport(admin: TestUser, body: Partial<typeof supportBody>) {
  const res = await t.call({
    method: 'PUT',
    url: '/api/admin/support-rewards/settings',
    as: admin,
    body: { ...supportBody, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const boardBody = {
  shown: true,
  periodStart: '2026-01-05T00:00:00Z',
  periodDays: 7,
  pointsPerUnit: 2.5,
  rewardUnit: 'gems',
  rewards: [],
  codes: ['VEX'],
  referralUrl: null,
  excludedNames: [],
};

describe('GET /api/earn', () => {
  it('tells a visitor every way that pays, with the amounts set now, and follows the support-reward settings', async () => {
    t = await buildTestApp({ env: { CHAT_POINTS_PER_MINUTE: '3' } });
    const first = await ways(); // cached from here on
    expect(first.chatPointsPerMinute).toBe(3);
    expect(first.support).toEqual({
      enabled: true,
      subPoints: 500,
      giftPoints: 500,
      kickPoints: 10,
      followPoints: 100,
      dailyCap: 5000,
    });
    const admin = await t.signIn({ role: 'Admin' });
    await saveSupport(admin, { subPoints: 750.5, giftPoints: 250, followPoints: 0 });
    expect((await ways()).support).toMatchObject({ subPoints: 750.5, giftPoints: 250, followPoints: 0 });
    await saveSupport(admin, { enabled: false });
    expect((await ways()).support.enabled).toBe(false);
  });

  it('lists the channel rewards made on the site as they are created and deleted', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    await connectKickBot(t, admin);
    expect((await ways()).channelRewards).toEqual([]);
    const created = await t.call({
      method: 'POST',
      url: '/api/admin/channel-rewards',
      as: admin,
      body: { title: 'Hydrate', cost: 500, points: 250 },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await ways()).channelRewards).toEqual([{ title: 'Hydrate', cost: 500, points: 250 }]);
    const id = created.json().reward.id as string;
    expect((await t.call({ method: 'DELETE', url: `/api/admin/channel-rewards/${id}`, as: admin })).statusCode).toBe(
      200,
    );
    expect((await ways()).channelRewards).toEqual([]);
  });

  it('lists each shown partner site whose wagering pays, with its rate; a rate of 0 or a hidden site drops out', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const put = async (body: typeof boardBody) =>
      expect((await t.call({ method: 'PUT', url: '/api/admin/leaderboards/1', body, as: admin })).statusCode).toBe(200);
    await ways();
    await put(boardBody);
    expect((await ways()).wagering.find((w) => w.site === 1)).toEqual({
      site: 1,
      name: 'Clash.gg',
      pointsPerUnit: 2.5,
      codes: ['VEX'],
      referralUrl: null,
    });
    await put({ ...boardBody, pointsPerUnit: 0 });
    expect((await ways()).wagering.some((w) => w.site === 1)).toBe(false);
    await put({ ...boardBody, shown: false });
    expect((await ways()).wagering.some((w) => w.site === 1)).toBe(false);
  });
});

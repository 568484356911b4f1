/**
 * Chat Simulator → Events: every Kick event type built in Kick's shape, signed like Kick and
 * delivered through `POST /webhooks/kick` (the real path), and the input checks.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { kickBans, kickEventLastSeen } from '../../db/schema/kick-bans';
import { kickChatActivity } from '../../db/schema/chat';
import { kickLiveState } from '../../db/schema/kick-bot';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('Chat Simulator events', () => {
  it('sends every event type through the signed webhook', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const send = (body: unknown) => t.call({ method: 'POST', url: '/api/admin/chat/simulate-event', as: admin, body });
    const sent: Array<[unknown, string]> = [
      [{ kind: 'follow', username: 'fan_1' }, 'channel.followed'],
      [{ kind: 'subscription', username: 'fan_1' }, 'channel.subscription.new'],
      [{ kind: 'renewal', username: 'fan_1' }, 'channel.subscription.renewal'],
      [{ kind: 'gift', gifter: 'generous', giftees: ['lucky_1', 'lucky_2'] }, 'channel.subscription.gifts'],
      [{ kind: 'gift', gifter: null, giftees: ['lucky_3'] }, 'channel.subscription.gifts'],
      [{ kind: 'kicks', username: 'fan_1', amount: 100 }, 'kicks.gifted'],
      [{ kind: 'ban', username: 'timed_out', minutes: 10 }, 'moderation.banned'],
      [{ kind: 'ban', username: 'gone_for_good', minutes: null, reason: 'spam' }, 'moderation.banned'],
      [
        { kind: 'redemption', username: 'fan_1', rewardTitle: 'Hydrate', cost: 500 },
        'channel.reward.redemption.updated',
      ],
      [{ kind: 'stream-on' }, 'livestream.status.updated'],
      [{ kind: 'title', title: 'Bonus hunt night' }, 'livestream.metadata.updated'],
    ];
    for (const [body, type] of sent) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json()).toMatchObject({ status: 200, type });
    }
    expect((await t.database.db.select().from(kickEventLastSeen)).length).toBe(9);
    const bans = await t.database.db.select().from(kickBans);
    const timed = bans.find((b) => b.kickUserId === simulatedKickUserId('timed_out'));
    expect(timed?.expiresAt?.getTime()).toBe(t.clock.now().getTime() - (t.clock.now().getTime() % 1000) + 10 * 60_000);
    expect(bans.find((b) => b.kickUsername === 'gone_for_good')).toMatchObject({ expiresAt: null, reason: 'spam' });
    const giftees = await t.database.db.select().from(kickChatActivity).where(eq(kickChatActivity.isSubscriber, true));
    expect(giftees.map((g) => g.kickUsername).sort()).toEqual(['fan_1', 'lucky_1', 'lucky_2', 'lucky_3']);
    const [live] = await t.database.db.select().from(kickLiveState);
    expect(live).toMatchObject({ isLive: true, title: 'Bonus hunt night' });
    expect((await send({ kind: 'stream-off' })).json()).toMatchObject({ status: 200 });
  });

  it('is for moderators and admins, and names the field it refuses', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const user = await t.signIn();
    const send = (body: unknown, as = admin) =>
      t.call({ method: 'POST', url: '/api/admin/chat/simulate-event', as, body });
    expect((await send({ kind: 'follow', username: 'fan_1' }, user)).statusCode).toBe(403);
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'ban', username: 'x y', minutes: 5 }, /username/],
      [{ kind: 'ban', username: 'fan_1', minutes: 0 }, /minutes/],
      [{ kind: 'ban', username: 'fan_1', minutes: 1.5 }, /minutes/],
      [{ kind: 'kicks', username: 'fan_1', amount: -1 }, /amount/],
      [{ kind: 'gift', gifter: null, giftees: [] }, /giftee/],
      [{ kind: 'party' }, /kind/],
    ];
    for (const [body, message] of cases) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await t.database.db.select().from(kickEventLastSeen)).toEqual([]);
  });
});

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { kickRewardRedemptions } from '../../db/schema/support-rewards';
import { buildTestApp, LogCapture, type TestApp, type TestUser } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { connectKickBot, linkKick } from '../../../test/kick';
import { deliver, kickFixture, person, type KickPerson } from '../../../test/support';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
let logs: LogCapture;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const points = async (user: TestUser) => Number((await t.reload(user.user.id)).points);

async function setup() {
  logs = new LogCapture();
  t = await buildTestApp({ logs });
  const admin = await t.signIn({ role: 'Admin', name: 'boss' });
  await connectKickBot(t, admin);
  return admin;
}

async function createReward(admin: TestUser, title = 'Hydrate', pointsWorth = 250) {
  return t.call({
    method: 'POST',
    url: '/api/admin/channel-rewards',
    as: admin,
    body: { title, cost: 500, points: pointsWorth },
  });
}

function redemption(rewardId: string, id: string, redeemer: ReturnType<typeof person>) {
  const payload = kickFixture<Record<string, unknown>>('kick-webhook-redemption.json');
  return { ...payload, id, reward: { ...(payload.reward as object), id: rewardId }, redeemer };
}

describe('the channel-points bridge', () => {
  it('creates a Kick channel reward from the site, and refuses the 16th with a clear message', async () => {
    const admin = await setup();
    const created = await createReward(admin);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().reward.id as string;
    expect(t.app.kickSimulator!.rewards.get(id)).toMatchObject({ title: 'Hydrate', cost: 500 });
    for (let i = 1; i < 15; i += 1) expect((await createReward(admin, `Reward ${i}`)).statusCode).toBe(200);
    const sixteenth = await createReward(admin, 'One too many');
    expect(sixteenth.statusCode).toBe(409);
    expect(sixteenth.json().message).toBe('Kick allows at most 15 channel rewards: delete one first.');
    expect(t.app.kickSimulator!.rewards.size).toBe(15);

    const listed = await t.call({ url: '/api/admin/channel-rewards', as: admin });
    expect(listed.json()).toHaveLength(15);
    const deleted = await t.call({ method: 'DELETE', url: `/api/admin/channel-rewards/${id}`, as: admin });
    expect(deleted.statusCode).toBe(200);
    expect(t.app.kickSimulator!.rewards.has(id)).toBe(false);
    expect((await t.call({ method: 'DELETE', url: `/api/admin/channel-rewards/${id}`, as: admin })).statusCode).toBe(
      404,
    );
  });

  it('credits a linked redeemer once per redemption id and accepts it on Kick, whatever Kick redelivers', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    const viewer = await t.signIn({ name: 'viewer' });
    await linkKick(t, viewer, { kickId: '4400555', kickUsername: 'Redeemer' });
    const event = redemption(rewardId, '01KBHE78QE4HZY1617DK5FC7YD', person('4400555', 'Redeemer'));
    expect((await deliver(t, 'channel.reward.redemption.updated', event)).statusCode).toBe(200);
    // A second delivery of the same redemption under a new message id credits nothing more.
    expect((await deliver(t, 'channel.reward.redemption.updated', event)).statusCode).toBe(200);
    expect(await points(viewer)).toBe(250);
    await t.app.channelPoints.settle(); // after the after-commit pass, which may have settled it already
    expect(t.app.kickSimulator!.redemptions.get('01KBHE78QE4HZY1617DK5FC7YD')).toBe('accepted');
    const [row] = await t.database.db.select().from(kickRewardRedemptions);
    expect(row).toMatchObject({ outcome: 'accepted', points: '250.00', userId: viewer.user.id });
    expect(row!.settledAt).not.toBeNull();
    // Kick's echo of the acceptance changes nothing.
    await deliver(t, 'channel.reward.redemption.updated', { ...event, status: 'accepted' });
    expect(await points(viewer)).toBe(250);
    const activity = await t.call({ url: '/api/me/activity', as: viewer });
    expect(activity.json().items[0]).toMatchObject({ reason: 'channel_points', delta: 250, memo: 'Hydrate' });
  });

  it('announces each credited redemption once in chat, after the credit, merged: not on redelivery, not when rejected', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    const big = (await createReward(admin, 'Big one', 1500)).json().reward.id as string;
    await linkKick(t, await t.signIn({ name: 'viewer_a' }), { kickId: '4400555', kickUsername: 'Redeemer' });
    await linkKick(t, await t.signIn({ name: 'viewer_b' }), { kickId: '4400556', kickUsername: 'Second' });
    const first = redemption(rewardId, 'R-1', person('4400555', 'Redeemer'));
    await deliver(t, 'channel.reward.redemption.updated', first);
    await deliver(t, 'channel.reward.redemption.updated', first); // redelivered under a new message id
    await deliver(t, 'channel.reward.redemption.updated', redemption(big, 'R-2', person('4400556', 'Second')));
    await deliver(t, 'channel.reward.redemption.updated', redemption(rewardId, 'R-3', person('999', 'Stranger')));
    await t.app.chatOut.pump();
    expect(t.app.kickSimulator!.chat.map((m) => m.content)).toEqual([
      'Channel points: @Redeemer 250 pts · @Second 1.5k pts',
    ]);
    await deliver(t, 'channel.reward.redemption.updated', first);
    t.clock.advance(60_000);
    await t.app.chatOut.pump();
    expect(t.app.kickSimulator!.chat).toHaveLength(1);
  });

  it('rejects the redemption of an unlinked Kick account on Kick (refunding the channel points), with the reason logged', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    await deliver(
      t,
      'channel.reward.redemption.updated',
      redemption(rewardId, 'R-UNLINKED', person('999', 'Stranger')),
    );
    await t.app.channelPoints.settle();
    expect(t.app.kickSimulator!.redemptions.get('R-UNLINKED')).toBe('rejected');
    const [row] = await t.database.db
      .select()
      .from(kickRewardRedemptions)
      .where(eq(kickRewardRedemptions.id, 'R-UNLINKED'));
    expect(row).toMatchObject({
      outcome: 'rejected',
      reason: 'Kick account not linked to a site account.',
      userId: null,
    });
    expect(logs.find('channel points redemption rejected')).toMatchObject({
      redemptionId: 'R-UNLINKED',
      reason: 'Kick account not linked to a site account.',
    });
  });

  it('rejects the redemption of a redeemer banned in Kick chat on Kick, crediting nothing and announcing nothing', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    const viewer = await t.signIn({ name: 'viewer' });
    await linkKick(t, viewer, { kickId: '4400555', kickUsername: 'Redeemer' });
    // Kick's permanent ban (the documented moderation.banned, expires_at null) of that Kick account.
    const ban =
      kickFixture<Record<string, Record<string, unknown>>>('kick-webhook-events.json')['moderation.banned.permanent']!;
    const banned = await deliver(t, 'moderation.banned', { ...ban, banned_user: person('4400555', 'Redeemer') });
    expect(banned.statusCode, banned.body).toBe(200);
    // The redeemer as Kick documents it (no is_anonymous, no identity): Kick account 4400555.
    const { redeemer } = kickFixture<{ redeemer: KickPerson }>('kick-webhook-redemption.json');
    const redeemed = await deliver(t, 'channel.reward.redemption.updated', redemption(rewardId, 'R-BANNED', redeemer));
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(await points(viewer)).toBe(0);
    await t.app.channelPoints.settle();
    expect(t.app.kickSimulator!.redemptions.get('R-BANNED')).toBe('rejected');
    const [row] = await t.database.db.select().from(kickRewardRedemptions);
    expect(row).toMatchObject({ outcome: 'rejected', reason: 'Banned in Kick chat.', userId: viewer.user.id });
    await t.app.chatOut.pump();
    expect(t.app.kickSimulator!.chat).toEqual([]);
  });

  it('waits while Kick is not reachable and settles after a restart-like retry, once', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    const viewer = await t.signIn({ name: 'viewer' });
    await linkKick(t, viewer, { kickId: '4400555', kickUsername: 'Redeemer' });
    await t.app.kickBot!.tokens.disconnect();
    await deliver(
      t,
      'channel.reward.redemption.updated',
      redemption(rewardId, 'R-LATER', person('4400555', 'Redeemer')),
    );
    expect(await points(viewer)).toBe(250);
    // The delivery's own settling after its commit may still be in flight: this one runs after it
    // (settling takes turns), so nothing settled while Kick was not reachable, and the reconnect
    // below cannot race an earlier settle that reads the token late.
    expect(await t.app.channelPoints.settle()).toBe(0);
    const [waiting] = await t.database.db.select().from(kickRewardRedemptions);
    expect(waiting!.settledAt).toBeNull();
    await connectKickBot(t, admin);
    expect(await t.app.channelPoints.settle()).toBe(1);
    expect(await t.app.channelPoints.settle()).toBe(0);
    expect(t.app.kickSimulator!.redemptions.get('R-LATER')).toBe('accepted');
  });

  it('ignores redemptions of rewards the site did not create', async () => {
    await setup();
    await deliver(t, 'channel.reward.redemption.updated', redemption('NOT-OURS', 'R-X', person('1', 'a')));
    expect(await t.database.db.select().from(kickRewardRedemptions)).toEqual([]);
  });
});

describe.runIf(usingPostgres())('at once, on PostgreSQL', () => {
  it('one redemption delivered 10 times at once under different message ids is credited once', async () => {
    const admin = await setup();
    const rewardId = (await createReward(admin)).json().reward.id as string;
    const viewer = await t.signIn({ name: 'viewer' });
    await linkKick(t, viewer, { kickId: '4400555', kickUsername: 'Redeemer' });
    const event = redemption(rewardId, 'R-STORM', person('4400555', 'Redeemer'));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => deliver(t, 'channel.reward.redemption.updated', event)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await points(viewer)).toBe(250);
  });
});

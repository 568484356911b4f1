import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { ledger } from '../../db/schema/ledger';
import { rowsOf } from '../../db/rows';
import { supportRewards } from '../../db/schema/support-rewards';
import { redeemKickLinkCode, createKickLinkCode } from '../accounts/kick-link';
import { recordSupportEvent } from './rewards';
import { releaseHeldReward } from './hold';
import type { Tx } from '../../db/client';
import { CONTENT_WINDOW_MS } from './event-key';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { connectKickBot, linkKick, postDelivery, signedDelivery } from '../../../test/kick';
import { kickTimestamp } from '../../integrations/kick/simulator';
import { deliver, giftsPayload, kickFixture, person } from '../../../test/support';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const points = async (user: TestUser) => Number((await t.reload(user.user.id)).points);
const rewardsOf = (kind: string) =>
  t.database.db
    .select()
    .from(supportRewards)
    .where(eq(supportRewards.kind, kind as 'gift'));

async function setup(settings: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  t = await buildTestApp({ env });
  const admin = await t.signIn({ role: 'Admin', name: 'boss' });
  const body = {
    enabled: true,
    subPoints: 300,
    giftPoints: 500,
    kickPoints: 2,
    followPoints: 100,
    dailyCap: 0,
    pendingHours: 24,
    giftHoldMinutes: 0, // gifts pay at once unless a test holds them
    ...settings,
  };
  const saved = await t.call({ method: 'PUT', url: '/api/admin/support-rewards/settings', as: admin, body });
  expect(saved.statusCode, saved.body).toBe(200);
  return admin;
}

async function linkedViewer(kickId: string, kickName: string) {
  const viewer = await t.signIn({ name: `site_${kickName}` });
  await linkKick(t, viewer, { kickId, kickUsername: kickName });
  return viewer;
}

describe('support rewards from Kick events', () => {
  it('pays each gifted sub to the gifter, never the giftees, once however often Kick delivers it', async () => {
    await setup();
    const gifter = await linkedViewer('5001', 'GenerousGifter');
    const giftee = await linkedViewer('5002', 'LuckyOne');
    const payload = giftsPayload(person('5001', 'GenerousGifter'), [
      person('5002', 'LuckyOne'),
      person('5003', 'Other'),
      person('5004', 'Third'),
    ]);
    const first = await deliver(t, 'channel.subscription.gifts', payload, '01JGIFTDELIVERY000000000001');
    expect(first.statusCode, first.body).toBe(200);
    expect(await points(gifter)).toBe(1500);
    expect(await points(giftee)).toBe(0);

    // Kick delivers at least once (docs/features/kick-events-and-bans.md): the same message id pays nothing more.
    const again = await deliver(t, 'channel.subscription.gifts', payload, '01JGIFTDELIVERY000000000001');
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await points(gifter)).toBe(1500);

    // The credit is in the ledger with the event as its reason, and My activity shows it.
    const activity = await t.call({ url: '/api/me/activity', as: gifter });
    expect(activity.json().items[0]).toMatchObject({ reason: 'support_reward', delta: 1500, memo: 'Gifted 3 subs' });
    const [row] = await rewardsOf('gift');
    expect(row).toMatchObject({ status: 'paid', units: 3, amount: '1500.00', userId: gifter.user.id });
    // Today's subscriber facts are still kept for the giftees.
    const facts = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM kick_chat_activity WHERE is_subscriber`),
    );
    expect(Number(facts[0]?.n)).toBe(3);
  });

  it('pays a 3-sub gift re-sent 10 times under new message ids once: keyed by what happened, not the delivery', async () => {
    await setup();
    const gifter = await linkedViewer('5101', 'ResentGifter');
    const giftees = [person('5102', 'A'), person('5103', 'B'), person('5104', 'C')];
    const payload = giftsPayload(person('5101', 'ResentGifter'), giftees, '2025-02-21T23:23:36Z');
    for (let i = 0; i < 10; i++) {
      const res = await deliver(t, 'channel.subscription.gifts', payload); // a fresh message id each time
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await points(gifter)).toBe(1500);
    expect(await rewardsOf('gift')).toHaveLength(1);
    // The same gifter's next gift (Kick's own timestamp differs) is another event and pays again.
    const next = giftsPayload(person('5101', 'ResentGifter'), giftees, '2025-02-21T23:30:00Z');
    expect((await deliver(t, 'channel.subscription.gifts', next)).statusCode).toBe(200);
    expect(await points(gifter)).toBe(3000);
  });

  it('pays the captured sub and KICKs payloads once when Kick re-sends them under new message ids', async () => {
    await setup();
    const subscriber = await linkedViewer('4400552', 'NewSubscriber');
    const sender = await linkedViewer('4400553', 'KickSender');
    for (let i = 0; i < 3; i++) {
      expect(
        (await deliver(t, 'channel.subscription.new', kickFixture('kick-webhook-subscription-new.json'))).statusCode,
      ).toBe(200);
      expect((await deliver(t, 'kicks.gifted', kickFixture('kick-webhook-kicks-gifted.json'))).statusCode).toBe(200);
    }
    expect(await points(subscriber)).toBe(300);
    expect(await points(sender)).toBe(200);
  });

  it("without Kick's timestamp, the same content within the window is one event; after it, another", async () => {
    await setup();
    const gifter = await linkedViewer('5201', 'NoStampGifter');
    const payload = { ...giftsPayload(person('5201', 'NoStampGifter'), [person('5202', 'A')]), created_at: null };
    expect((await deliver(t, 'channel.subscription.gifts', payload)).statusCode).toBe(200);
    t.clock.advance(CONTENT_WINDOW_MS - 1000);
    expect((await deliver(t, 'channel.subscription.gifts', payload)).statusCode).toBe(200);
    expect(await points(gifter)).toBe(500);
    t.clock.advance(2 * CONTENT_WINDOW_MS);
    expect((await deliver(t, 'channel.subscription.gifts', payload)).statusCode).toBe(200);
    expect(await points(gifter)).toBe(1000);
  });

  it('pays nobody for an anonymous gift (the documented payload with every gifter field null)', async () => {
    await setup();
    const giftee = await linkedViewer('4400551', 'LuckyGiftee');
    const res = await deliver(t, 'channel.subscription.gifts', kickFixture('kick-webhook-gifts-anonymous.json'));
    expect(res.statusCode).toBe(200);
    expect(await points(giftee)).toBe(0);
    const [row] = await rewardsOf('gift');
    expect(row).toMatchObject({ status: 'skipped', userId: null, kickUserId: null });
    expect(await t.database.db.select().from(ledger)).toEqual([]);
  });

  it('pays a new sub to the subscriber and KICKs per KICK to the sender', async () => {
    await setup();
    const subscriber = await linkedViewer('4400552', 'NewSubscriber');
    const sender = await linkedViewer('4400553', 'KickSender');
    expect(
      (await deliver(t, 'channel.subscription.new', kickFixture('kick-webhook-subscription-new.json'))).statusCode,
    ).toBe(200);
    expect((await deliver(t, 'kicks.gifted', kickFixture('kick-webhook-kicks-gifted.json'))).statusCode).toBe(200);
    expect(await points(subscriber)).toBe(300);
    expect(await points(sender)).toBe(200); // 100 KICKs × 2
  });

  it('cuts to the daily cap per user per kind, then pays nothing more that day', async () => {
    await setup({ dailyCap: 1200 });
    const gifter = await linkedViewer('5001', 'CapGifter');
    const gift = (n: number) =>
      giftsPayload(
        person('5001', 'CapGifter'),
        Array.from({ length: n }, (_, i) => person(String(6000 + i), `g${i}`)),
      );
    await deliver(t, 'channel.subscription.gifts', gift(2)); // 1000
    await deliver(t, 'channel.subscription.gifts', gift(2)); // cut to 200
    await deliver(t, 'channel.subscription.gifts', gift(1)); // capped
    expect(await points(gifter)).toBe(1200);
    const rows = (await rewardsOf('gift')).sort((a, b) => a.id - b.id);
    expect(rows.map((r) => [r.status, r.amount])).toEqual([
      ['paid', '1000.00'],
      ['paid', '200.00'],
      ['capped', '0.00'],
    ]);
    // Another kind has its own cap; the next UTC day starts afresh.
    await deliver(t, 'channel.subscription.new', {
      ...kickFixture('kick-webhook-subscription-new.json'),
      subscriber: person('5001', 'CapGifter'),
    });
    expect(await points(gifter)).toBe(1500);
    t.clock.advance(24 * 3600_000);
    await deliver(t, 'channel.subscription.gifts', gift(1));
    expect(await points(gifter)).toBe(2000);
  });

  it('pays a follow once per Kick account ever, even after an unfollow and a refollow', async () => {
    await setup();
    const follower = await linkedViewer('4400554', 'NewFollower');
    const follow = kickFixture('kick-webhook-followed.json');
    expect((await deliver(t, 'channel.followed', follow)).statusCode).toBe(200);
    // A refollow: a new delivery, the same account. Answered 200 (a 500 would make Kick redeliver it
    // until it unsubscribes the app), paying nothing.
    const refollow = await deliver(t, 'channel.followed', follow);
    expect(refollow.statusCode, refollow.body).toBe(200);
    expect(await points(follower)).toBe(100);
    expect(await rewardsOf('follow')).toHaveLength(1);
  });

  it('pays nothing to a gifter banned in Kick chat (the ban delivered like Kick), and says why', async () => {
    await setup();
    const gifter = await linkedViewer('5101', 'BannedGifter');
    const ban = {
      broadcaster: { user_id: 1000001, username: 'vex' },
      moderator: { user_id: 1000001, username: 'vex' },
      banned_user: { user_id: 5101, username: 'BannedGifter' },
      metadata: { reason: 'spam', created_at: kickTimestamp(t.clock.now()), expires_at: null },
    };
    const banned = await postDelivery(t, signedDelivery(ban, { type: 'moderation.banned', at: t.clock.now() }));
    expect(banned.statusCode, banned.body).toBe(200);
    const gift = giftsPayload(person('5101', 'BannedGifter'), [person('5102', 'Lucky')]);
    expect((await deliver(t, 'channel.subscription.gifts', gift, '01JGIFTBANNED0000000000001')).statusCode).toBe(200);
    expect(await points(gifter)).toBe(0);
    const [row] = await rewardsOf('gift');
    expect(row).toMatchObject({ status: 'skipped', note: 'Banned in Kick chat.' });
  });

  it('skips excluded accounts and keeps nothing when the feature is off', async () => {
    await setup();
    const excluded = await linkedViewer('5001', 'Excluded');
    await t.database.db.execute(sql`UPDATE users SET excluded = true WHERE id = ${excluded.user.id}`);
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'Excluded'), [person('7', 'x')]));
    expect(await points(excluded)).toBe(0);
    expect((await rewardsOf('gift'))[0]).toMatchObject({ status: 'skipped', note: 'Excluded account.' });
  });

  it('refuses a malformed event with 400 and keeps no claim, so a correct retry is processed', async () => {
    await setup();
    const gifter = await linkedViewer('5001', 'Gifter');
    const bad = await deliver(
      t,
      'kicks.gifted',
      { broadcaster: {}, sender: {}, gift: { amount: 'lots' } },
      '01JBAD0000000000000000000A',
    );
    expect(bad.statusCode).toBe(400);
    const good = await deliver(
      t,
      'kicks.gifted',
      { ...kickFixture('kick-webhook-kicks-gifted.json'), sender: person('5001', 'Gifter') },
      '01JBAD0000000000000000000A',
    );
    expect(good.statusCode).toBe(200);
    expect(await points(gifter)).toBe(200);
  });
});

describe('an event for a Kick account not linked yet', () => {
  it('is kept and paid when that account links within the window, and expires after it', async () => {
    const admin = await setup({ pendingHours: 2 });
    void admin;
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'LateLinker'), [person('7', 'x')]));
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5002', 'TooLate'), [person('8', 'y')]));
    expect((await rewardsOf('gift')).map((r) => r.status)).toEqual(['pending', 'pending']);

    const early = await t.signIn({ name: 'early' });
    t.clock.advance(3600_000);
    const code = await createKickLinkCode(t.database.db, early.user, t.clock.now());
    const linked = await redeemKickLinkCode(
      t.database.db,
      code.key,
      { kickUserId: '5001', kickUsername: 'LateLinker' },
      t.clock.now(),
    );
    expect(linked.kind).toBe('linked');
    expect(await points(early)).toBe(500);

    const late = await t.signIn({ name: 'late' });
    t.clock.advance(2 * 3600_000);
    const code2 = await createKickLinkCode(t.database.db, late.user, t.clock.now());
    await redeemKickLinkCode(t.database.db, code2.key, { kickUserId: '5002', kickUsername: 'TooLate' }, t.clock.now());
    expect(await points(late)).toBe(0);
    const rows = (await rewardsOf('gift')).sort((a, b) => a.id - b.id);
    expect(rows.map((r) => r.status)).toEqual(['paid', 'expired']);
  });
});

describe('gifted subs on hold', () => {
  const gift = (id: string, name: string, at = '2026-01-10T20:00:00Z') =>
    giftsPayload(person(id, name), [person('7', 'x'), person('8', 'y')], at);

  it('holds a gift for the set minutes, lists it, then pays it once when the hold ends (a durable timer)', async () => {
    const admin = await setup({ giftHoldMinutes: 5 });
    const gifter = await linkedViewer('5301', 'PatientGifter');
    expect((await deliver(t, 'channel.subscription.gifts', gift('5301', 'PatientGifter'))).statusCode).toBe(200);
    expect(await points(gifter)).toBe(0);
    const held = (await t.call({ url: '/api/admin/support-rewards/held', as: admin })).json();
    expect(held).toMatchObject([{ kind: 'gift', units: 2, status: 'held', kickUsername: 'PatientGifter' }]);
    expect(Date.parse(held[0].holdUntil) - t.clock.now().getTime()).toBe(5 * 60_000);
    // Subs and KICKs are not held.
    await deliver(t, 'kicks.gifted', { ...kickFixture('kick-webhook-kicks-gifted.json'), sender: person('5301', 'PatientGifter') });
    expect(await points(gifter)).toBe(200);

    t.clock.advance(5 * 60_000 - 1);
    expect(await t.app.timers.runDue()).toBe(0);
    expect(await points(gifter)).toBe(200);
    t.clock.advance(1);
    expect(await t.app.timers.runDue()).toBe(1);
    expect(await points(gifter)).toBe(1200);
    expect((await rewardsOf('gift'))[0]).toMatchObject({ status: 'paid', amount: '1000.00' });
    expect((await t.call({ url: '/api/admin/support-rewards/held', as: admin })).json()).toEqual([]);
    // Paid once: no timer left, and the hold's end run again (a second process) pays nothing.
    expect(await t.app.timers.runDue()).toBe(0);
    const id = (await rewardsOf('gift'))[0]!.id;
    expect(await t.database.db.transaction((tx) => releaseHeldReward(tx as Tx, id, t.clock.now()))).toBeNull();
    expect(await points(gifter)).toBe(1200);
  });

  it('an Admin reverses a held gift before it pays (audited): the hold ends and nothing is paid', async () => {
    const admin = await setup({ giftHoldMinutes: 5 });
    const gifter = await linkedViewer('5302', 'FailedPayment');
    await deliver(t, 'channel.subscription.gifts', gift('5302', 'FailedPayment'));
    const [row] = (await t.call({ url: '/api/admin/support-rewards/held', as: admin })).json();
    const viewer = await t.signIn({ role: 'Moderator', name: 'mod' });
    expect((await t.call({ method: 'POST', url: `/api/admin/support-rewards/${row.id}/reverse`, as: viewer })).statusCode).toBe(403);
    const reversed = await t.call({ method: 'POST', url: `/api/admin/support-rewards/${row.id}/reverse`, as: admin });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().reward).toMatchObject({ status: 'reversed', holdUntil: null, amount: 0 });
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'support_rewards.reverse'));
    expect(audits).toMatchObject([{ targetId: String(row.id), before: { status: 'held' }, after: { status: 'reversed' } }]);
    t.clock.advance(5 * 60_000);
    expect(await t.app.timers.runDue()).toBe(1); // the timer ran and found nothing to pay
    expect(await points(gifter)).toBe(0);
    expect((await rewardsOf('gift'))[0]).toMatchObject({ status: 'reversed' });
    expect((await t.call({ method: 'POST', url: `/api/admin/support-rewards/${row.id}/reverse`, as: admin })).statusCode).toBe(409);
  });

  it('a held gift of a Kick account not linked when the hold ends waits for the link like any other', async () => {
    await setup({ giftHoldMinutes: 5 });
    await deliver(t, 'channel.subscription.gifts', gift('5303', 'LinksLater'));
    t.clock.advance(5 * 60_000);
    expect(await t.app.timers.runDue()).toBe(1);
    expect((await rewardsOf('gift'))[0]).toMatchObject({ status: 'pending' });
    const viewer = await t.signIn({ name: 'links_later' });
    const code = await createKickLinkCode(t.database.db, viewer.user, t.clock.now());
    await redeemKickLinkCode(t.database.db, code.key, { kickUserId: '5303', kickUsername: 'LinksLater' }, t.clock.now());
    expect(await points(viewer)).toBe(1000);
  });

  it('the hold is saved on the settings (0 = pay at once) and refused out of range', async () => {
    const admin = await setup({ giftHoldMinutes: 0 });
    const gifter = await linkedViewer('5304', 'AtOnce');
    await deliver(t, 'channel.subscription.gifts', gift('5304', 'AtOnce'));
    expect(await points(gifter)).toBe(1000);
    const read = (await t.call({ url: '/api/admin/support-rewards/settings', as: admin })).json();
    expect(read.giftHoldMinutes).toBe(0);
    const bad = await t.call({
      method: 'PUT',
      url: '/api/admin/support-rewards/settings',
      as: admin,
      body: { ...read, giftHoldMinutes: 1441 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Hold gifted subs (minutes): at most 1,440.');
  });
});

describe('Admin → Support rewards', () => {
  it('reverses a paid reward once (audited) and grants a missed one by hand', async () => {
    const admin = await setup();
    const gifter = await linkedViewer('5001', 'Refunded');
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'Refunded'), [person('7', 'x')]));
    const list = await t.call({ url: '/api/admin/support-rewards', as: admin });
    const id = list.json().items[0].id as number;
    const reversed = await t.call({ method: 'POST', url: `/api/admin/support-rewards/${id}/reverse`, as: admin });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().reward).toMatchObject({ status: 'reversed' });
    expect(await points(gifter)).toBe(0);
    const twice = await t.call({ method: 'POST', url: `/api/admin/support-rewards/${id}/reverse`, as: admin });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Only a paid or held reward can be reversed.');
    expect(await points(gifter)).toBe(0);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'support_rewards.reverse'));
    expect(audits).toHaveLength(1);
    expect(
      (await t.call({ method: 'POST', url: '/api/admin/support-rewards/999/reverse', as: admin })).statusCode,
    ).toBe(404);

    const grant = (user: string, units = 2) =>
      t.call({
        method: 'POST',
        url: '/api/admin/support-rewards/grant',
        as: admin,
        body: { user, kind: 'gift', units, note: 'Kick dropped the event' },
      });
    const granted = await grant('@refunded'); // the Kick name, any case, with or without "@"
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().reward).toMatchObject({ status: 'paid', amount: 1000, username: 'site_Refunded' });
    expect(await points(gifter)).toBe(1000);
    const bySiteName = await grant('site_Refunded', 1);
    expect(bySiteName.statusCode, bySiteName.body).toBe(200);
    expect(await points(gifter)).toBe(1500);
  });

  it('refuses a grant to nobody (400 on the user field) or to an excluded account (409), keeping nothing', async () => {
    const admin = await setup();
    const excluded = await linkedViewer('5003', 'Excluded');
    await t.database.db.execute(sql`UPDATE users SET excluded = true WHERE id = ${excluded.user.id}`);
    const grant = (body: Record<string, unknown>) =>
      t.call({ method: 'POST', url: '/api/admin/support-rewards/grant', as: admin, body });
    const nobody = await grant({ user: 'NoSuchName', kind: 'sub', units: 1, note: 'missed' });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().fields).toEqual([
      { path: 'user', message: 'User: no linked Kick account or site user is called "NoSuchName".' },
    ]);
    const blank = await grant({ user: ' ', kind: 'sub', units: 1, note: 'missed' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('User: enter a Kick name or a site user name.');
    const refused = await grant({ user: 'Excluded', kind: 'sub', units: 1, note: 'missed' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Not granted: Excluded account.');
    expect(await t.database.db.select().from(supportRewards)).toEqual([]);
    expect(await points(excluded)).toBe(0);
  });

  it('refuses bad settings with a message naming the field, and non-admins', async () => {
    const admin = await setup();
    const bad = await t.call({
      method: 'PUT',
      url: '/api/admin/support-rewards/settings',
      as: admin,
      body: {
        enabled: true,
        subPoints: -1,
        giftPoints: 1,
        kickPoints: 1,
        followPoints: 1,
        dailyCap: 0,
        pendingHours: 1,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Points per sub');
    const user = await t.signIn();
    expect((await t.call({ url: '/api/admin/support-rewards/settings', as: user })).statusCode).toBe(403);
    expect((await t.call({ url: '/api/admin/support-rewards/settings' })).statusCode).toBe(401);
  });
});

describe('announcements', () => {
  const chatLines = () => t.app.kickSimulator!.chat.map((m) => m.content);
  /** Posts what waits, at the queue's pace, until nothing does. */
  async function drain() {
    for (let i = 0; i < 50 && (await t.app.chatOut.stats()).waiting > 0; i += 1) {
      await t.app.chatOut.pump();
      t.clock.advance(1_500);
    }
  }

  it('announces each paid reward once, folded by the chat queue into one line', async () => {
    const admin = await setup();
    await connectKickBot(t, admin);
    await linkedViewer('5001', 'Alpha');
    await linkedViewer('5002', 'Beta');
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'Alpha'), [person('7', 'x')]));
    await deliver(t, 'kicks.gifted', {
      ...kickFixture('kick-webhook-kicks-gifted.json'),
      sender: person('5002', 'Beta'),
    });
    await t.app.supportRewards.announcer.flush();
    expect(await t.app.supportRewards.announcer.flush()).toBe(0);
    const recent = await t.app.supportRewards.announcer.recent();
    expect(recent.map((a) => `${a.kickUsername} ${a.text} ${a.points}`)).toEqual([
      'Alpha gifted 1 sub 500',
      'Beta sent 100 KICKs 200',
    ]);
    await drain();
    expect(chatLines()).toEqual(['Thank you: @Alpha gifted 1 sub (+500 points) · @Beta sent 100 KICKs (+200 points)']);
  });

  it('a storm of gifts gives few chat lines and names every gift; thanks waiting past the age limit are dropped', async () => {
    const admin = await setup({}, { KICK_SIMULATOR_CHAT_LIMIT: '1000' });
    await connectKickBot(t, admin);
    const gifters = ['Gifter_one', 'Gifter_two', 'Gifter_three', 'Gifter_four', 'Gifter_five'];
    for (const [i, name] of gifters.entries()) await linkedViewer(String(6000 + i), name);
    for (let round = 0; round < 8; round += 1) {
      for (const [i, name] of gifters.entries()) {
        await deliver(
          t,
          'channel.subscription.gifts',
          giftsPayload(person(String(6000 + i), name), [person('7', 'x')]),
        );
      }
    }
    await t.app.supportRewards.announcer.flush();
    await drain();
    const lines = chatLines();
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThanOrEqual(5); // 40 gifts
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(500);
    for (const name of gifters) {
      const named = lines.join(' · ').split(`@${name} gifted 1 sub (+500 points)`).length - 1;
      expect(named, name).toBe(8);
    }
    expect((await t.app.chatOut.stats()).dropped).toBe(0);

    // A storm the pace cannot carry: what waited longer than the age limit leaves chat (the
    // rewards stay paid, on the alerts overlay and in My activity), so the queue drains.
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('6000', 'Gifter_one'), [person('7', 'x')]));
    await t.app.supportRewards.announcer.flush();
    t.clock.advance(10 * 60_000);
    const posted = chatLines().length;
    await drain();
    expect(chatLines()).toHaveLength(posted);
    expect((await t.app.chatOut.stats()).dropped).toBe(1);
  });

  it('gives a claim back when it could not be queued, so the next flush announces it', async () => {
    const admin = await setup();
    await connectKickBot(t, admin);
    await linkedViewer('5001', 'Alpha');
    const enqueue = vi.spyOn(t.app.chatOut, 'enqueue').mockRejectedValueOnce(new Error('database away'));
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'Alpha'), [person('7', 'x')]));
    t.app.supportRewards.announcer.stop(); // no flush on its own timer here: the test flushes by hand
    await expect(t.app.supportRewards.announcer.flush()).rejects.toThrow('database away');
    enqueue.mockRestore();
    expect(await t.app.supportRewards.announcer.flush()).toBe(1);
    await drain();
    expect(chatLines()).toEqual(['Thank you: @Alpha gifted 1 sub (+500 points)']);
  });
});

describe.runIf(usingPostgres())('at once, on PostgreSQL', () => {
  it('20 gift events for one gifter at once never pay past the daily cap', async () => {
    await setup({ dailyCap: 2000 });
    const gifter = await linkedViewer('5001', 'StormGifter');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'StormGifter'), [person('7', 'x')])),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await points(gifter)).toBe(2000);
    const rows = await rewardsOf('gift');
    expect(rows.filter((r) => r.status === 'paid')).toHaveLength(4);
    expect(rows.filter((r) => r.status === 'capped')).toHaveLength(16);
  });

  it('rewards paid at once in separate transactions lock the user before reading the day: never past the cap', async () => {
    // Straight to the payment, each in its own transaction: no other write of the webhook's
    // transaction (the delivery claim, the last-seen time, the subscriber facts) lines them up first.
    await setup({ dailyCap: 1000 });
    const sender = await linkedViewer('5001', 'KickStorm');
    const now = t.clock.now();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.database.db.transaction((tx) =>
          recordSupportEvent(
            tx,
            {
              key: `kicks.gifted:race-${i}`,
              kind: 'kicks',
              kickUserId: '5001',
              kickUsername: 'KickStorm',
              units: 100,
              eventAt: now,
            },
            now,
          ),
        ),
      ),
    );
    expect(await points(sender)).toBe(1000); // 100 KICKs × 2 points, five times
    const rows = await rewardsOf('kicks');
    expect(rows.filter((r) => r.status === 'paid')).toHaveLength(5);
    expect(rows.filter((r) => r.status === 'capped')).toHaveLength(5);
  });

  it('an event and the !verify link of its Kick account at once: the reward is paid, not left pending', async () => {
    await setup();
    const viewer = await t.signIn({ name: 'overlap' });
    const code = await createKickLinkCode(t.database.db, viewer.user, t.clock.now());
    const now = t.clock.now();
    let kept!: () => void;
    const keptNoLink = new Promise<void>((r) => (kept = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The event's transaction has kept the reward (no link yet) and has not committed when the link runs.
    const event = t.database.db.transaction(async (tx) => {
      const row = await recordSupportEvent(
        tx,
        {
          key: 'kicks.gifted:overlap',
          kind: 'kicks',
          kickUserId: '5003',
          kickUsername: 'Overlap',
          units: 100,
          eventAt: now,
        },
        now,
      );
      expect(row?.status).toBe('pending');
      kept();
      await held;
    });
    await keptNoLink;
    const link = redeemKickLinkCode(t.database.db, code.key, { kickUserId: '5003', kickUsername: 'Overlap' }, now);
    // Without the account's lock the link commits now, its scan blind to the uncommitted reward.
    await Promise.race([link, new Promise((r) => setTimeout(r, 500))]);
    release();
    await event;
    expect((await link).kind).toBe('linked');
    expect((await rewardsOf('kicks')).map((r) => r.status)).toEqual(['paid']);
    expect(await points(viewer)).toBe(200);
  });

  it('the same follow delivered 10 times at once under different ids pays once', async () => {
    await setup();
    const follower = await linkedViewer('4400554', 'NewFollower');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => deliver(t, 'channel.followed', kickFixture('kick-webhook-followed.json'))),
    );
    // Each answered 200: the ones that found the account's bonus taken are done, not failed.
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await points(follower)).toBe(100);
  });

  it('the hold ending in two processes at once and an Admin reversing it: it pays at most once', async () => {
    const admin = await setup({ giftHoldMinutes: 5 });
    const gifter = await linkedViewer('5305', 'RaceGifter');
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5305', 'RaceGifter'), [person('7', 'x')]));
    const id = (await rewardsOf('gift'))[0]!.id;
    t.clock.advance(5 * 60_000);
    await Promise.all(
      [1, 2, 3].map(() => t.database.db.transaction((tx) => releaseHeldReward(tx as Tx, id, t.clock.now()))),
    );
    expect(await points(gifter)).toBe(500);
    const paid = await t.database.db.select().from(ledger).where(eq(ledger.reference, `support:${id}`));
    expect(paid).toHaveLength(1);
    // Reversed and released at once on another gift: one or the other, never both.
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5305', 'RaceGifter'), [person('9', 'z')]));
    const second = (await rewardsOf('gift')).find((r) => r.id !== id)!.id;
    const [reversal] = await Promise.all([
      t.call({ method: 'POST', url: `/api/admin/support-rewards/${second}/reverse`, as: admin }),
      t.database.db.transaction((tx) => releaseHeldReward(tx as Tx, second, t.clock.now())),
    ]);
    // Whichever went first, the gift ends reversed and the gifter is where he was (paid then taken back, or never paid).
    expect((await rewardsOf('gift')).find((r) => r.id === second)).toMatchObject({ status: 'reversed' });
    expect(await points(gifter)).toBe(500);
    expect(reversal.statusCode).toBe(200);
  });

  it('two reversals of one reward at once take it back once', async () => {
    const admin = await setup();
    const gifter = await linkedViewer('5001', 'Refunded');
    await t.call({
      method: 'POST',
      url: '/api/admin/users/' + gifter.user.id + '/balance',
      as: admin,
      body: { currency: 'points', amount: 5000, reason: 'stake' },
    });
    await deliver(t, 'channel.subscription.gifts', giftsPayload(person('5001', 'Refunded'), [person('7', 'x')]));
    const id = (await t.call({ url: '/api/admin/support-rewards', as: admin })).json().items[0].id as number;
    const answers = await Promise.all(
      [1, 2].map(() => t.call({ method: 'POST', url: `/api/admin/support-rewards/${id}/reverse`, as: admin })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await points(gifter)).toBe(5000);
  });
});

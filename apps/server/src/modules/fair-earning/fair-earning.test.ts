/**
 * Earning that cannot be farmed (docs/features/fair-earning.md): the admin's settings, the daily
 * cap on channel-point conversions (refused whole, with the reason, listed for the admin), the link
 * and account ages, the chat-points cap and real-chat gate, and the possible-alts view with its
 * retention sweep.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { accountSignals } from '../../db/schema/fair-earning';
import { kickChatActivity } from '../../db/schema/chat';
import { kickRewardRedemptions } from '../../db/schema/support-rewards';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { chatMessage, connectKickBot, linkKick } from '../../../test/kick';
import { deliver, kickFixture, person } from '../../../test/support';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const defaults = {
  channelPointsDailyCap: 0,
  chatPointsDailyCap: 0,
  realChatMinChatters: 0,
  minKickAccountDays: 0,
  minLinkDays: 0,
  signalRetentionDays: 90,
};

async function save(admin: TestUser, change: Partial<typeof defaults>) {
  const res = await t.call({
    method: 'PUT',
    url: '/api/admin/fair-earning',
    as: admin,
    body: { ...defaults, ...change },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const points = async (user: TestUser) => Number((await t.reload(user.user.id)).points);

function redemption(rewardId: string, id: string, redeemer: ReturnType<typeof person>) {
  const payload = kickFixture<Record<string, unknown>>('kick-webhook-redemption.json');
  return { ...payload, id, reward: { ...(payload.reward as object), id: rewardId }, redeemer };
}

async function rewardOf(admin: TestUser, worth = 250) {
  await connectKickBot(t, admin);
  const res = await t.call({
    method: 'POST',
    url: '/api/admin/channel-rewards',
    as: admin,
    body: { title: 'Hydrate', cost: 500, points: worth },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().reward.id as string;
}

let redemptionSeq = 0;
const redeem = async (rewardId: string, kickId: string, name: string) => {
  redemptionSeq += 1;
  const id = `01KBFAIR${String(redemptionSeq).padStart(18, '0')}`;
  const res = await deliver(t, 'channel.reward.redemption.updated', redemption(rewardId, id, person(kickId, name)));
  expect(res.statusCode).toBe(200);
  const [row] = await t.database.db.select().from(kickRewardRedemptions).where(eq(kickRewardRedemptions.id, id));
  return row!;
};

describe('fair earning settings', () => {
  it('are read and saved by admins only, audited, and bad input is named', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    const viewer = await t.signIn({ name: 'viewer' });
    const read = await t.call({ url: '/api/admin/fair-earning', as: admin });
    expect(read.json()).toMatchObject({ ...defaults, updatedBy: null });
    expect((await t.call({ url: '/api/admin/fair-earning', as: viewer })).statusCode).toBe(403);
    const saved = await save(admin, { channelPointsDailyCap: 500, realChatMinChatters: 3 });
    expect(saved.json()).toMatchObject({
      message: 'Fair earning settings saved.',
      settings: { channelPointsDailyCap: 500, realChatMinChatters: 3, updatedBy: 'boss' },
    });
    const bad = await t.call({
      method: 'PUT',
      url: '/api/admin/fair-earning',
      as: admin,
      body: { ...defaults, chatPointsDailyCap: -1, minLinkDays: 1.5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/Chat points daily cap: cannot be negative/);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'fair_earning.settings'));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ channelPointsDailyCap: 500 });
  });
});

describe('channel-point conversions', () => {
  it('are capped per user per UTC day: the one past the cap is refused whole, with the reason, and refunded on Kick', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-01T10:00:00Z'));
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    const rewardId = await rewardOf(admin);
    const viewer = await t.signIn({ name: 'viewer' });
    await linkKick(t, viewer, { kickId: '8800001', kickUsername: 'Farmer' });
    await save(admin, { channelPointsDailyCap: 500 });
    expect((await redeem(rewardId, '8800001', 'Farmer')).outcome).toBe('accepted');
    expect((await redeem(rewardId, '8800001', 'Farmer')).outcome).toBe('accepted');
    const third = await redeem(rewardId, '8800001', 'Farmer');
    expect(third).toMatchObject({
      outcome: 'rejected',
      reason: 'Daily cap on channel points reached (500 points a day).',
    });
    expect(await points(viewer)).toBe(500);
    await t.app.channelPoints.settle();
    expect(t.app.kickSimulator!.redemptions.get(third.id)).toBe('rejected');
    const refusals = await t.call({ url: '/api/admin/fair-earning/refusals', as: admin });
    expect(refusals.json().items[0]).toMatchObject({
      kickUsername: 'Farmer',
      username: 'viewer',
      reward: 'Hydrate',
      reason: 'Daily cap on channel points reached (500 points a day).',
    });
    // The next UTC day has its own allowance.
    t.clock.set(new Date('2026-05-02T00:00:01Z'));
    expect((await redeem(rewardId, '8800001', 'Farmer')).outcome).toBe('accepted');
    expect(await points(viewer)).toBe(750);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('wait for the link age and the Kick account age', async () => {
    t = await buildTestApp();
    const now = new Date('2026-05-10T10:00:00Z');
    t.clock.set(now);
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    const rewardId = await rewardOf(admin);
    const viewer = await t.signIn({ name: 'fresh' });
    await linkKick(
      t,
      viewer,
      { kickId: '8800002', kickUsername: 'Fresh' },
      { kickLinkedAt: new Date('2026-05-09T10:00:00Z') },
    );
    await save(admin, { minLinkDays: 3 });
    expect((await redeem(rewardId, '8800002', 'Fresh')).reason).toBe('Kick account linked less than 3 days ago.');
    await save(admin, { minKickAccountDays: 7 });
    // Never seen in this channel: too new.
    expect((await redeem(rewardId, '8800002', 'Fresh')).reason).toBe(
      'Kick account known to this channel for less than 7 days.',
    );
    await t.database.db.insert(kickChatActivity).values({
      kickUserId: '8800002',
      kickUsername: 'Fresh',
      updatedAt: now,
      firstSeenAt: new Date('2026-05-01T00:00:00Z'),
    });
    expect((await redeem(rewardId, '8800002', 'Fresh')).outcome).toBe('accepted');
    expect(await points(viewer)).toBe(250);
  });
});

describe('chat points', () => {
  const chat = (kickUserId: string) =>
    t.app.chat.process(
      chatMessage(t, { kickUserId, kickUsername: `kick${kickUserId}`, color: null, content: 'gg' }),
      'kick-webhook',
    );

  it('stop at the daily cap (the minute that crosses it pays what is left)', async () => {
    t = await buildTestApp(); // 5 points a minute
    t.clock.set(new Date('2026-03-01T20:00:05Z'));
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    await save(admin, { chatPointsDailyCap: 12 });
    const fan = await t.signIn({ name: 'fan' });
    await linkKick(t, fan, { kickId: '9101', kickUsername: 'kick9101' });
    for (let m = 0; m < 4; m++) {
      await chat('9101');
      t.clock.advance(60_000);
    }
    expect(await t.app.chatPoints.flush()).toBe(4); // the four minutes pay 12 of their 20 points
    expect(await points(fan)).toBe(12);
    await chat('9101');
    expect(await t.app.chatPoints.flush()).toBe(0);
    expect(await points(fan)).toBe(12);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('are paid only while chat is real: at least K distinct linked chatters in the last 10 minutes', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-02T20:00:05Z'));
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    await save(admin, { realChatMinChatters: 2 });
    const a = await t.signIn({ name: 'alone' });
    const b = await t.signIn({ name: 'second' });
    await linkKick(t, a, { kickId: '9201', kickUsername: 'kick9201' });
    await linkKick(t, b, { kickId: '9202', kickUsername: 'kick9202' });
    await chat('9201');
    expect(await t.app.chatPoints.flush()).toBe(0); // one chatter: a bot talking to itself
    expect(await points(a)).toBe(0);
    t.clock.advance(5 * 60_000);
    await chat('9202'); // a second chatter within 10 minutes
    await chat('9201');
    expect(await t.app.chatPoints.flush()).toBe(2);
    expect([await points(a), await points(b)]).toEqual([5, 5]);
    // Eleven minutes later, alone again.
    t.clock.advance(11 * 60_000);
    await chat('9201');
    expect(await t.app.chatPoints.flush()).toBe(0);
    expect(await points(a)).toBe(5);
  });
});

/** Signs in through the dev provider with a browser's cookies; resolves to the cookies it was given. */
async function browserSignIn(steamid: string, name: string, cookies: Record<string, string>, ip = '203.0.113.7') {
  const header = () =>
    Object.entries(cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  const take = (res: { headers: Record<string, unknown> }) => {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [String(set)] : []) {
      const [pair] = String(line).split(';');
      const [k, v] = (pair ?? '').split('=');
      if (k && v !== undefined && v !== '') cookies[k] = v;
    }
  };
  const start = await t.app.inject({
    method: 'GET',
    url: '/auth/steam/signin',
    headers: { cookie: header() },
    remoteAddress: ip,
  });
  take(start);
  const provider = new URL(String(start.headers.location));
  const posted = await t.app.inject({
    method: 'POST',
    url: provider.pathname + provider.search,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ steamid, personaname: name }).toString(),
  });
  expect(posted.statusCode, posted.body.slice(0, 2000)).toBe(302);
  const back = new URL(String(posted.headers.location), TEST_PUBLIC_URL);
  const res = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { cookie: header() },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  expect(res.body.slice(res.body.indexOf('<main'), res.body.indexOf('<main') + 800)).toContain('"success":true');
  take(res);
  return cookies;
}

describe('possible alts', () => {
  it('lists accounts sharing a device; only keyed hashes are kept; exclude from there is audited; the sweep forgets old signals', async () => {
    t = await buildTestApp(); // the dev provider's nonce carries the real time: the clock is left as it is
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    const browser: Record<string, string> = {};
    await browserSignIn('76561198000770001', 'MainAcct', browser);
    const device = browser.kb_device;
    expect(device).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    await browserSignIn('76561198000770002', 'AltAcct', browser, '198.51.100.9');
    await browserSignIn('76561198000770003', 'Stranger', {}, '192.0.2.50');

    const stored = await t.database.db.select().from(accountSignals);
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) {
      expect(row.hash).not.toContain(device!);
      expect(row.hash).not.toContain('203.0.113.7');
    }
    const alts = await t.call({ url: '/api/admin/fair-earning/alts', as: admin });
    expect(alts.statusCode).toBe(200);
    const groups = alts.json().groups as Array<{ kind: string; users: Array<{ id: string; username: string }> }>;
    expect(groups.map((g) => [g.kind, g.users.map((u) => u.username).sort()])).toEqual([
      ['device', ['AltAcct', 'MainAcct']],
    ]);
    expect((await t.call({ url: '/api/admin/fair-earning/alts', as: await t.signIn() })).statusCode).toBe(403);

    const alt = groups[0]!.users.find((u) => u.username === 'AltAcct')!;
    const excluded = await t.call({
      method: 'POST',
      url: `/api/admin/users/${alt.id}/excluded`,
      as: admin,
      body: { excluded: true },
    });
    expect(excluded.statusCode).toBe(200);
    const after = await t.call({ url: '/api/admin/fair-earning/alts', as: admin });
    expect(after.json().groups[0].users.find((u: { id: string }) => u.id === alt.id).excluded).toBe(true);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.exclude'), eq(auditLog.targetId, alt.id)));
    expect(audit).toHaveLength(1);

    // Past the retention period the signals are deleted, and the group with them.
    t.clock.advance(91 * 24 * 60 * 60 * 1000);
    expect(await t.app.fairEarning.sweep()).toBe(stored.length);
    const later = await t.signIn({ role: 'Admin', name: 'boss' }); // the first session has expired
    expect((await t.call({ url: '/api/admin/fair-earning/alts', as: later })).json().groups).toEqual([]);
  });

  it('groups accounts that saved the same partner id', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'boss' });
    const a = await t.signIn({ name: 'PartnerA' });
    const b = await t.signIn({ name: 'PartnerB' });
    const saved = await t.call({ method: 'POST', url: '/api/User/ids', as: a, body: { RoobetName: 'SameRoobet' } });
    expect(saved.statusCode, saved.body).toBe(200);
    // The second account tries the same id (refused or not, it is kept as a signal).
    await t.call({ method: 'POST', url: '/api/User/ids', as: b, body: { RoobetName: 'sameroobet' } });
    const groups = (await t.call({ url: '/api/admin/fair-earning/alts', as: admin })).json().groups;
    expect(groups).toEqual([expect.objectContaining({ kind: 'partner', users: expect.any(Array) })]);
    expect(groups[0].users).toHaveLength(2);
  });
});

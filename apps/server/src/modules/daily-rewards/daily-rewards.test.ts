/**
 * Daily rewards: claims once per user, type and UTC day (the unique constraint decides, also under
 * fifty simultaneous claims), amounts from the admin's per-type policies, type 5 from the previous
 * day's Roobet figures, every claim a payout in the fulfilment queue, and the monthly records the
 * calendar is drawn from.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { rewardTypeInfo } from '@kickback/common/http/daily-rewards';
import { buildCalendar, cardStateOf } from '@kickback/common/rewards/calendar';
import { auditLog } from '../../db/schema/audit';
import { dailyRewardClaims } from '../../db/schema/daily-rewards';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { type users } from '../../db/schema/users';
import { ManualClock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { setUser } from '../../../test/partner-links';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { claimMessages } from './claimer';
import { describeRace } from '../../../test/race-database';

let t: TestApp;
let partners: FakePartners;
let admin: TestUser;

beforeEach(async () => {
  partners = new FakePartners();
  t = await buildTestApp({
    env: partnerEnv,
    clock: new ManualClock('2026-03-10T09:15:00Z'),
    networkFetch: partners.fetch,
  });
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
});
afterEach(async () => {
  await t.close();
});

async function user(name: string, values: Partial<typeof users.$inferInsert> = {}): Promise<TestUser> {
  const u = await t.signIn({ name });
  if (Object.keys(values).length) await setUser(t.database.db, u.user.id, values, t.clock.now());
  return u;
}

const claim = (action: string, as: TestUser | null) =>
  t.call({ method: 'POST', url: `/api/DailyReward/${action}`, as });
const setPolicy = (type: number, body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'PUT', url: `/api/admin/daily-rewards/policies/${type}`, as, body });
const payouts = (u: TestUser) =>
  t.database.db
    .select()
    .from(fulfilmentItems)
    .where(and(eq(fulfilmentItems.kind, 'daily_reward'), eq(fulfilmentItems.userId, u.user.id)));

describe('access', () => {
  it('claims need sign-in (401); policies need the Admin role (401/403)', async () => {
    const alice = await user('Alice');
    for (const info of rewardTypeInfo) expect((await claim(info.action, null)).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/daily-rewards/policies' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/daily-rewards/policies', as: alice })).statusCode).toBe(403);
    expect((await setPolicy(0, { enabled: true, amount: 1, earningsPercent: 0 }, alice)).statusCode).toBe(403);
    expect((await claim('GetDailyRewardNope', alice)).statusCode).toBe(404);
    // The calendar is public: a visitor gets no records.
    const res = await t.call({ url: '/api/DailyReward/GetMontlyRewardsRoobet' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});

describe('claims', () => {
  it('pays each type its policy amount, once per UTC day, as a payout in the fulfilment queue', async () => {
    const alice = await user('Alice', { clashId: 'alice-clash', rustMagicId: 'alice-rm', casesId: 'alice-cases' });
    expect((await setPolicy(1, { enabled: true, amount: 2.5, earningsPercent: 0 })).statusCode).toBe(200);
    const expected: Record<string, [number, string]> = {
      GetDailyReward: [1, 'chips'],
      GetDailyRewardClash: [2.5, 'gems'],
      GetDailyRewardRustMagic: [1, 'coins'],
      GetDailyRewardCases: [0.25, 'USD'],
      GetDailyRewardCsgoRoll: [0.25, 'USD'],
    };
    for (const [action, [amount]] of Object.entries(expected)) {
      const res = await claim(action, alice);
      expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ gemAmount: amount });
      const again = await claim(action.toLowerCase(), alice); // paths are case-insensitive
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(claimMessages.alreadyClaimed);
    }
    const items = await payouts(alice);
    expect(items).toHaveLength(5);
    expect(items.map((i) => [Number(i.amount), i.unit]).sort()).toEqual(Object.values(expected).sort());
    expect(items.every((i) => i.status === 'pending')).toBe(true);
    expect(items.find((i) => i.unit === 'gems')?.description).toContain('Clash.gg');

    // The next UTC day, claimable again.
    t.clock.set('2026-03-11T00:00:01Z');
    expect((await claim('GetDailyReward', alice)).statusCode).toBe(200);
    expect(await payouts(alice)).toHaveLength(6);
  });

  it('refuses partner types until the partner id is linked, and disabled types', async () => {
    const bob = await user('Bob');
    for (const action of [
      'GetDailyRewardClash',
      'GetDailyRewardRustMagic',
      'GetDailyRewardCases',
      'GetDailyRewardRoobet',
    ]) {
      const res = await claim(action, bob);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/^Link your .+ in your profile to claim this reward\.$/);
    }
    expect((await setPolicy(0, { enabled: false, amount: 1, earningsPercent: 0 })).statusCode).toBe(200);
    const res = await claim('GetDailyReward', bob);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(claimMessages.unavailable);
    expect(await payouts(bob)).toHaveLength(0);
  });

  it('an excluded account never earns: every type is refused (403), nothing is queued, nothing recorded', async () => {
    const alt = await user('Alt', {
      clashId: 'alt-clash',
      rustMagicId: 'alt-rm',
      casesId: 'alt-cases',
      excluded: true,
    });
    for (const info of rewardTypeInfo) {
      const res = await claim(info.action, alt);
      expect(res.statusCode, `${info.action}: ${res.body}`).toBe(403);
      expect(res.json().message).toBe(claimMessages.excluded);
    }
    expect(await payouts(alt)).toHaveLength(0);
    const claims = await t.database.db
      .select()
      .from(dailyRewardClaims)
      .where(eq(dailyRewardClaims.userId, alt.user.id));
    expect(claims).toHaveLength(0);
    const today = await t.call({ url: '/api/DailyReward/RoobetToday', as: alt });
    expect(today.json()).toMatchObject({ claimable: false, reason: 'excluded' });
  });
});

describeRace('daily rewards: fifty simultaneous claims', () => {
  it('fifty simultaneous claims of the same reward by one user: exactly one succeeds', async () => {
    const carol = await user('Carol');
    const results = await Promise.all(Array.from({ length: 50 }, () => claim('GetDailyReward', carol)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const rows = await t.database.db
      .select()
      .from(dailyRewardClaims)
      .where(eq(dailyRewardClaims.userId, carol.user.id));
    expect(rows).toHaveLength(1);
    expect(await payouts(carol)).toHaveLength(1);
    // The guard is the constraint itself: a second row for the same user, type and day cannot exist.
    const { id: _id, ...row } = rows[0]!;
    const duplicate = t.database.db.insert(dailyRewardClaims).values(row);
    await expect(duplicate).rejects.toSatisfy((err: unknown) =>
      isUniqueViolation(err, 'daily_reward_claims_once_per_day'),
    );
  });
});

describe('type 5 (Roobet): the affiliate earnings on the previous day', () => {
  it('pays the policy share of what the user wagered under the code yesterday, from partner stats', async () => {
    partners.roobet([
      { username: 'DanOnRoobet', wagered: 4200, weightedWagered: 3000.5 },
      { username: 'someone', wagered: 10, weightedWagered: 10 },
    ]);
    const dan = await user('Dan', { roobetName: 'danonroobet' });
    const eve = await user('Eve', { roobetName: 'EveNeverBets' });
    expect((await setPolicy(5, { enabled: true, amount: 0, earningsPercent: 1.25 })).statusCode).toBe(200);

    const res = await claim('GetDailyRewardRoobet', dan);
    expect(res.statusCode, res.body).toBe(200);
    // 1.25% of the weighted 3000.50 = 37.50625 → 37.50 (rounded down to the cent).
    expect(res.json()).toEqual({ gemAmount: 37.5 });
    // The previous UTC day was asked for, once.
    expect(partners.callsTo('roobet')).toBe(1);
    const asked = partners.calls[0]!;
    expect(asked.searchParams.get('startDate')).toBe('2026-03-09T00:00:00.000Z');
    expect(asked.searchParams.get('endDate')).toBe('2026-03-10T00:00:00.000Z');
    const [item] = await payouts(dan);
    expect(item).toMatchObject({ amount: '37.50', unit: 'USD' });
    expect(item!.description).toContain('danonroobet');

    // Someone without wager yesterday: a clear refusal, no partner call (the day is stored).
    const none = await claim('GetDailyRewardRoobet', eve);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(claimMessages.noRoobetWager);
    expect(partners.callsTo('roobet')).toBe(1);
    expect(await payouts(eve)).toHaveLength(0);
  });

  it('answers 503 when the partner fails, and claims nothing', async () => {
    partners.answer('roobet', 500, '{"error":"down"}');
    const dan = await user('Dan', { roobetName: 'DanOnRoobet' });
    const res = await claim('GetDailyRewardRoobet', dan);
    expect(res.statusCode).toBe(503);
    expect(await payouts(dan)).toHaveLength(0);
    // Once the partner is back the claim works (the failed day was not stored).
    partners.roobet([{ username: 'DanOnRoobet', wagered: 100, weightedWagered: 100 }]);
    const ok = await claim('GetDailyRewardRoobet', dan);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ gemAmount: 0.5 }); // the default policy: 0.5%
  });
});

describeRace('daily rewards: fifty simultaneous first claims of the day', () => {
  it('fifty simultaneous first claims of the day: one partner call, exactly one claim', async () => {
    partners.roobet([{ username: 'Gus', wagered: 1000, weightedWagered: 800 }]);
    const release = partners.hold('roobet');
    const gus = await user('Gus', { roobetName: 'Gus' });
    const pending = Promise.all(Array.from({ length: 50 }, () => claim('GetDailyRewardRoobet', gus)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const codes = (await pending).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect(partners.callsTo('roobet')).toBe(1);
    const [item, ...more] = await payouts(gus);
    expect(more).toHaveLength(0);
    expect(item).toMatchObject({ amount: '4.00', unit: 'USD' });
  });
});

describe('GET /api/DailyReward/GetMontlyRewardsRoobet and the calendar', () => {
  it("lists this month's Roobet claims; with a fixed clock the calendar locks, times out, shows claims and offers today", async () => {
    partners.roobet([{ username: 'Fay', wagered: 2000, weightedWagered: 2000 }]);
    const fay = await user('Fay', { roobetName: 'Fay' });
    // Last month's claim and a claim of another type do not show.
    t.clock.set('2026-02-27T10:00:00Z');
    expect((await claim('GetDailyRewardRoobet', fay)).statusCode).toBe(200);
    t.clock.set('2026-03-03T10:00:00Z');
    expect((await claim('GetDailyRewardRoobet', fay)).json()).toEqual({ gemAmount: 10 });
    expect((await claim('GetDailyReward', fay)).statusCode).toBe(200);
    await setPolicy(5, { enabled: true, amount: 0, earningsPercent: 0.75 });
    t.clock.set('2026-03-05T23:59:00Z');
    expect((await claim('GetDailyRewardRoobet', fay)).json()).toEqual({ gemAmount: 15 });

    t.clock.set('2026-03-06T08:00:00Z');
    const res = await t.call({ url: '/api/DailyReward/GetMontlyRewardsRoobet', as: fay });
    expect(res.statusCode).toBe(200);
    const records = res.json() as Array<{ createTime: string; gemAmount: number }>;
    expect(records).toEqual([
      { createTime: '2026-03-03T10:00:00.000Z', gemAmount: 10 },
      { createTime: '2026-03-05T23:59:00.000Z', gemAmount: 15 },
    ]);

    const days = buildCalendar(t.clock.now(), records);
    expect(days).toHaveLength(31);
    const states = days.map(cardStateOf);
    expect(states.slice(0, 7)).toEqual(['timeout', 'timeout', 'claimed', 'timeout', 'claimed', 'available', 'locked']);
    expect(states.slice(6).every((s) => s === 'locked')).toBe(true);
    expect(days[2]!.initialGemAmount).toBe(10);
    expect(days[4]!.initialGemAmount).toBe(15);

    // Claiming today turns today's card claimed.
    expect((await claim('GetDailyRewardRoobet', fay)).statusCode).toBe(200);
    const after = (await t.call({ url: '/api/DailyReward/GetMontlyRewardsRoobet', as: fay })).json();
    expect(cardStateOf(buildCalendar(t.clock.now(), after)[5]!)).toBe('claimed');
  });
});

describe('policies', () => {
  it('lists the six policies, validates and audits changes', async () => {
    const res = await t.call({ url: '/api/admin/daily-rewards/policies', as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().policies).toHaveLength(6);
    expect(res.json().policies[5]).toEqual({ type: 5, enabled: true, amount: 0, earningsPercent: 0.5 });

    for (const [body, field] of [
      [{ enabled: true, amount: -1, earningsPercent: 0 }, 'amount'],
      [{ enabled: true, amount: 1.005, earningsPercent: 0 }, 'amount'],
      [{ enabled: true, amount: 1, earningsPercent: 101 }, 'earningsPercent'],
      [{ enabled: 'yes', amount: 1, earningsPercent: 0 }, 'enabled'],
    ] as const) {
      const bad = await setPolicy(2, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.map((f: { path: string }) => f.path)).toEqual([field]);
    }
    expect((await setPolicy(9, { enabled: true, amount: 1, earningsPercent: 0 })).statusCode).toBe(400);

    const ok = await setPolicy(2, { enabled: true, amount: 3.75, earningsPercent: 0 });
    expect(ok.json()).toEqual({ type: 2, enabled: true, amount: 3.75, earningsPercent: 0 });
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'daily_reward.policy'));
    expect(audit).toMatchObject({ actorLabel: 'Host', targetId: '2' });
    expect(audit!.before).toMatchObject({ amount: 1 });
    expect(audit!.after).toMatchObject({ amount: 3.75 });
  });
});

describe("GET /api/DailyReward/RoobetToday: today's case is Available exactly when a claim would pay", () => {
  const today = (as: TestUser | null) => t.call({ url: '/api/DailyReward/RoobetToday', as });

  /** The state says what the claim then does: 200 when claimable, else the same message. */
  async function expectAgrees(as: TestUser, reason: string | null) {
    const state = (await today(as)).json();
    expect(state.reason).toBe(reason);
    const res = await claim('GetDailyRewardRoobet', as);
    if (state.claimable) expect(res.statusCode, res.body).toBe(200);
    else expect([res.statusCode, res.json().message]).toEqual([409, state.message]);
    return state;
  }

  it('says why not: sign in, no Roobet name, not verified, no wager yesterday, already claimed', async () => {
    partners.roobet([{ username: 'DanOnRoobet', wagered: 4200, weightedWagered: 3000.5 }]);
    expect((await today(null)).json()).toEqual({
      claimable: false,
      reason: 'sign_in',
      message: 'First log in please.',
    });

    const none = await user('Nobody');
    expect(await expectAgrees(none, 'not_linked')).toMatchObject({
      claimable: false,
      message: 'Link your Roobet username in your profile to claim this reward.',
    });

    const pending = await user('Pending');
    const saved = await t.call({
      method: 'POST',
      url: '/api/User/ids',
      as: pending,
      body: { RoobetName: 'PendingName' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await expectAgrees(pending, 'not_verified')).message).toContain('pending verification');

    const eve = await user('Eve', { roobetName: 'EveNeverBets' });
    expect((await expectAgrees(eve, 'no_wager')).message).toBe(claimMessages.noRoobetWager);

    const dan = await user('Dan', { roobetName: 'DanOnRoobet' });
    expect(await expectAgrees(dan, null)).toEqual({ claimable: true, reason: null, message: null });
    expect(await expectAgrees(dan, 'already_claimed')).toMatchObject({ message: claimMessages.alreadyClaimed });

    expect((await setPolicy(5, { enabled: false, amount: 0, earningsPercent: 1 })).statusCode).toBe(200);
    expect((await today(dan)).json().reason).toBe('disabled');
  });

  it('a partner outage makes today unavailable, not a glowing case that errors', async () => {
    partners.answer('roobet', 500, '{"error":"down"}');
    const dan = await user('Dan', { roobetName: 'DanOnRoobet' });
    expect((await today(dan)).json()).toMatchObject({ claimable: false, reason: 'stats_unavailable' });
  });
});

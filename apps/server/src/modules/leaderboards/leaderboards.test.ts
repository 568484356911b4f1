/**
 * Leaderboards through the real app: the poller's cycles with a fixed clock against partners the
 * test controls, period roll-over and the frozen previous board, prizes to the fulfilment queue,
 * failures that keep the last good standings, masking and exclusion, hidden boards, the admin
 * settings, and the multi-process lease.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SiteSettingsInput } from '@kickback/common/http/leaderboards';
import { setUser } from '../../../test/partner-links';
import { buildTestApp, LogCapture, type TestApp, type TestUser } from '../../../test/app';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { leaderboardPeriods } from '../../db/schema/leaderboards';
import { type users } from '../../db/schema/users';
import { ManualClock } from '../../lib/clock';
import { rowsOf } from '../../db/rows';
import { buildBoard } from './boards';
import { closePeriod } from './closer';
import { LeaderboardService } from './service';
import { writeStandings } from './standings';

let t: TestApp;
let partners: FakePartners;
let logs: LogCapture;
let admin: TestUser;

beforeEach(async () => {
  partners = new FakePartners();
  logs = new LogCapture();
  t = await buildTestApp({
    env: { ...partnerEnv, LEADERBOARD_CACHE_SECONDS: '60' },
    clock: new ManualClock('2026-03-04T12:00:00Z'),
    networkFetch: partners.fetch,
    logs,
  });
  admin = await t.signIn({ role: 'Admin', name: 'Boss' });
});
afterEach(async () => {
  await t.close();
});

function settings(overrides: Partial<SiteSettingsInput> = {}): SiteSettingsInput {
  return {
    shown: true,
    periodStart: '2026-01-05T00:00:00.000Z',
    periodDays: 7,
    pointsPerUnit: 10,
    rewardUnit: 'gems',
    rewards: [
      { reward: 100, rewardBonus: 20 },
      { reward: 50, rewardBonus: null },
      { reward: 25.5, rewardBonus: null },
    ],
    codes: ['VEX', 'VEXX'],
    referralUrl: 'https://clash.gg/r/vex',
    excludedNames: [],
    ...overrides,
  };
}

async function putSettings(site: number, body: unknown, as: TestUser | null = admin) {
  return t.call({ method: 'PUT', url: `/api/admin/leaderboards/${site}`, body, as });
}

async function link(user: TestUser, values: Partial<typeof users.$inferInsert>) {
  await setUser(t.database.db, user.user.id, values, t.clock.now());
}

async function board(url: string) {
  const res = await t.call({ url });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('period roll-over (fixed clock)', () => {
  it('freezes the standings at the end, queues prizes, and the previous board never changes afterwards', async () => {
    expect((await putSettings(1, settings())).statusCode).toBe(200);
    const winner = await t.signIn({ name: 'Beta on our site' });
    await link(winner, { clashId: '2', showNameOnBoards: true });

    partners.clash([
      { id: 1, name: 'AlphaWolf', wagered: 500_000 },
      { id: 2, name: 'BetaRay', wagered: 300_000 },
      { id: 3, name: 'GammaGoat', wagered: 100_000 },
      { id: 4, name: 'DeltaDan', wagered: 50_000 },
    ]);
    await t.app.leaderboards.runCycle(1);
    let now = await board('/api/LeaderBoard/now');
    expect(now.type).toBe('now');
    expect(now.countdown).toEqual({ startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' });
    expect(now.data.map((e: { userName: string }) => e.userName)).toEqual(['Al***lf', 'BetaRay', 'Ga***at', 'De***an']);
    expect(now.data[1]).toMatchObject({ rank: 2, wageredAmount: 3000, reward: 50, rewardBonus: null, clashId: '2' });
    expect(now.data[0]).toMatchObject({ reward: 100, rewardBonus: 20, clashId: -1, isActive: true });
    expect(partners.callsTo('clash')).toBe(1);
    expect(partners.calls[0]?.pathname).toBe('/affiliates/detailed-summary/v2/2026-03-02');

    // The last fetch before the end: BetaRay overtakes.
    t.clock.set('2026-03-08T23:59:40Z');
    partners.clash([
      { id: 1, name: 'AlphaWolf', wagered: 520_000 },
      { id: 2, name: 'BetaRay', wagered: 600_000 },
      { id: 3, name: 'GammaGoat', wagered: 100_000 },
      { id: 4, name: 'DeltaDan', wagered: 50_000 },
    ]);
    await t.app.leaderboards.runCycle(1);

    // After the end: Clash only takes a "since" date, so the period closes on what it had.
    t.clock.set('2026-03-09T00:00:10Z');
    partners.clash([{ id: 9, name: 'NewWeekNed', wagered: 1_000 }]);
    const report = await t.app.leaderboards.runCycle(1);
    expect(report).toMatchObject({ closed: 1, fetched: true });
    expect(partners.calls.at(-1)?.pathname).toBe('/affiliates/detailed-summary/v2/2026-03-09');

    const previous = await board('/api/LeaderBoard/previous');
    expect(previous).toMatchObject({
      type: 'previous',
      countdown: null,
      period: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
      rewardUnit: 'gems',
    });
    expect(previous.data).toEqual([
      {
        rank: 1,
        userName: 'BetaRay',
        avatarUrl: null,
        isActive: true,
        wageredAmount: 6000,
        reward: 100,
        rewardBonus: 20,
        clashId: '2',
      },
      {
        rank: 2,
        userName: 'Al***lf',
        avatarUrl: null,
        isActive: true,
        wageredAmount: 5200,
        reward: 50,
        rewardBonus: null,
        clashId: -1,
      },
      {
        rank: 3,
        userName: 'Ga***at',
        avatarUrl: null,
        isActive: true,
        wageredAmount: 1000,
        reward: 25.5,
        rewardBonus: null,
        clashId: -1,
      },
      {
        rank: 4,
        userName: 'De***an',
        avatarUrl: null,
        isActive: true,
        wageredAmount: 500,
        reward: null,
        rewardBonus: null,
        clashId: -1,
      },
    ]);
    now = await board('/api/LeaderBoard/now');
    expect(now.countdown).toEqual({ startDate: '2026-03-09T00:00:00.000Z', endDate: '2026-03-16T00:00:00.000Z' });
    expect(now.data.map((e: { userName: string }) => e.userName)).toEqual(['Ne***ed']);

    // Only the linked winner's prize is queued (the others are not site users): reward + bonus.
    const queued = await t.database.db.select().from(fulfilmentItems);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'leaderboard',
      reference: 'leaderboard:1:2026-03-02T00:00:00.000Z:1',
      userId: winner.user.id,
      amount: '120.00',
      unit: 'gems',
      status: 'pending',
    });
    expect(queued[0]?.description).toContain(
      'Clash.gg weekly leaderboard, rank 1 (2026-03-02 – 2026-03-09): 100.00 + 20.00 gems',
    );

    // Partner data changes afterwards, the prizes change, users change their minds: the snapshot holds.
    const [old] = await t.database.db
      .select()
      .from(leaderboardPeriods)
      .where(eq(leaderboardPeriods.startAt, new Date('2026-03-02T00:00:00Z')));
    partners.clash([{ id: 1, name: 'AlphaWolf', wagered: 9_999_999 }]);
    expect((await putSettings(1, settings({ rewards: [{ reward: 1, rewardBonus: null }] }))).statusCode).toBe(200);
    t.clock.advance(10 * 60_000);
    await t.app.leaderboards.runCycle(1);
    const late = await writeStandings(
      t.database.db,
      old!.id,
      [
        {
          site: 1,
          username: 'AlphaWolf',
          externalId: '1',
          avatarUrl: null,
          wagered: 99_999_999n,
          weightedWagered: null,
          unit: 'gems',
          onCode: true,
          periodStart: old!.startAt,
          periodEnd: old!.endAt,
        },
      ],
      t.clock.now(),
    );
    expect(late).toEqual({ written: false, reason: 'closed' });
    expect(await closePeriod(t.database.db, old!.id, t.clock.now())).toMatchObject({ closed: false });
    t.app.leaderboards.cache.invalidate();
    expect((await board('/api/LeaderBoard/previous')).data).toEqual(previous.data);
    expect(await t.database.db.select().from(fulfilmentItems)).toHaveLength(1);
  });

  it('fetches the finished window once more from a partner that takes an end date, retrying within the grace time', async () => {
    expect((await putSettings(6, settings({ rewardUnit: 'USD', codes: ['VEX'] }))).statusCode).toBe(200);
    t.clock.set('2026-03-08T12:00:00Z');
    partners.roobet([
      { username: 'EarlyBird', wagered: 900, weightedWagered: 800 },
      { username: 'LateRunner', wagered: 2000, weightedWagered: 100 },
    ]);
    await t.app.leaderboards.runCycle(6);

    // The final figures (asked for with the period's own dates) put LateRunner ahead: weighted wins.
    t.clock.set('2026-03-09T00:01:00Z');
    partners.roobet([
      { username: 'EarlyBird', wagered: 900, weightedWagered: 800 },
      { username: 'LateRunner', wagered: 5000, weightedWagered: 950.5 },
    ]);
    expect(await t.app.leaderboards.runCycle(6)).toMatchObject({ closed: 1 });
    const finalAsk = partners.calls.filter((u) => u.hostname === 'roobet.partner.test').at(-2);
    expect(finalAsk?.searchParams.get('startDate')).toBe('2026-03-02T00:00:00.000Z');
    expect(finalAsk?.searchParams.get('endDate')).toBe('2026-03-09T00:00:00.000Z');
    const previous = await buildBoard(t.database.db, 6, 'previous', t.clock.now());
    expect(previous.data.map((e) => [e.userName, e.wageredAmount])).toEqual([
      ['La***er', 950.5],
      ['Ea***rd', 800],
    ]);

    // Next week the partner is down at the end: the period waits for it, then closes on what it has.
    t.clock.set('2026-03-15T23:00:00Z');
    partners.roobet([{ username: 'OnlyOne', wagered: 10, weightedWagered: 10 }]);
    await t.app.leaderboards.runCycle(6);
    t.clock.set('2026-03-16T00:01:00Z');
    partners.answer('roobet', 503, '{"message":"maintenance"}');
    expect(await t.app.leaderboards.runCycle(6)).toMatchObject({ closed: 0 });
    expect((await board('/api/LeaderBoard/roobet/now')).countdown.startDate).toBe('2026-03-16T00:00:00.000Z');
    t.clock.set('2026-03-16T00:40:00Z');
    expect(await t.app.leaderboards.runCycle(6)).toMatchObject({ closed: 1 });
    const closedLate = await buildBoard(t.database.db, 6, 'previous', t.clock.now());
    expect(closedLate.period?.startDate).toBe('2026-03-09T00:00:00.000Z');
    // Last week's players were not in this week's last good fetch: listed, inactive, no prize.
    expect(closedLate.data.map((e) => [e.userName, e.isActive, e.reward])).toEqual([
      ['La***er', false, null],
      ['Ea***rd', false, null],
      ['On***ne', true, 25.5],
    ]);
  });
});

describe('failures keep the last good standings', () => {
  it('logs a failed fetch or a garbage answer, records it for the admin, and the board stays as it was', async () => {
    partners.roobet([
      { username: 'SteadyEddie', wagered: 300, weightedWagered: 300 },
      { username: 'Runner', wagered: 200, weightedWagered: 150 },
    ]);
    await t.app.leaderboards.runCycle(6);
    const good = await board('/api/LeaderBoard/roobet/now');
    expect(good.data).toHaveLength(2);

    for (const [status, body, expected] of [
      [503, '<html>Service Unavailable</html>', 'HTTP 503'],
      [200, '<!DOCTYPE html><title>Just a moment...</title>', 'not JSON'],
      [403, '<!DOCTYPE html><title>Just a moment...</title>', 'HTTP 403 — a bot-protection page, not the API'],
      [200, '{"error":"rate limited"}', 'expected a list of players'],
      [200, '[{"who":"knows"}]', 'none of the 1 rows could be read'],
    ] as const) {
      t.clock.advance(5 * 60_000);
      partners.answer('roobet', status, body);
      const reports = await t.app.leaderboards.pollDue();
      expect(reports.find((r) => r.site === 6)?.error).toContain(expected);
      t.app.leaderboards.cache.invalidate();
      expect((await board('/api/LeaderBoard/roobet/now')).data).toEqual(good.data);
    }
    const line = logs.lines.filter((l) => l.msg === 'leaderboard fetch failed; keeping the last good standings').at(-1);
    expect(line).toMatchObject({
      level: 40,
      site: 6,
      partner: 'Roobet',
      error: expect.stringContaining('rows could be read'),
    });

    const overview = (await t.call({ url: '/api/admin/leaderboards', as: admin })).json();
    const roobet = overview.sites.find((s: { id: number }) => s.id === 6);
    expect(roobet.status.lastError).toContain('none of the 1 rows could be read');
    expect(roobet.provider).toBe('partner');
    expect(roobet.status.players).toBe(2);

    // The partner recovers: the next poll moves the board on.
    t.clock.advance(5 * 60_000);
    partners.roobet([{ username: 'SteadyEddie', wagered: 500, weightedWagered: 500 }]);
    await t.app.leaderboards.pollDue();
    const after = await board('/api/LeaderBoard/roobet/now');
    expect(after.data[0]).toMatchObject({ userName: 'St***ie', wageredAmount: 500, isActive: true });
    // Runner is missing from this fetch (left the code): still listed, not active, no prize.
    expect(after.data[1]).toMatchObject({ userName: 'Ru***er', isActive: false, reward: null });
  });

  it('a RustMagic player on another of the account’s boards is not on ours and wins nothing at the close', async () => {
    expect((await putSettings(5, settings({ rewardUnit: 'coins', codes: ['VEX'] }))).statusCode).toBe(200);
    const swapper = await t.signIn({ name: 'Swapper' });
    await link(swapper, { rustMagicId: 'SwappedOff' });
    partners.rustmagic([
      { id: 'u2', username: 'SwappedOff', wagered: 2000, board: 'weekly-race' },
      { id: 'u1', username: 'OnTheCode', wagered: 1000, board: 'kickback' },
    ]);
    await t.app.leaderboards.runCycle(5);
    const now = await board('/api/LeaderBoard/rustmagic/now');
    // Only our board's player is listed, first place now.
    expect(now.data.map((e: { isActive: boolean; reward: number | null }) => [e.isActive, e.reward])).toEqual([
      [true, 100],
    ]);
    t.clock.set('2026-03-09T00:00:30Z');
    await t.app.leaderboards.runCycle(5);
    expect(await t.database.db.select().from(fulfilmentItems)).toHaveLength(0);
    expect((await t.reload(swapper.user.id)).points).toBe('0.00');
  });
});

describe('who shows and who ranks', () => {
  it('masks names unless the linked user opted in; excluded users and names never rank', async () => {
    const shown = await t.signIn({ name: 'ShownUser' });
    const hidden = await t.signIn({ name: 'HiddenUser' });
    const alt = await t.signIn({ name: 'StreamerAlt' });
    await link(shown, { roobetName: 'openbook', showNameOnBoards: true, avatarUrl: 'https://example.test/me.png' });
    await link(hidden, { roobetName: 'SECRETIVE' });
    await link(alt, { roobetName: 'altaccount', excluded: true, showNameOnBoards: true });
    expect(
      (await putSettings(6, settings({ rewardUnit: 'USD', codes: ['VEX'], excludedNames: ['BotLord'] }))).statusCode,
    ).toBe(200);
    partners.roobet([
      { username: 'AltAccount', wagered: 99_000, weightedWagered: 99_000 },
      { username: 'botlord', wagered: 50_000, weightedWagered: 50_000 },
      { username: 'OpenBook', wagered: 300, weightedWagered: 250 },
      { username: 'Secretive', wagered: 900, weightedWagered: 200 },
      { username: 'Ab', wagered: 100, weightedWagered: 100 },
    ]);
    await t.app.leaderboards.runCycle(6);
    const res = await board('/api/LeaderBoard/roobet/now');
    expect(
      res.data.map((e: { userName: string; avatarUrl: string | null; rank: number }) => [
        e.rank,
        e.userName,
        e.avatarUrl,
      ]),
    ).toEqual([
      [1, 'OpenBook', 'https://example.test/me.png'],
      [2, 'Se***ve', null],
      [3, 'A***', null],
    ]);
    // Clash ids are a site-1 thing.
    expect(res.data.every((e: { clashId: unknown }) => e.clashId === -1)).toBe(true);
    expect(res.rewards).toEqual([
      { rank: 1, reward: 100, rewardBonus: 20 },
      { rank: 2, reward: 50, rewardBonus: null },
      { rank: 3, reward: 25.5, rewardBonus: null },
    ]);
    // The excluded account earned no points either.
    expect((await t.reload(alt.user.id)).points).toBe('0.00');
    expect((await t.reload(shown.user.id)).points).toBe('2500.00');
  });

  it('answers from the database: reading boards never calls a partner, and the cache serves repeats', async () => {
    partners.roobet([{ username: 'Cached', wagered: 10, weightedWagered: 10 }]);
    await t.app.leaderboards.runCycle(6);
    const calls = partners.calls.length;
    const first = await board('/api/LeaderBoard/roobet/now');
    // A change behind the cache's back is not seen until the cache expires or a poll writes.
    await t.database.db.execute(sql`UPDATE leaderboard_standings SET wagered = 999, weighted_wagered = 999`);
    expect(await board('/api/LeaderBoard/roobet/now')).toEqual(first);
    for (const url of [
      '/api/LeaderBoard/now',
      '/api/LeaderBoard/previous',
      '/api/LeaderBoard/howl/now',
      '/api/LeaderBoard/sites',
    ]) {
      expect((await t.call({ url })).statusCode).toBe(200);
    }
    expect(partners.calls.length).toBe(calls);
    t.app.leaderboards.cache.invalidate(6);
    expect((await board('/api/LeaderBoard/roobet/now')).data[0].wageredAmount).toBe(999);
  });

  it('shows an empty running board with its countdown before the first poll', async () => {
    const res = await board('/api/LeaderBoard/cases/now');
    expect(res).toEqual({
      data: [],
      rewards: [],
      type: 'now',
      countdown: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
      period: { startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-09T00:00:00.000Z' },
      rewardUnit: 'USD',
    });
    expect((await board('/api/LeaderBoard/previous')).data).toEqual([]);
  });
});

describe('admin settings', () => {
  it('is admin-only, validates, audits before/after, and hides a board from the public page', async () => {
    const user = await t.signIn();
    expect((await t.call({ url: '/api/admin/leaderboards' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/leaderboards', as: user })).statusCode).toBe(403);
    expect((await putSettings(6, settings(), user)).statusCode).toBe(403);
    expect((await putSettings(9, settings())).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: '/api/admin/leaderboards/0/refresh', as: admin })).statusCode).toBe(
      404,
    );

    for (const [body, message] of [
      [settings({ codes: ['A', 'B'] }), 'Roobet takes one code.'],
      [settings({ rewards: [{ reward: -1, rewardBonus: null }] }), 'Enter a reward of 0 or more.'],
      [settings({ rewards: [{ reward: 1.005, rewardBonus: null }] }), 'Enter a reward with at most 2 decimals'],
      [settings({ periodDays: 0 }), 'Enter a period length of 1 to 31 days.'],
      [settings({ periodStart: 'next monday' }), 'Enter when a period starts, as a date and time.'],
      [settings({ codes: ['has space'] }), 'Use only letters, digits'],
      [settings({ referralUrl: 'javascript:alert(1)' }), 'Enter a referral link starting with http'],
      [{ ...settings(), shown: 'yes' }, 'shown'],
    ] as const) {
      const res = await putSettings(6, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const untouched = (await t.call({ url: '/api/admin/leaderboards', as: admin })).json();
    expect(untouched.sites[5].settings.rewards).toEqual([]);

    const res = await putSettings(6, settings({ shown: false, codes: ['VEX'], rewardUnit: 'USD' }));
    expect(res.json()).toEqual({ message: 'Settings successfully updated.' });
    expect((await t.call({ url: '/api/LeaderBoard/roobet/now' })).statusCode).toBe(404);
    const sites = (await board('/api/LeaderBoard/sites')).sites;
    expect(sites.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4, 5, 7]);

    const audit = (await t.call({ url: '/api/admin/audit?action=leaderboard.settings', as: admin })).json();
    expect(audit.items[0]).toMatchObject({
      actor: 'Boss',
      targetType: 'leaderboard',
      targetId: '6 Roobet',
      before: { shown: true, rewards: [], codes: [], pointsPerUnit: 10 },
      after: {
        shown: false,
        codes: ['VEX'],
        rewardUnit: 'USD',
        rewards: [{ reward: 100, rewardBonus: 20 }, { reward: 50 }, { reward: 25.5 }],
      },
    });
  });

  it('a new schedule moves the running period’s end to the next boundary and keeps its start', async () => {
    partners.roobet([{ username: 'Keeper', wagered: 10, weightedWagered: 10 }]);
    await t.app.leaderboards.runCycle(6);
    // Daily periods starting 18:00 UTC: the running week now ends today at 18:00.
    await putSettings(6, settings({ periodStart: '2026-03-01T18:00:00Z', periodDays: 1, codes: [] }));
    const now = await board('/api/LeaderBoard/roobet/now');
    expect(now.countdown).toEqual({ startDate: '2026-03-02T00:00:00.000Z', endDate: '2026-03-04T18:00:00.000Z' });
    expect(now.data).toHaveLength(1);
    t.clock.set('2026-03-04T18:00:30Z');
    await t.app.leaderboards.runCycle(6);
    expect((await board('/api/LeaderBoard/roobet/now')).countdown).toEqual({
      startDate: '2026-03-04T18:00:00.000Z',
      endDate: '2026-03-05T18:00:00.000Z',
    });
  });

  it('Refresh now runs a cycle, says how it went, and refuses while another holds the board', async () => {
    partners.roobet([{ username: 'A', wagered: 1, weightedWagered: 1 }]);
    const ok = await t.call({ method: 'POST', url: '/api/admin/leaderboards/6/refresh', as: admin });
    expect(ok.json()).toEqual({ message: 'Refreshed: 1 player.' });
    partners.answer('roobet', 500, 'oops');
    const failed = await t.call({ method: 'POST', url: '/api/admin/leaderboards/6/refresh', as: admin });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe(
      'The partner did not answer usefully (HTTP 500: oops). The last good standings are kept.',
    );

    partners.roobet([{ username: 'A', wagered: 2, weightedWagered: 2 }]);
    const release = partners.hold('roobet');
    const slow = t.call({ method: 'POST', url: '/api/admin/leaderboards/6/refresh', as: admin });
    await expect.poll(() => partners.callsTo('roobet')).toBe(3);
    const busy = await t.call({ method: 'POST', url: '/api/admin/leaderboards/6/refresh', as: admin });
    expect(busy.statusCode).toBe(409);
    release();
    expect((await slow).statusCode).toBe(200);
  });
});

describe('several processes', () => {
  it('gives each due site to one poller at a time (a lease), and polls again after the interval', async () => {
    partners.roobet([{ username: 'A', wagered: 1, weightedWagered: 1 }]);
    partners.clash([{ id: 1, name: 'B', wagered: 100 }]);
    partners.rustmagic([{ username: 'C', wagered: 1 }]);
    const second = new LeaderboardService(t.app);
    const [a, b] = await Promise.all([t.app.leaderboards.pollDue(), second.pollDue()]);
    expect([...a, ...b].map((r) => r.site).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([partners.callsTo('roobet'), partners.callsTo('clash'), partners.callsTo('rustmagic')]).toEqual([1, 1, 1]);
    expect(await second.pollDue()).toEqual([]);
    t.clock.advance(t.config.leaderboards.pollSeconds * 1000);
    const again = await second.pollDue();
    // CSGOBig's own rate limit (15 minutes) keeps it out of this round.
    expect(again.map((r) => r.site).sort()).toEqual([1, 2, 4, 5, 6, 7]);
    const leases = rowsOf<{ held: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS held FROM leaderboard_sites WHERE lease_until IS NOT NULL`,
      ),
    );
    expect(leases[0]?.held).toBe(0);
  });

  it('every board comes alive on the simulators, and wagers grow with time', async () => {
    const fresh = await buildTestApp({ clock: new ManualClock('2026-03-04T12:00:00Z') });
    try {
      for (const site of [1, 2, 3, 4, 5, 6, 7] as const) {
        expect(fresh.app.leaderboards.providerMode(site)).toBe('simulator');
        expect(await fresh.app.leaderboards.runCycle(site)).toMatchObject({ fetched: true, error: null });
      }
      const urls = ['now', 'royale/now', 'csgobig/now', 'howl/now', 'rustmagic/now', 'roobet/now', 'cases/now'];
      const totals: number[] = [];
      for (const u of urls) {
        const res = (await fresh.call({ url: `/api/LeaderBoard/${u}` })).json();
        expect(res.data.length).toBeGreaterThan(15);
        totals.push(res.data[0].wageredAmount);
      }
      fresh.clock.advance(6 * 3_600_000);
      for (const site of [1, 6] as const) await fresh.app.leaderboards.runCycle(site);
      expect((await fresh.call({ url: '/api/LeaderBoard/now' })).json().data[0].wageredAmount).toBeGreaterThan(
        totals[0]!,
      );
      // The simulators check their keys like the partners do.
      expect((await fresh.call({ url: '/dev/partners/roobet/affiliate/v2/stats?userId=x' })).statusCode).toBe(401);
      expect(
        (await fresh.call({ url: '/dev/partners/csgobig/api/partners/getRefDetails/WRONG?from=1&to=2' })).json(),
      ).toEqual({ success: false, error: 'Invalid referral code' });
    } finally {
      await fresh.close();
    }
  });
});

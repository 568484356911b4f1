/**
 * Points from wagering: a linked user earns the site's rate on every new unit of ranked wager,
 * credited exactly once per delta through the ledger — also when polls overlap — and nobody
 * earns for wager made before they linked, while excluded, or off the code.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../../test/partner-links';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import type { PartnerStanding } from '../../integrations/partners/types';
import { ManualClock } from '../../lib/clock';
import { rowsOf } from '../../db/rows';
import { LeaderboardService } from './service';
import { loadSiteSettings } from './settings';
import { ensureCurrentPeriod, writeStandings } from './standings';

let t: TestApp;
let partners: FakePartners;

beforeEach(async () => {
  partners = new FakePartners();
  t = await buildTestApp({
    env: partnerEnv,
    clock: new ManualClock('2026-03-04T12:00:00Z'),
    networkFetch: partners.fetch,
  });
});
afterEach(async () => {
  await t.close();
});

async function linked(values: Partial<typeof users.$inferInsert>, name = 'Punter'): Promise<TestUser> {
  const u = await t.signIn({ name });
  await setUser(t.database.db, u.user.id, values, t.clock.now());
  return u;
}

async function points(u: TestUser): Promise<string> {
  return (await t.reload(u.user.id)).points;
}

async function wagerEntries(u: TestUser) {
  return t.database.db.select().from(ledger).where(eq(ledger.userId, u.user.id)).orderBy(ledger.id);
}

/** Every user's ledger adds up to their balance (docs/features/points-and-store.md#the-ledger's invariant). */
async function expectLedgerBalances() {
  const bad = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`
      SELECT u.id FROM users u LEFT JOIN ledger l ON l.user_id = u.id AND l.currency = 'points'
      GROUP BY u.id, u.points HAVING u.points <> COALESCE(sum(l.delta), 0)
    `),
  );
  expect(bad).toEqual([]);
}

describe('wager points', () => {
  it('a link verified by a proof code pays only for the player it was proven on, whatever later plays under its name', async () => {
    const squatter = await t.signIn({ name: 'Squatter' });
    expect(
      (await t.call({ method: 'POST', url: '/api/User/ids', as: squatter, body: { ClashId: 'FreshFace' } })).statusCode,
    ).toBe(200);
    const mine = async () => (await t.call({ url: '/api/User/partner-links', as: squatter })).json().links[0];
    const code = (await mine()).proofCode as string;
    // The claimer proves "FreshFace" with the code in their own partner name (partner id 501).
    partners.clash([{ id: 501, name: `FreshFace ${code}`, wagered: 10 }]);
    await t.app.leaderboards.runCycle(1);
    expect(await mine()).toMatchObject({ state: 'verified' });
    const proven = await points(squatter);

    // Renamed back; another player (id 502) now plays as "FreshFace" and bets twice. Only their row
    // grows, so only their row is matched when the poll credits.
    for (const wagered of [5000, 10000]) {
      t.clock.advance(3 * 60_000);
      partners.clash([
        { id: 501, name: 'SquatterOwn', wagered: 10 },
        { id: 502, name: 'FreshFace', wagered },
      ]);
      await t.app.leaderboards.runCycle(1);
    }
    expect(await points(squatter)).toBe(proven);

    // The proven player (id 501), under any name, still earns for the link.
    t.clock.advance(3 * 60_000);
    partners.clash([
      { id: 501, name: 'SquatterRenamed', wagered: 20 },
      { id: 502, name: 'FreshFace', wagered: 10000 },
    ]);
    await t.app.leaderboards.runCycle(1);
    expect(Number(await points(squatter))).toBeGreaterThan(Number(proven));
    await expectLedgerBalances();
  });

  it("a player already pinned to one user's link proves nobody else's claim", async () => {
    const owner = await linked({}, 'Owner');
    const other = await t.signIn({ name: 'Other' });
    const claim = async (u: TestUser, value: string) => {
      expect((await t.call({ method: 'POST', url: '/api/User/ids', as: u, body: { ClashId: value } })).statusCode).toBe(
        200,
      );
      return (await t.call({ url: '/api/User/partner-links', as: u })).json().links[0].proofCode as string;
    };
    const ownerCode = await claim(owner, 'OwnerName');
    partners.clash([{ id: 601, name: `OwnerName ${ownerCode}`, wagered: 10 }]);
    await t.app.leaderboards.runCycle(1);
    // Player 601 (pinned to the owner's link) now carries the other user's code and claimed name.
    const otherCode = await claim(other, 'OtherName');
    t.clock.advance(3 * 60_000);
    partners.clash([{ id: 601, name: `OtherName ${otherCode}`, wagered: 20 }]);
    await t.app.leaderboards.runCycle(1);
    const links = async (u: TestUser) => (await t.call({ url: '/api/User/partner-links', as: u })).json().links[0];
    expect(await links(owner)).toMatchObject({ state: 'verified' });
    expect(await links(other)).toMatchObject({ state: 'claimed' });
  });

  it('credits 10 points per unit of new wager, once per delta, with exact decimals', async () => {
    const u = await linked({ roobetName: 'HighStakes' });
    partners.roobet([{ username: 'highstakes', wagered: 500, weightedWagered: 100 }]);
    await t.app.leaderboards.runCycle(6);
    expect(await points(u)).toBe('1000.00'); // Roobet earns on its weighted wager

    t.clock.advance(3 * 60_000);
    await t.app.leaderboards.runCycle(6); // same figures: nothing new
    expect(await points(u)).toBe('1000.00');

    t.clock.advance(3 * 60_000);
    partners.roobet([{ username: 'highstakes', wagered: 700, weightedWagered: 150.25 }]);
    await t.app.leaderboards.runCycle(6);
    expect(await points(u)).toBe('1502.50');

    // A partner correction downwards earns nothing, and climbing back to the old figure neither.
    t.clock.advance(3 * 60_000);
    partners.roobet([{ username: 'highstakes', wagered: 700, weightedWagered: 140 }]);
    await t.app.leaderboards.runCycle(6);
    t.clock.advance(3 * 60_000);
    partners.roobet([{ username: 'highstakes', wagered: 700, weightedWagered: 150.3 }]);
    await t.app.leaderboards.runCycle(6);
    expect(await points(u)).toBe('1503.00');

    const entries = await wagerEntries(u);
    expect(entries.map((e) => [e.reason, e.delta, e.memo])).toEqual([
      ['wager', '1000.00', 'Roobet: 100.00 wagered'],
      ['wager', '502.50', 'Roobet: 50.25 wagered'],
      ['wager', '0.50', 'Roobet: 0.05 wagered'],
    ]);
    expect(entries[0]?.reference).toMatch(/^wager:6:\d+:name:highstakes$/);
    await expectLedgerBalances();
  });

  it('uses the per-site rate, rounding down to the hundredth; rate 0 pays nothing', async () => {
    const u = await linked({ clashId: '4242' });
    const admin = await t.signIn({ role: 'Admin' });
    const body = {
      shown: true,
      periodStart: '2026-01-05T00:00:00Z',
      periodDays: 7,
      pointsPerUnit: 2.5,
      rewardUnit: 'gems',
      rewards: [],
      codes: [],
      referralUrl: null,
      excludedNames: [],
    };
    expect((await t.call({ method: 'PUT', url: '/api/admin/leaderboards/1', body, as: admin })).statusCode).toBe(200);
    partners.clash([{ id: 4242, name: 'GemGrinder', wagered: 12_345 }]); // 123.45 gems → 308.625 points
    await t.app.leaderboards.runCycle(1);
    expect(await points(u)).toBe('308.62');

    await t.call({ method: 'PUT', url: '/api/admin/leaderboards/1', body: { ...body, pointsPerUnit: 0 }, as: admin });
    t.clock.advance(5 * 60_000);
    partners.clash([{ id: 4242, name: 'GemGrinder', wagered: 99_999 }]);
    await t.app.leaderboards.runCycle(1);
    expect(await points(u)).toBe('308.62');

    // The wager made while the rate was 0 never earns: back at 2.5, only what comes after pays.
    await t.call({ method: 'PUT', url: '/api/admin/leaderboards/1', body, as: admin });
    t.clock.advance(5 * 60_000);
    partners.clash([{ id: 4242, name: 'GemGrinder', wagered: 100_399 }]); // 4.00 more → 10 points
    await t.app.leaderboards.runCycle(1);
    expect(await points(u)).toBe('318.62');
    await expectLedgerBalances();
  });

  it('two overlapping polls credit each delta exactly once', async () => {
    const u = await linked({ roobetName: 'Overlap' });
    partners.roobet([{ username: 'Overlap', wagered: 80, weightedWagered: 80 }]);
    // Two processes' cycles for the same site at the same moment (the lease bypassed on purpose).
    const second = new LeaderboardService(t.app);
    await Promise.all([t.app.leaderboards.runCycle(6), second.runCycle(6), t.app.leaderboards.runCycle(6)]);
    expect(await points(u)).toBe('800.00');

    // Writers racing with different fetch times and figures: the larger delta wins once, never twice.
    const settings = await loadSiteSettings(t.database.db, 6);
    const period = await ensureCurrentPeriod(t.database.db, settings, t.clock.now());
    const standing = (weighted: bigint): PartnerStanding => ({
      site: 6,
      username: 'Overlap',
      externalId: null,
      avatarUrl: null,
      wagered: weighted,
      weightedWagered: weighted,
      unit: 'USD',
      onCode: true,
      periodStart: period.startAt,
      periodEnd: period.endAt,
    });
    const t1 = new Date(t.clock.now().getTime() + 60_000);
    const t2 = new Date(t.clock.now().getTime() + 120_000);
    const outcomes = await Promise.all([
      writeStandings(t.database.db, period.id, [standing(9_000n)], t1),
      writeStandings(t.database.db, period.id, [standing(10_000n)], t2),
      writeStandings(t.database.db, period.id, [standing(10_000n)], t2),
    ]);
    // Whatever order they ran in, the user got 100.00 - 80.00 = 20.00 units → 200.00 points.
    expect(await points(u)).toBe('1000.00');
    expect(outcomes.filter((o) => o.written).length).toBeGreaterThanOrEqual(2);
    // The stale fetch (t1) never overwrote the newer one.
    const stored = rowsOf<{ weighted_wagered: string }>(
      await t.database.db.execute(
        sql`SELECT weighted_wagered::text FROM leaderboard_standings WHERE period_id = ${period.id}`,
      ),
    );
    expect(stored).toEqual([{ weighted_wagered: '100.00' }]);
    await expectLedgerBalances();
  });

  it('pays for wager after linking only, never to excluded accounts or players off the code', async () => {
    partners.rustmagic([
      { id: 'p1', username: 'LinksLater', wagered: 100 },
      { id: 'p2', username: 'Excluded', wagered: 100 },
      { id: 'p3', username: 'Leaver', wagered: 100, board: 'weekly-race' },
      { id: 'p4', username: 'Nobody', wagered: 100 },
    ]);
    const excluded = await linked({ rustMagicId: 'p2', excluded: true }, 'Alt');
    const leaver = await linked({ rustMagicId: 'Leaver' }, 'Leaver');
    await t.app.leaderboards.runCycle(5);

    const later = await linked({ rustMagicId: 'P1' }, 'Later'); // links after the first poll (case-insensitive id)
    t.clock.advance(5 * 60_000);
    partners.rustmagic([
      { id: 'p1', username: 'LinksLater', wagered: 130.5 },
      { id: 'p2', username: 'Excluded', wagered: 400 },
      { id: 'p3', username: 'Leaver', wagered: 300, board: 'weekly-race' },
      { id: 'p4', username: 'Nobody', wagered: 200 },
    ]);
    await t.app.leaderboards.runCycle(5);
    expect(await points(later)).toBe('305.00');
    expect(await points(excluded)).toBe('0.00');
    expect(await points(leaver)).toBe('0.00');
    expect(await wagerEntries(excluded)).toEqual([]);

    // Un-excluding later pays nothing for the past either.
    await t.database.db.update(users).set({ excluded: false }).where(eq(users.id, excluded.user.id));
    t.clock.advance(5 * 60_000);
    await t.app.leaderboards.runCycle(5);
    expect(await points(excluded)).toBe('0.00');
    await expectLedgerBalances();
  });

  it('starts afresh each period: the new week’s wager is credited from zero', async () => {
    const u = await linked({ roobetName: 'Weekly' });
    t.clock.set('2026-03-08T23:50:00Z');
    partners.roobet([{ username: 'Weekly', wagered: 50, weightedWagered: 50 }]);
    await t.app.leaderboards.runCycle(6);
    expect(await points(u)).toBe('500.00');
    t.clock.set('2026-03-09T00:10:00Z');
    partners.roobet([{ username: 'Weekly', wagered: 7, weightedWagered: 7 }]);
    await t.app.leaderboards.runCycle(6);
    // The last week's final fetch and the new week's first both answer 7: the new week pays 70.
    expect(await points(u)).toBe('570.00');
    await expectLedgerBalances();
  });
});

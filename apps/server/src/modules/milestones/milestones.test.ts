/**
 * The milestone ladder (docs/features/milestone-rewards.md): tiers reached by verified wager are
 * claimed once per cycle as the difference from what the cycle paid, automatic mode pays on the
 * poller's refresh and announces it in chat, a wager reported lower never pays twice, excluded,
 * banned and unverified accounts are refused in words, and every payout is in the ledger and the
 * audit log.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatOut } from '../chat-out/service';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { setUser } from '../../../test/partner-links';
import { auditLog } from '../../db/schema/audit';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { rowsOf } from '../../db/rows';
import { ManualClock } from '../../lib/clock';
import { highestReachedTiers } from './service';

let t: TestApp;
let partners: FakePartners;
let announced: ChatOut[];

beforeEach(async () => {
  partners = new FakePartners();
  t = await buildTestApp({
    env: partnerEnv,
    clock: new ManualClock('2026-03-04T12:00:00Z'),
    networkFetch: partners.fetch,
  });
  announced = [];
  t.app.chatOut.enqueue = async (...messages) => {
    announced.push(...messages);
  };
});
afterEach(async () => {
  await t.close();
});

const tiers = [
  { name: 'Bronze', threshold: '1000', rewardKind: 'points', rewardAmount: '100' },
  { name: 'Silver', threshold: '5000', rewardKind: 'points', rewardAmount: '400' },
  { name: 'Gold', threshold: '10000', rewardKind: 'cash', rewardAmount: '25' },
] as const;

async function saveLadder(admin: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await t.call({
    method: 'PUT',
    url: '/api/admin/milestones/1',
    as: admin,
    body: { enabled: true, automatic: false, cycle: 'period', tiers, ...overrides },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function viewer(name: string, clashName: string): Promise<TestUser> {
  const u = await t.signIn({ name });
  await setUser(t.database.db, u.user.id, { clashId: clashName }, t.clock.now());
  return u;
}

async function poll(rows: Array<{ id: number; name: string; wagered: number }>) {
  t.clock.advance(3 * 60_000);
  // Clash reports wager in hundredths.
  partners.clash(rows.map((r) => ({ ...r, wagered: r.wagered * 100 })));
  await t.app.leaderboards.runCycle(1);
}

const claim = (u: TestUser) => t.call({ method: 'POST', url: '/api/milestones/1/claim', as: u });
const mine = async (u: TestUser) => (await t.call({ url: '/api/milestones', as: u })).json().ladders[0];

async function milestonePoints(u: TestUser): Promise<number> {
  const rows = await t.database.db
    .select({ delta: ledger.delta })
    .from(ledger)
    .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'milestone_reward')));
  return rows.reduce((sum, r) => sum + Number(r.delta), 0);
}

describe('claiming', () => {
  it('a wager crossing two tiers: both shown reached, one claim pays both once, the next is refused', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    await saveLadder(admin);
    const u = await viewer('Punter', 'PunterOne');
    await poll([{ id: 11, name: 'PunterOne', wagered: 6000 }]);

    const ladder = await mine(u);
    expect(ladder.me).toMatchObject({ linked: true, wagered: 6000, reached: 1, paid: -1, claimablePoints: 500 });
    expect(await highestReachedTiers(t.database.db, u.user.id, t.clock.now())).toEqual([
      { site: 1, tier: 'Silver', index: 1, threshold: 5000 },
    ]);

    const first = await claim(u);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ points: 500, tier: 'Silver', held: false });
    expect(await milestonePoints(u)).toBe(500);
    const second = await claim(u);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('You have claimed this tier.');
    expect((await mine(u)).me).toMatchObject({ paid: 1, claimablePoints: 0, refusal: 'You have claimed this tier.' });

    // Reported lower (a reversed bet): nothing to claim, nothing taken back.
    await poll([{ id: 11, name: 'PunterOne', wagered: 900 }]);
    expect((await claim(u)).statusCode).toBe(409);
    await poll([{ id: 11, name: 'PunterOne', wagered: 5500 }]);
    expect((await claim(u)).json().message).toBe('You have claimed this tier.');
    // Past the next tier (cash): a Fulfilment item, not points.
    await poll([{ id: 11, name: 'PunterOne', wagered: 12000 }]);
    const gold = await claim(u);
    expect(gold.json()).toMatchObject({ points: 0, cash: 25, tier: 'Gold' });
    const items = await t.database.db.select().from(fulfilmentItems).where(eq(fulfilmentItems.kind, 'milestone'));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ userId: u.user.id, amount: '25.00', runBy: admin.user.id });
    expect(await milestonePoints(u)).toBe(500);

    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'prize.paid'));
    expect(audits.map((a) => a.targetType)).toEqual(['milestone_ladder']);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses unverified, excluded and banned accounts in words, and a site without a ladder', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    await saveLadder(admin);
    const unlinked = await t.signIn({ name: 'Nobody' });
    const excluded = await viewer('Streamer', 'StreamerAlt');
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, excluded.user.id));
    const banned = await viewer('Rude', 'RudeOne');
    await t.database.db.update(users).set({ kickId: 'kick-rude' }).where(eq(users.id, banned.user.id));
    await t.database.db.execute(sql`
      INSERT INTO kick_bans (kick_user_id, kick_username, banned_at, message_id, received_at)
      VALUES ('kick-rude', 'rude', now(), 'm1', now())`);
    await poll([
      { id: 21, name: 'StreamerAlt', wagered: 20000 },
      { id: 22, name: 'RudeOne', wagered: 20000 },
    ]);

    const refused = async (u: TestUser) => {
      const res = await claim(u);
      return [res.statusCode, res.json().message];
    };
    expect(await refused(unlinked)).toEqual([
      403,
      'Verify your account on this site (Profile → Partner ids) to claim its milestones.',
    ]);
    expect(await refused(excluded)).toEqual([403, 'This account cannot claim milestone rewards.']);
    expect(await refused(banned)).toEqual([403, 'You are banned in chat, so milestone rewards are paused.']);
    const other = await t.call({ method: 'POST', url: '/api/milestones/5/claim', as: unlinked });
    expect([other.statusCode, other.json().message]).toEqual([404, 'This site has no milestone ladder.']);

    // Automatic mode never pays them either.
    await saveLadder(admin, { automatic: true });
    await poll([
      { id: 21, name: 'StreamerAlt', wagered: 30000 },
      { id: 22, name: 'RudeOne', wagered: 30000 },
    ]);
    expect(await milestonePoints(excluded)).toBe(0);
    expect(await milestonePoints(banned)).toBe(0);
  });

  it('the admin save is checked and audited; a viewer and a visitor cannot save', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    const mod = await t.signIn({ role: 'Moderator', name: 'Mod' });
    const dup = await t.call({
      method: 'PUT',
      url: '/api/admin/milestones/1',
      as: admin,
      body: { enabled: true, automatic: false, cycle: 'period', tiers: [tiers[0], tiers[0]] },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toContain('Two tiers cannot have the same threshold.');
    const noLinks = await t.call({
      method: 'PUT',
      url: '/api/admin/milestones/3',
      as: admin,
      body: { enabled: true, automatic: false, cycle: 'period', tiers },
    });
    expect(noLinks.statusCode).toBe(400);
    expect(
      (
        await t.call({
          method: 'PUT',
          url: '/api/admin/milestones/1',
          as: mod,
          body: { enabled: false, automatic: false, cycle: 'period', tiers: [] },
        })
      ).statusCode,
    ).toBe(403);
    await saveLadder(admin);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'milestones.update'));
    expect(entry).toMatchObject({ targetId: '1', actorUserId: admin.user.id });
    const list = (await t.call({ url: '/api/admin/milestones', as: admin })).json();
    expect(list.preset.length).toBeGreaterThan(5);
    expect(list.ladders.find((l: { site: number }) => l.site === 1)).toMatchObject({
      enabled: true,
      updatedBy: 'Boss',
    });
  });
});

describe('automatic payouts', () => {
  it('the refresh that sees a tier reached pays it once and announces it; the stats count it', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    await saveLadder(admin, { automatic: true });
    const a = await viewer('Alpha', 'AlphaP');
    const b = await viewer('Beta', 'BetaP');
    await poll([
      { id: 31, name: 'AlphaP', wagered: 5200 },
      { id: 32, name: 'BetaP', wagered: 1500 },
    ]);
    expect(await milestonePoints(a)).toBe(500);
    expect(await milestonePoints(b)).toBe(100);
    expect(announced).toEqual([
      { kind: 'announce', text: expect.stringContaining('@Alpha reached Silver (500 points)') },
    ]);

    await poll([
      { id: 31, name: 'AlphaP', wagered: 5300 },
      { id: 32, name: 'BetaP', wagered: 1600 },
    ]);
    expect(await milestonePoints(a)).toBe(500);
    expect(announced).toHaveLength(1);
    expect((await claim(a)).json().message).toBe('You have claimed this tier.');

    const stats = (await t.call({ url: '/api/admin/milestones/1/stats', as: admin })).json();
    expect(stats.tiers).toEqual([
      { name: 'Bronze', threshold: 1000, reached: 2, claimed: 2 },
      { name: 'Silver', threshold: 5000, reached: 1, claimed: 1 },
      { name: 'Gold', threshold: 10000, reached: 0, claimed: 0 },
    ]);
    expect(stats.cycles[0]).toMatchObject({ paidPoints: 600, paidCash: 0, paidUsers: 2 });
    const activity = (await t.call({ url: '/api/me/activity', as: a })).json();
    expect(JSON.stringify(activity)).toContain('milestone_reward');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a player linked after the poll that listed him is paid by the next refresh, though it no longer lists him', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    await saveLadder(admin, { automatic: true });
    const a = await viewer('Alpha', 'AlphaP');
    const g = await t.signIn({ name: 'Gamma' });
    await poll([
      { id: 31, name: 'AlphaP', wagered: 1500 },
      { id: 33, name: 'GammaP', wagered: 5200 },
    ]);
    expect(await milestonePoints(g)).toBe(0);

    // The next poll lists Alpha alone: its own match of players has no Gamma, so the ladder must
    // match the cycle's players (Gamma's standing is still the period's) rather than reuse it.
    await setUser(t.database.db, g.user.id, { clashId: 'GammaP' }, t.clock.now());
    await poll([{ id: 31, name: 'AlphaP', wagered: 1600 }]);
    expect(await milestonePoints(a)).toBe(100);
    expect(await milestonePoints(g)).toBe(500);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('leaves room on the pages of progress rows, so that paying them rewrites them in place', async () => {
    const [row] = rowsOf<{ options: string }>(
      await t.database.db.execute(sql`
        SELECT array_to_string(reloptions, ',') AS options FROM pg_class WHERE relname = 'milestone_progress'
      `),
    );
    expect(row?.options).toBe('fillfactor=80');
  });
});

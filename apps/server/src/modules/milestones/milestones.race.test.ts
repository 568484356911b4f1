/**
 * Milestone claims under real concurrency (test/race-database: PostgreSQL, or skipped loudly): the
 * claim and the automatic payout lock the viewer's progress row, so concurrent claims — from one
 * app or two sharing the database, as two processes do — and an automatic payout racing them pay
 * the tiers once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { setUser } from '../../../test/partner-links';
import { buildRaceApp, describeRace } from '../../../test/race-database';
import { ledger } from '../../db/schema/ledger';
import { milestoneProgress } from '../../db/schema/milestones';
import { ManualClock } from '../../lib/clock';
import { loadLadder } from './ladders';
import { lockProgress, payOut, payoutsOf } from './payouts';
import { payAutomatically } from './progress';

let t: TestApp;
let admin: TestUser;
const SITE = 1;

beforeAll(async () => {
  t = await buildRaceApp({ clock: new ManualClock('2026-03-04T12:00:00Z') });
  t.app.chatOut.enqueue = async () => undefined;
  admin = await t.signIn({ role: 'Admin', name: 'Boss' });
  const res = await t.call({
    method: 'PUT',
    url: `/api/admin/milestones/${SITE}`,
    as: admin,
    body: {
      enabled: true,
      automatic: false,
      cycle: 'all_time',
      tiers: [
        { name: 'Bronze', threshold: '1000', rewardKind: 'points', rewardAmount: '100' },
        { name: 'Silver', threshold: '5000', rewardKind: 'points', rewardAmount: '400' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A verified viewer whose all-time wager the poller wrote as 6,000 (both tiers: 500 points). */
async function reachedBoth(name: string): Promise<TestUser> {
  const u = await t.signIn({ name });
  await setUser(t.database.db, u.user.id, { clashId: `${name}P` }, t.clock.now());
  await t.database.db
    .insert(milestoneProgress)
    .values({ site: SITE, cycleKey: 'all', userId: u.user.id, wagered: '6000', updatedAt: t.clock.now() });
  return u;
}

async function paid(u: TestUser): Promise<number> {
  const rows = await t.database.db
    .select({ delta: ledger.delta })
    .from(ledger)
    .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'milestone_reward')));
  return rows.reduce((sum, r) => sum + Number(r.delta), 0);
}

describeRace('milestones: concurrent claims', () => {
  it('12 concurrent claims of one viewer: one pays 500 points, the others are told the tier is claimed', async () => {
    const u = await reachedBoth('Racer');
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.call({ method: 'POST', url: `/api/milestones/${SITE}/claim`, as: u })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(11).fill(409)]);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe('You have claimed this tier.');
    }
    expect(await paid(u)).toBe(500);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('claims racing the automatic payout of the same rows pay each viewer once', async () => {
    const viewers = await Promise.all(Array.from({ length: 6 }, (_, i) => reachedBoth(`Auto${i}`)));
    const ladder = await loadLadder(t.database.db, SITE);
    if (!ladder) throw new Error('no ladder');
    await Promise.all([
      payAutomatically(t.app, ladder, 'all', t.clock.now()),
      payAutomatically(t.app, ladder, 'all', t.clock.now()),
      ...viewers.flatMap((u) => [
        t.call({ method: 'POST', url: `/api/milestones/${SITE}/claim`, as: u }),
        t.call({ method: 'POST', url: `/api/milestones/${SITE}/claim`, as: u }),
      ]),
    ]);
    for (const u of viewers) expect(await paid(u)).toBe(500);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('the automatic payout never waits on a claim holding a row: it pays the others, the claim pays its own once', async () => {
    const [held, other] = await Promise.all([reachedBoth('Holder'), reachedBoth('Other')]);
    const ladder = await loadLadder(t.database.db, SITE);
    if (!ladder) throw new Error('no ladder');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // A claim of `held` in its transaction: its row locked, not committed yet.
    const claim = t.database.db.transaction(async (tx) => {
      const rows = await lockProgress(tx, SITE, 'all', [held.user.id]);
      locked();
      await released;
      await payOut(tx, ladder, 'all', payoutsOf(ladder, rows), null, t.clock.now());
    });
    await isLocked;
    const poller = payAutomatically(t.app, ladder, 'all', t.clock.now());
    const finished = await Promise.race([
      poller.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000)),
    ]);
    release();
    await Promise.all([claim, poller]);
    expect(finished).toBe(true);
    expect(await paid(other)).toBe(500);
    expect(await paid(held)).toBe(500);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

/**
 * The ladders Admins define (docs/features/milestone-rewards.md#the-ladder): per partner site, its
 * tiers, the cycle (the site's leaderboard period or all-time), and claim or automatic payouts.
 * Also the cycle a ladder is in now, and what a wager is owed against what the cycle paid.
 */
import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import { centsToNumber, centsToText, toCents } from '@kickback/common/money';
import type { AdminLadder, MilestoneTier } from '@kickback/common/http/milestones';
import type { DbOrTx } from '../../db/client';
import { leaderboardPeriods } from '../../db/schema/leaderboards';
import { milestoneLadders, milestoneTiers, type MilestoneLadderRow } from '../../db/schema/milestones';
import { users } from '../../db/schema/users';
import { recordAudit, type Actor } from '../audit/service';

export interface Tier {
  name: string;
  threshold: bigint;
  kind: 'points' | 'cash';
  reward: bigint;
}

export interface Ladder {
  site: SiteId;
  row: MilestoneLadderRow;
  /** Ascending by threshold. */
  tiers: Tier[];
}

export async function loadLadder(db: DbOrTx, site: SiteId): Promise<Ladder | null> {
  const [row] = await db.select().from(milestoneLadders).where(eq(milestoneLadders.site, site));
  if (!row) return null;
  const tiers = await db
    .select()
    .from(milestoneTiers)
    .where(eq(milestoneTiers.site, site))
    .orderBy(asc(milestoneTiers.threshold));
  return {
    site,
    row,
    tiers: tiers.map((t) => ({
      name: t.name,
      threshold: toCents(t.threshold),
      kind: t.rewardKind,
      reward: toCents(t.rewardAmount),
    })),
  };
}

export async function loadLadders(db: DbOrTx): Promise<Ladder[]> {
  const rows = await db.select({ site: milestoneLadders.site }).from(milestoneLadders).orderBy(milestoneLadders.site);
  const out: Ladder[] = [];
  for (const r of rows) {
    const ladder = await loadLadder(db, r.site as SiteId);
    if (ladder) out.push(ladder);
  }
  return out;
}

/** The running leaderboard period of a site at `now`, if the poller opened one. */
export async function runningPeriod(db: DbOrTx, site: SiteId, now: Date) {
  const [row] = await db
    .select({ id: leaderboardPeriods.id, endAt: leaderboardPeriods.endAt })
    .from(leaderboardPeriods)
    .where(
      and(eq(leaderboardPeriods.site, site), lte(leaderboardPeriods.startAt, now), gt(leaderboardPeriods.endAt, now)),
    )
    .limit(1);
  return row ?? null;
}

/** The key of the ladder's cycle: `all` for all-time, else the running period's (`period:<id>`). */
export function cycleKeyOf(ladder: Ladder, periodId: number | null): string | null {
  if (ladder.row.cycle === 'all_time') return 'all';
  return periodId === null ? null : `period:${periodId}`;
}

export async function currentCycle(db: DbOrTx, ladder: Ladder, now: Date) {
  const period = await runningPeriod(db, ladder.site, now);
  return {
    key: cycleKeyOf(ladder, period?.id ?? null),
    endsAt: ladder.row.cycle === 'all_time' ? null : (period?.endAt ?? null),
  };
}

export interface Owed {
  /** Index of the highest tier the wager reached (-1: none). */
  reached: number;
  /** Index of the highest tier whose rewards are covered by what was paid (-1: none). */
  paid: number;
  /** Each tier adds its reward: what the tiers reached are worth in all, per kind. */
  totalPoints: bigint;
  totalCash: bigint;
  points: bigint;
  cash: bigint;
}

/**
 * What a wager is owed: the rewards of every tier reached, less what the cycle already paid, never
 * below zero (docs/features/milestone-rewards.md#claiming). A wager reported lower later owes
 * nothing until it passes what was paid again.
 */
export function owedFor(
  tiers: readonly Tier[],
  wagered: bigint,
  paid: { threshold: bigint; points: bigint; cash: bigint },
): Owed {
  let reached = -1;
  let paidIndex = -1;
  let totalPoints = 0n;
  let totalCash = 0n;
  tiers.forEach((t, i) => {
    if (t.threshold <= paid.threshold) paidIndex = i;
    if (t.threshold > wagered) return;
    reached = i;
    if (t.kind === 'points') totalPoints += t.reward;
    else totalCash += t.reward;
  });
  const points = totalPoints > paid.points ? totalPoints - paid.points : 0n;
  const cash = totalCash > paid.cash ? totalCash - paid.cash : 0n;
  return { reached, paid: paidIndex, totalPoints, totalCash, points, cash };
}

export const presentTier = (t: Tier): MilestoneTier => ({
  name: t.name,
  threshold: centsToNumber(t.threshold),
  rewardKind: t.kind,
  rewardAmount: centsToNumber(t.reward),
});

export async function presentAdminLadder(db: DbOrTx, site: SiteId, ladder: Ladder | null): Promise<AdminLadder> {
  const by = ladder?.row.updatedBy
    ? (await db.select({ username: users.username }).from(users).where(eq(users.id, ladder.row.updatedBy)))[0]
    : undefined;
  return {
    site,
    siteName: siteById(site)?.name ?? `Site ${site}`,
    enabled: ladder?.row.enabled ?? false,
    automatic: ladder?.row.automatic ?? false,
    cycle: ladder?.row.cycle ?? 'period',
    tiers: (ladder?.tiers ?? []).map(presentTier),
    updatedBy: by?.username ?? null,
    updatedAt: ladder ? ladder.row.updatedAt.toISOString() : null,
  };
}

/** An Admin's save of a ladder: the settings and the whole list of tiers, audited before/after. */
export async function saveLadder(
  tx: DbOrTx,
  actor: Actor,
  site: SiteId,
  body: {
    enabled: boolean;
    automatic: boolean;
    cycle: 'period' | 'all_time';
    tiers: ReadonlyArray<{ name: string; threshold: string; rewardKind: 'points' | 'cash'; rewardAmount: string }>;
  },
  now: Date,
): Promise<Ladder> {
  const before = await loadLadder(tx, site);
  await tx
    .insert(milestoneLadders)
    .values({
      site,
      enabled: body.enabled,
      automatic: body.automatic,
      cycle: body.cycle,
      updatedBy: actor.userId,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: milestoneLadders.site,
      set: {
        enabled: body.enabled,
        automatic: body.automatic,
        cycle: body.cycle,
        updatedBy: actor.userId,
        updatedAt: now,
      },
    });
  await tx.delete(milestoneTiers).where(eq(milestoneTiers.site, site));
  const sorted = [...body.tiers].sort((a, b) => (toCents(a.threshold) < toCents(b.threshold) ? -1 : 1));
  if (sorted.length > 0) {
    await tx.insert(milestoneTiers).values(
      sorted.map((t, i) => ({
        site,
        position: i,
        name: t.name,
        threshold: centsToText(toCents(t.threshold)),
        rewardKind: t.rewardKind,
        rewardAmount: centsToText(toCents(t.rewardAmount)),
      })),
    );
  }
  const after = await loadLadder(tx, site);
  if (!after) throw new Error('the ladder was not saved');
  const summary = (l: Ladder | null) =>
    l && { enabled: l.row.enabled, automatic: l.row.automatic, cycle: l.row.cycle, tiers: l.tiers.map(presentTier) };
  await recordAudit(tx, actor, {
    action: 'milestones.update',
    targetType: 'milestone_ladder',
    targetId: String(site),
    before: summary(before),
    after: summary(after),
  });
  return after;
}

/** A cycle in words, for the admin's totals. */
export const cycleLabel = (key: string, start: Date | null): string =>
  key === 'all' ? 'All-time' : start ? `Period from ${start.toISOString().slice(0, 10)}` : key;

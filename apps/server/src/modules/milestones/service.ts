/**
 * The milestone ladder's surface for other modules (docs/features/milestone-rewards.md#for-other-features):
 * a user's highest tier reached per partner site in each ladder's running cycle (tier-only store
 * items, Discord roles), whether it is at least a named tier, and the same for many users at once.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { SiteId } from '@kickback/common/http/leaderboards';
import { toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { milestoneProgress } from '../../db/schema/milestones';
import { users } from '../../db/schema/users';
import { currentCycle, loadLadder, loadLadders, owedFor } from './ladders';

export interface ReachedTier {
  site: SiteId;
  /** The tier's name and its place on the ladder (0 = the first tier). */
  tier: string;
  index: number;
  threshold: number;
}

/**
 * The highest tier this user reached on each enabled ladder in its running cycle (by the wager the
 * poller last wrote, paid or not); sites where no tier is reached are left out.
 */
export async function highestReachedTiers(db: DbOrTx, userId: string, now: Date): Promise<ReachedTier[]> {
  const ladders = (await loadLadders(db)).filter((l) => l.row.enabled && l.tiers.length > 0);
  const out: ReachedTier[] = [];
  for (const ladder of ladders) {
    const cycle = await currentCycle(db, ladder, now);
    if (!cycle.key) continue;
    const [row] = await db
      .select({ wagered: milestoneProgress.wagered })
      .from(milestoneProgress)
      .where(
        and(
          eq(milestoneProgress.site, ladder.site),
          inArray(milestoneProgress.cycleKey, [cycle.key]),
          eq(milestoneProgress.userId, userId),
        ),
      );
    if (!row) continue;
    const owed = owedFor(ladder.tiers, toCents(row.wagered), { threshold: 0n, points: 0n, cash: 0n });
    const tier = ladder.tiers[owed.reached];
    if (!tier) continue;
    out.push({ site: ladder.site, tier: tier.name, index: owed.reached, threshold: Number(tier.threshold) / 100 });
  }
  return out;
}

/**
 * Whether this user's highest tier reached on `site`'s ladder in its running cycle is `tier` (by
 * name, any case) or one above it. False when the ladder is off or has no tier of that name.
 */
export async function reachedAtLeast(
  db: DbOrTx,
  userId: string,
  site: SiteId,
  tier: string,
  now: Date,
): Promise<boolean> {
  const ladder = await loadLadder(db, site);
  if (!ladder?.row.enabled) return false;
  const wanted = tier.trim().toLowerCase();
  const needed = ladder.tiers.findIndex((t) => t.name.trim().toLowerCase() === wanted);
  if (needed < 0) return false;
  const reached = (await highestReachedTiers(db, userId, now)).find((r) => r.site === site);
  return reached !== undefined && reached.index >= needed;
}

/** The tier names of every ladder that is on, lowest first. */
export async function ladderTierNames(db: DbOrTx): Promise<Array<{ site: SiteId; tiers: string[] }>> {
  const ladders = (await loadLadders(db)).filter((l) => l.row.enabled && l.tiers.length > 0);
  return ladders.map((l) => ({ site: l.site, tiers: l.tiers.map((t) => t.name) }));
}

/**
 * For the users with Discord linked (those given by Discord id, or all), per site with a ladder
 * that is on, the index of the highest tier reached in its running cycle (users with none are left
 * out). Set-based: one query per ladder, whatever the number of users.
 */
export async function reachedTierIndexes(
  db: DbOrTx,
  now: Date,
  discordIds?: string[],
): Promise<Map<string, Map<SiteId, number>>> {
  const out = new Map<string, Map<SiteId, number>>();
  if (discordIds?.length === 0) return out;
  const ladders = (await loadLadders(db)).filter((l) => l.row.enabled && l.tiers.length > 0);
  for (const ladder of ladders) {
    const cycle = await currentCycle(db, ladder, now);
    if (!cycle.key) continue;
    const rows = await db
      .select({ userId: milestoneProgress.userId, wagered: milestoneProgress.wagered })
      .from(milestoneProgress)
      .innerJoin(users, eq(users.id, milestoneProgress.userId))
      .where(
        and(
          eq(milestoneProgress.site, ladder.site),
          eq(milestoneProgress.cycleKey, cycle.key),
          discordIds === undefined ? isNotNull(users.discordId) : inArray(users.discordId, discordIds),
        ),
      );
    for (const row of rows) {
      const owed = owedFor(ladder.tiers, toCents(row.wagered), { threshold: 0n, points: 0n, cash: 0n });
      if (owed.reached < 0) continue;
      const mine = out.get(row.userId) ?? new Map<SiteId, number>();
      mine.set(ladder.site, owed.reached);
      out.set(row.userId, mine);
    }
  }
  return out;
}

/**
 * The milestone ladder's surface for other modules (docs/features/milestone-rewards.md#for-other-features):
 * a user's highest tier reached per partner site in each ladder's running cycle (tier-only store
 * items, Discord roles).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { SiteId } from '@kickback/common/http/leaderboards';
import { toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { milestoneProgress } from '../../db/schema/milestones';
import { currentCycle, loadLadders, owedFor } from './ladders';

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

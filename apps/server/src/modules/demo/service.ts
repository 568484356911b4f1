/**
 * Admin → Go live → Remove demo data (docs/go-live.md): takes out what the demo seeders made
 * (modules/demo/seed.ts), in one audited transaction, and never a real user's data.
 *
 * - Demo accounts: every user in the demo SteamID block (common/steam-id), removed as any account is
 *   (account-removal: their own data goes, the finished events they took part in stay as they were
 *   announced, the accounts named "removed account").
 * - Demo products (name and image from store/demo's catalogue): deleted, unless a real user ordered
 *   one or codes are still in its pool — then it is kept, deactivated, so that order stays whole.
 * - Demo challenges (title and image from challenges/demo): deleted, unless a real user won it.
 * - The seeded last week of each simulated board: a closed period closed exactly at its end whose
 *   players are all the simulator's cast; kept if a real user is among its results.
 *
 * The board settings (prize tables, codes, referral links) are left as they are: they are settings
 * the streamer reviews on Admin → Leaderboards.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { siteIds } from '@kickback/common/http/leaderboards';
import { challenges } from '../../db/schema/challenges';
import { dailyRewardClaims } from '../../db/schema/daily-rewards';
import { leaderboardPeriods, leaderboardResults, leaderboardStandings } from '../../db/schema/leaderboards';
import { orders, productCodes, products } from '../../db/schema/store';
import { users } from '../../db/schema/users';
import { rowsOf } from '../../db/rows';
import { simPlayers } from '../../integrations/partners/simulator/model';
import { conflict } from '../../lib/errors';
import type { FinishedEvent } from '@kickback/common/http/integrations';
import { finishedEventsOf, REMOVED_ACCOUNT_NAME, removeAccounts } from '../account-removal/service';
import { recordAudit, type Actor } from '../audit/service';
import { demoChallenges } from '../challenges/demo';
import { demoCatalogue } from '../store/demo';

/** The demo SteamID block, 76561199999999000–999 (common/steam-id), as a LIKE pattern on users.steam_id. */
export const DEMO_STEAM_ID_PATTERN = '76561199999999___';

export const demoRemovalMessages = {
  nothingLeft: 'No demo data left.',
  signedInAsDemo: 'You are signed in with a demo account: sign in with your own account to remove the demo data.',
} as const;

export interface DemoRemoval {
  accounts: number;
  discordLinks: number;
  dailyRewardClaims: number;
  productsRemoved: number;
  productsDeactivated: number;
  challenges: number;
  challengesKept: number;
  leaderboardWeeks: number;
  /** Finished draws, games and boards demo accounts took part in: kept as announced. */
  finishedEvents: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function demoRemovalMessage(r: DemoRemoval): string {
  const removed = [
    r.accounts && plural(r.accounts, 'demo account'),
    r.productsRemoved && plural(r.productsRemoved, 'product'),
    r.challenges && plural(r.challenges, 'challenge'),
    r.leaderboardWeeks && plural(r.leaderboardWeeks, 'leaderboard week'),
    r.dailyRewardClaims && plural(r.dailyRewardClaims, 'daily reward claim'),
    r.discordLinks && plural(r.discordLinks, 'Discord link'),
  ].filter((x): x is string => Boolean(x));
  const kept = [
    r.productsDeactivated && `${plural(r.productsDeactivated, 'product')} real users ordered (now inactive)`,
    removed.length > 0 && r.challengesKept && `${plural(r.challengesKept, 'challenge')} a real user won`,
    r.finishedEvents &&
      `${plural(r.finishedEvents, 'finished event')} demo accounts took part in, as announced (they show as "${REMOVED_ACCOUNT_NAME}")`,
  ].filter((x): x is string => Boolean(x));
  if (removed.length === 0 && kept.length === 0) return demoRemovalMessages.nothingLeft;
  const list = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : (xs[0] ?? ''));
  const parts = [];
  if (removed.length > 0) parts.push(`Removed ${list(removed)}.`);
  if (kept.length > 0) parts.push(`Kept ${list(kept)}.`);
  return parts.join(' ');
}

/** The player keys (leaderboards/ranking playerKeyOf) of the simulator's cast on every board. */
function simulatorKeys(): Array<{ site: number; key: string }> {
  return siteIds.flatMap((site) =>
    simPlayers(site).map((p) => ({ site, key: `id:${(site === 6 ? `rb-${p.id}` : p.id).toLowerCase()}` })),
  );
}

/** What the removal's confirmation lists: the finished events demo accounts took part in. */
export async function demoFinishedEvents(app: FastifyInstance): Promise<FinishedEvent[]> {
  const demo = await app.db.select({ id: users.id }).from(users).where(like(users.steamId, DEMO_STEAM_ID_PATTERN));
  return finishedEventsOf(
    app.db,
    demo.map((u) => u.id),
  );
}

export async function removeDemoData(app: FastifyInstance, actor: Actor): Promise<DemoRemoval> {
  const result = await app.db.transaction(async (tx) => {
    const demoUsers = await tx
      .select({ id: users.id, discordId: users.discordId })
      .from(users)
      .where(like(users.steamId, DEMO_STEAM_ID_PATTERN))
      .for('update');
    const demoIds = demoUsers.map((u) => u.id);
    if (actor.userId && demoIds.includes(actor.userId)) throw conflict(demoRemovalMessages.signedInAsDemo);
    const isDemo = new Set(demoIds);

    // Demo products and whether anything real still hangs on them.
    const catalogue = demoCatalogue.map(([name, , image]) => sql`(${name}, ${`/store/${image}.svg`})`);
    const demoProducts = await tx
      .select({ id: products.id, active: products.active })
      .from(products)
      .where(sql`(${products.name}, ${products.imageUrl}) IN (${sql.join(catalogue, sql`, `)})`)
      .for('update');
    const productIds = demoProducts.map((p) => p.id);

    // Demo challenges (title and image): kept when a real user won.
    const pairs = demoChallenges.map((c) => sql`(${c.title}, ${c.image})`);
    const demoChallengeRows = await tx
      .select({ id: challenges.id, winner: challenges.winnerUserId })
      .from(challenges)
      .where(sql`(${challenges.title}, ${challenges.imageUrl}) IN (${sql.join(pairs, sql`, `)})`);
    const challengeIds = demoChallengeRows.filter((c) => !c.winner || isDemo.has(c.winner)).map((c) => c.id);

    // The seeded last weeks: closed right at their end, every player one of the simulator's cast.
    const keys = simulatorKeys();
    const castValues = sql.join(
      keys.map((k) => sql`(${k.site}::smallint, ${k.key})`),
      sql`, `,
    );
    const seededWeeks = rowsOf<{ id: string | number; real_winner: boolean }>(
      await tx.execute(sql`
        SELECT p.id,
          EXISTS (SELECT 1 FROM leaderboard_results r JOIN users u ON u.id = r.user_id
                  WHERE r.period_id = p.id AND u.steam_id NOT LIKE ${DEMO_STEAM_ID_PATTERN}) AS real_winner
        FROM leaderboard_periods p
        WHERE p.status = 'closed' AND p.closed_at = p.end_at
          AND NOT EXISTS (
            SELECT 1 FROM leaderboard_standings s
            WHERE s.period_id = p.id AND (p.site, s.player_key) NOT IN (VALUES ${castValues})
          )
      `),
    );
    const periodIds = seededWeeks.filter((w) => !w.real_winner).map((w) => Number(w.id));

    const claims =
      demoIds.length === 0
        ? 0
        : (
            await tx
              .select({ id: dailyRewardClaims.id })
              .from(dailyRewardClaims)
              .where(inArray(dailyRewardClaims.userId, demoIds))
          ).length;

    // Demo accounts: removed as any account is (their own data goes, finished events stay).
    const finished = await finishedEventsOf(tx, demoIds);
    await removeAccounts(tx, demoIds, new Date());

    // Demo products: deleted when nothing real is left on them, else kept and deactivated.
    let productsRemoved = 0;
    let productsDeactivated = 0;
    if (productIds.length > 0) {
      const ordered = new Set(
        (
          await tx.selectDistinct({ id: orders.productId }).from(orders).where(inArray(orders.productId, productIds))
        ).map((r) => r.id),
      );
      const pooled = new Set(
        (
          await tx
            .selectDistinct({ id: productCodes.productId })
            .from(productCodes)
            .where(inArray(productCodes.productId, productIds))
        ).map((r) => r.id),
      );
      const keep = demoProducts.filter((p) => ordered.has(p.id) || pooled.has(p.id));
      const drop = productIds.filter((id) => !ordered.has(id) && !pooled.has(id));
      if (drop.length > 0)
        productsRemoved = (await tx.delete(products).where(inArray(products.id, drop)).returning()).length;
      const deactivate = keep.filter((p) => p.active).map((p) => p.id);
      if (deactivate.length > 0) {
        productsDeactivated = (
          await tx
            .update(products)
            .set({ active: false, updatedAt: new Date() })
            .where(and(inArray(products.id, deactivate), eq(products.active, true)))
            .returning({ id: products.id })
        ).length;
      }
    }

    const removedChallenges =
      challengeIds.length === 0
        ? 0
        : (await tx.delete(challenges).where(inArray(challenges.id, challengeIds)).returning({ id: challenges.id }))
            .length;

    if (periodIds.length > 0) {
      await tx.delete(leaderboardResults).where(inArray(leaderboardResults.periodId, periodIds));
      await tx.delete(leaderboardStandings).where(inArray(leaderboardStandings.periodId, periodIds));
      await tx.delete(leaderboardPeriods).where(inArray(leaderboardPeriods.id, periodIds));
    }

    const removal: DemoRemoval = {
      accounts: demoIds.length,
      discordLinks: demoUsers.filter((u) => u.discordId !== null).length,
      dailyRewardClaims: claims,
      productsRemoved,
      productsDeactivated,
      challenges: removedChallenges,
      challengesKept: demoChallengeRows.length - challengeIds.length,
      leaderboardWeeks: periodIds.length,
      finishedEvents: finished.length,
    };
    const changed =
      removal.accounts + removal.productsRemoved + removal.productsDeactivated + removal.challenges + periodIds.length;
    if (changed > 0) {
      await recordAudit(tx, actor, { action: 'site.demo_removed', targetType: 'site', after: removal });
    }
    return { removal, changed };
  });
  if (result.changed > 0) app.reads.invalidate('');
  return result.removal;
}

/**
 * A viewer's claim and view of the ladders (docs/features/milestone-rewards.md#claiming). A claim
 * locks the viewer's progress row of the running cycle (FOR UPDATE), so concurrent claims — in one
 * process or several — and the poller's automatic payout pay each tier once: the second one reads
 * what the first paid and is refused "You have claimed this tier."
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import { milestoneMessages, type PublicLadder } from '@kickback/common/http/milestones';
import { centsToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { milestoneProgress } from '../../db/schema/milestones';
import type { UserRow } from '../../db/schema/users';
import { transactionThen } from '../../lib/after-commit';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { actorOf } from '../audit/service';
import { activeBanSql } from '../kick-bans/service';
import { claimState } from './claim-state';
import { currentCycle, loadLadders, owedFor, presentTier } from './ladders';
import { lockProgress, money, payOut, payoutsOf } from './payouts';

/**
 * Why this user may not be paid on this site now, in words; null when they may. The link and the
 * ban are read in one statement (a claim is a few round trips: docs/features/milestone-rewards.md#claiming).
 */
/**
 * Why this viewer may not claim on a site (each a 403), in the order a viewer is told; null when
 * they may (docs/features/milestone-rewards.md#claiming).
 */
function refusalFor(user: Pick<UserRow, 'excluded'>, link: { verified: boolean; banned: boolean }): string | null {
  if (user.excluded) return milestoneMessages.excluded;
  if (!link.verified) return milestoneMessages.notLinked;
  if (link.banned) return milestoneMessages.banned;
  return null;
}

async function refusalOf(db: DbOrTx, user: Pick<UserRow, 'id' | 'excluded'>, site: SiteId, now: Date) {
  const field = siteById(site)?.linkField;
  if (user.excluded || !field) return refusalFor(user, { verified: false, banned: false });
  const [row] = rowsOf<{ verified: boolean; banned: boolean }>(
    await db.execute(sql`
      SELECT EXISTS (
               SELECT 1 FROM partner_links l
               WHERE l.user_id = ${user.id} AND l.field = ${field} AND l.state = 'verified'
             ) AS verified,
             ${activeBanSql(sql`(SELECT u.kick_id FROM users u WHERE u.id = ${user.id})`, now)} AS banned
    `),
  );
  return refusalFor(user, row ?? { verified: false, banned: false });
}

async function progressOf(db: DbOrTx, site: SiteId, cycleKey: string | null, userId: string) {
  if (!cycleKey) return null;
  const [row] = await db
    .select()
    .from(milestoneProgress)
    .where(
      and(
        eq(milestoneProgress.site, site),
        eq(milestoneProgress.cycleKey, cycleKey),
        eq(milestoneProgress.userId, userId),
      ),
    );
  return row ?? null;
}

export async function publicLadders(app: FastifyInstance, user: UserRow | null): Promise<PublicLadder[]> {
  const now = app.clock.now();
  const out: PublicLadder[] = [];
  for (const ladder of await loadLadders(app.db)) {
    if (!ladder.row.enabled || ladder.tiers.length === 0) continue;
    const meta = siteById(ladder.site);
    const cycle = await currentCycle(app.db, ladder, now);
    let me: PublicLadder['me'] = null;
    if (user) {
      const refusal = await refusalOf(app.db, user, ladder.site, now);
      const row = await progressOf(app.db, ladder.site, cycle.key, user.id);
      const wagered = row ? toCents(row.wagered) : 0n;
      const owed = owedFor(ladder.tiers, wagered, {
        threshold: row ? toCents(row.paidThreshold) : 0n,
        points: row ? toCents(row.paidPoints) : 0n,
        cash: row ? toCents(row.paidCash) : 0n,
      });
      me = {
        linked: refusal !== milestoneMessages.notLinked,
        wagered: centsToNumber(wagered),
        reached: owed.reached,
        paid: owed.paid,
        claimablePoints: centsToNumber(owed.points),
        claimableCash: centsToNumber(owed.cash),
        refusal:
          refusal ??
          (owed.reached < 0
            ? milestoneMessages.notReached
            : owed.points === 0n && owed.cash === 0n
              ? milestoneMessages.claimed
              : null),
      };
    }
    out.push({
      site: ladder.site,
      siteName: meta?.name ?? `Site ${ladder.site}`,
      unit: meta?.defaultRewardUnit === 'USD' ? 'USD' : 'wagered',
      cycle: ladder.row.cycle,
      automatic: ladder.row.automatic,
      cycleEndsAt: cycle.endsAt?.toISOString() ?? null,
      tiers: ladder.tiers.map(presentTier),
      me,
    });
  }
  return out;
}

/** A viewer's claim: pays what the tiers reached owe beyond what the cycle paid, once. */
export async function claimMilestones(app: FastifyInstance, user: UserRow, site: SiteId) {
  const now = app.clock.now();
  // One read decides every refusal (docs/features/milestone-rewards.md#claiming).
  const state = await claimState(app.db, user.id, site, now);
  if (!state?.ladder.row.enabled || state.ladder.tiers.length === 0) throw notFound(milestoneMessages.noLadder);
  const { ladder, cycleKey, progress: seen } = state;
  const refusal = refusalFor(user, state);
  if (refusal) throw forbidden(refusal);
  if (!cycleKey) throw conflict(milestoneMessages.notReached);
  // Refused without a lock when the row (read as it stands) owes nothing: another payer only ever
  // adds to what was paid, so the refusal stands. A claim owed something locks the row and reads it
  // again before paying (the exactly-once guarantee).
  const seenOwed = seen
    ? owedFor(ladder.tiers, seen.wagered, {
        threshold: seen.paidThreshold,
        points: seen.paidPoints,
        cash: seen.paidCash,
      })
    : null;
  if (!seenOwed || seenOwed.reached < 0) throw conflict(milestoneMessages.notReached);
  if (seenOwed.points === 0n && seenOwed.cash === 0n) throw conflict(milestoneMessages.claimed);
  return transactionThen(
    app.db,
    async (tx) => {
      const [row] = await lockProgress(tx, site, cycleKey, [user.id]);
      if (!row) throw conflict(milestoneMessages.notReached);
      const owed = owedFor(ladder.tiers, row.wagered, {
        threshold: row.paidThreshold,
        points: row.paidPoints,
        cash: row.paidCash,
      });
      if (owed.reached < 0) throw conflict(milestoneMessages.notReached);
      const [payout] = payoutsOf(ladder, [row]);
      if (!payout) throw conflict(milestoneMessages.claimed);
      const [paid] = await payOut(tx, ladder, cycleKey, [payout], actorOf(user), now);
      const parts = [
        payout.points > 0n ? `${money(payout.points)} points` : null,
        payout.cash > 0n ? `$${money(payout.cash)} on its way` : null,
      ].filter(Boolean);
      return {
        points: centsToNumber(payout.points),
        cash: centsToNumber(payout.cash),
        tier: payout.tier,
        held: paid?.held ?? false,
        message: paid?.held
          ? `${payout.tier} reached: your reward awaits an admin's approval.`
          : `${payout.tier} reached: ${parts.join(' and ')}.`,
      };
    },
    app.log,
  );
}

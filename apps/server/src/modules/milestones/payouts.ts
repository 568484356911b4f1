/**
 * Paying what a cycle owes (docs/features/milestone-rewards.md#paying): the caller holds the
 * progress rows' locks (FOR UPDATE), so what was paid is read and moved by one payer at a time.
 * Points go through the staff-prize gate's batch entry — one statement for the balances and ledger
 * rows of a whole batch — and cash or site tips become Fulfilment items for a person to deliver,
 * carrying who set the ladder so the staff-prize delivery rules apply.
 */
import { sql } from 'drizzle-orm';
import { siteById } from '@kickback/common/http/leaderboards';
import { centsToText, formatAmount } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { uuidArray } from '../../db/params';
import { rowsOf } from '../../db/rows';
import type { Actor } from '../audit/service';
import { enqueueFulfilment } from '../fulfilment/service';
import { payPrizeBatch } from '../staff-prizes/service';
import { owedFor, type Ladder } from './ladders';

export interface LockedProgress {
  userId: string;
  username: string;
  wagered: bigint;
  paidThreshold: bigint;
  paidPoints: bigint;
  paidCash: bigint;
}

export interface Payout {
  userId: string;
  username: string;
  tier: string;
  threshold: bigint;
  points: bigint;
  cash: bigint;
  totalPoints: bigint;
  totalCash: bigint;
}

export interface PaidPayout extends Payout {
  /** Points held in Fulfilment for an Admin (staff-prize limits), not paid yet. */
  held: boolean;
}

/** 500 rather than 500.00 in a chat line and a toast; 12.50 stays. */
export const money = (cents: bigint) => formatAmount(centsToText(cents)).replace(/\.00$/, '');

/**
 * The batch's ids as one array parameter (`uuidArray`) and the range they span: bounding the
 * primary key's last column makes the planner read only that range of the cycle's rows, whatever
 * its statistics say of a table the poller just filled — an id list alone was filtered over every
 * row of the cycle, per batch (docs/features/milestone-rewards.md#automatic-payouts).
 */
function idsOf(userIds: readonly string[]) {
  let low = userIds[0]!.toLowerCase();
  let high = low;
  for (const mixed of userIds) {
    const id = mixed.toLowerCase(); // the text order of lower-case ids is the uuid order
    if (id < low) low = id;
    if (id > high) high = id;
  }
  return sql`p.user_id BETWEEN ${low}::uuid AND ${high}::uuid AND p.user_id = ANY (${uuidArray(userIds)})`;
}

/**
 * Locks the progress rows of these users in this cycle (ordered, so payers never deadlock), the
 * ids probed as a range of the primary key (`idsOf`).
 * `skipLocked` (the poller's batches) leaves out the rows another payer holds: that payer — a claim
 * — pays them, so the batch never waits on a claim while it holds its other rows.
 */
export async function lockProgress(
  tx: DbOrTx,
  site: number,
  cycleKey: string,
  userIds: readonly string[],
  { skipLocked = false }: { skipLocked?: boolean } = {},
): Promise<LockedProgress[]> {
  if (userIds.length === 0) return [];
  const rows = rowsOf<{
    user_id: string;
    username: string;
    wagered: string;
    paid_threshold: string;
    paid_points: string;
    paid_cash: string;
  }>(
    await tx.execute(sql`
      SELECT p.user_id, u.username, (p.wagered * 100)::bigint::text AS wagered,
             (p.paid_threshold * 100)::bigint::text AS paid_threshold,
             (p.paid_points * 100)::bigint::text AS paid_points, (p.paid_cash * 100)::bigint::text AS paid_cash
      FROM milestone_progress p JOIN users u ON u.id = p.user_id
      WHERE p.site = ${site} AND p.cycle_key = ${cycleKey}
        AND ${idsOf(userIds)}
      ORDER BY p.user_id
      FOR UPDATE OF p ${skipLocked ? sql`SKIP LOCKED` : sql``}
    `),
  );
  return rows.map((r) => ({
    userId: r.user_id,
    username: r.username,
    wagered: BigInt(r.wagered),
    paidThreshold: BigInt(r.paid_threshold),
    paidPoints: BigInt(r.paid_points),
    paidCash: BigInt(r.paid_cash),
  }));
}

/** What each locked row is owed now (none for a row whose tiers are all paid). */
export function payoutsOf(ladder: Ladder, rows: readonly LockedProgress[]): Payout[] {
  const out: Payout[] = [];
  for (const r of rows) {
    const owed = owedFor(ladder.tiers, r.wagered, {
      threshold: r.paidThreshold,
      points: r.paidPoints,
      cash: r.paidCash,
    });
    if (owed.reached < 0 || (owed.points === 0n && owed.cash === 0n)) continue;
    const tier = ladder.tiers[owed.reached]!;
    out.push({
      userId: r.userId,
      username: r.username,
      tier: tier.name,
      threshold: tier.threshold,
      points: owed.points,
      cash: owed.cash,
      totalPoints: r.paidPoints + owed.points,
      totalCash: r.paidCash + owed.cash,
    });
  }
  return out;
}

/**
 * Records and pays these payouts in the caller's transaction (the rows locked by `lockProgress`):
 * the progress rows first (one statement; the ids also as one array, so only the batch's rows are
 * joined), then the points (one gate batch), then each cash item.
 */
export async function payOut(
  tx: DbOrTx,
  ladder: Ladder,
  cycleKey: string,
  payouts: readonly Payout[],
  actor: Actor | null,
  now: Date,
): Promise<PaidPayout[]> {
  if (payouts.length === 0) return [];
  const site = ladder.site;
  const siteName = siteById(site)?.name ?? `Site ${site}`;
  await tx.execute(sql`
    UPDATE milestone_progress p SET
      paid_threshold = greatest(p.paid_threshold, d.threshold),
      paid_points = p.paid_points + d.points,
      paid_cash = p.paid_cash + d.cash,
      paid_at = ${now.toISOString()}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(
      payouts.map((p) => ({
        user_id: p.userId,
        threshold: centsToText(p.threshold),
        points: centsToText(p.points),
        cash: centsToText(p.cash),
      })),
    )}::jsonb) AS d(user_id uuid, threshold numeric, points numeric, cash numeric)
    WHERE p.site = ${site} AND p.cycle_key = ${cycleKey} AND p.user_id = d.user_id
      AND ${idsOf(payouts.map((p) => p.userId))}
  `);
  const reference = (p: Payout, what: string, total: bigint) =>
    `milestone:${site}:${cycleKey}:${p.userId}:${what}:${centsToText(total)}`;
  const withPoints = payouts.filter((p) => p.points > 0n);
  const outcomes = await payPrizeBatch(
    tx,
    {
      label: `${siteName} milestone ladder`,
      target: { type: 'milestone_ladder', id: String(site) },
      actor,
      runBy: [ladder.row.updatedBy],
    },
    {
      reason: 'milestone_reward',
      prizes: withPoints.map((p) => ({
        userId: p.userId,
        cents: p.points,
        reference: reference(p, 'points', p.totalPoints),
        memo: `${siteName} milestone: ${p.tier}`,
      })),
    },
    now,
  );
  const held = new Set(withPoints.filter((_, i) => outcomes[i]?.kind === 'held').map((p) => p.userId));
  for (const p of payouts) {
    if (p.cash <= 0n) continue;
    await enqueueFulfilment(tx, {
      kind: 'milestone',
      reference: reference(p, 'cash', p.totalCash),
      userId: p.userId,
      description: `${siteName} milestone ${p.tier}: $${money(p.cash)} (cash or a site tip)`,
      amount: centsToText(p.cash),
      unit: 'USD',
      runBy: ladder.row.updatedBy ? { userId: ladder.row.updatedBy, at: ladder.row.updatedAt } : null,
    });
  }
  return payouts.map((p) => ({ ...p, held: held.has(p.userId) }));
}

/** The chat line announcing automatic payouts: a few names, then how many more. */
export function announcement(ladder: Ladder, paid: readonly PaidPayout[]): string | null {
  if (paid.length === 0) return null;
  const siteName = siteById(ladder.site)?.name ?? `Site ${ladder.site}`;
  const shown = paid.slice(0, 3).map((p) => {
    const parts = [p.points > 0n ? `${money(p.points)} points` : null, p.cash > 0n ? `$${money(p.cash)}` : null];
    return `@${p.username} reached ${p.tier} (${parts.filter(Boolean).join(' + ')})`;
  });
  const more = paid.length > 3 ? ` and ${paid.length - 3} more` : '';
  return `Milestones on ${siteName}: ${shown.join(', ')}${more}!`.slice(0, 500);
}

/**
 * The admin's numbers (docs/features/milestone-rewards.md#the-admin-view): per tier how many linked
 * viewers reached it and how many were paid for it in the running cycle, and per cycle what was
 * paid in all. The page exports the same numbers as CSV.
 */
import { sql } from 'drizzle-orm';
import type { LadderStats } from '@kickback/common/http/milestones';
import { centsToNumber, decimalToNumber } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { cycleLabel, type Ladder } from './ladders';

export async function ladderStats(db: DbOrTx, ladder: Ladder, cycleKey: string | null): Promise<LadderStats> {
  const tiers = [];
  for (const t of ladder.tiers) {
    const [row] = rowsOf<{ reached: string | number; claimed: string | number }>(
      await db.execute(sql`
        SELECT count(*) FILTER (WHERE wagered >= ${centsToNumber(t.threshold)}::numeric) AS reached,
               count(*) FILTER (WHERE paid_threshold >= ${centsToNumber(t.threshold)}::numeric) AS claimed
        FROM milestone_progress WHERE site = ${ladder.site} AND cycle_key = ${cycleKey ?? ''}
      `),
    );
    tiers.push({
      name: t.name,
      threshold: centsToNumber(t.threshold),
      reached: Number(row?.reached ?? 0),
      claimed: Number(row?.claimed ?? 0),
    });
  }
  const cycles = rowsOf<{
    cycle_key: string;
    start_at: Date | string | null;
    points: string;
    cash: string;
    users: string | number;
  }>(
    await db.execute(sql`
      SELECT m.cycle_key, p.start_at, sum(m.paid_points)::text AS points, sum(m.paid_cash)::text AS cash,
             count(*) FILTER (WHERE m.paid_points > 0 OR m.paid_cash > 0) AS users
      FROM milestone_progress m
      LEFT JOIN leaderboard_periods p ON m.cycle_key = 'period:' || p.id
      WHERE m.site = ${ladder.site}
      GROUP BY m.cycle_key, p.start_at
      ORDER BY p.start_at DESC NULLS FIRST
      LIMIT 50
    `),
  );
  return {
    site: ladder.site,
    cycleKey: cycleKey ?? '',
    tiers,
    cycles: cycles.map((c) => ({
      cycleKey: c.cycle_key,
      label: cycleLabel(c.cycle_key, c.start_at ? new Date(c.start_at) : null),
      paidPoints: decimalToNumber(c.points),
      paidCash: decimalToNumber(c.cash),
      paidUsers: Number(c.users),
    })),
  };
}

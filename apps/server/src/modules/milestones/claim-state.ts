/**
 * What a claim needs to know, read in one statement (docs/features/milestone-rewards.md#claiming):
 * the site's ladder and tiers, the cycle running now, whether the viewer's link is verified and
 * whether they are banned in chat, and their progress row in that cycle. A claim that owes nothing
 * is refused on this one read; only one owed something opens a transaction.
 */
import { sql } from 'drizzle-orm';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import { toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { activeBanSql } from '../kick-bans/service';
import type { Ladder, Tier } from './ladders';

export interface ClaimState {
  ladder: Ladder;
  /** The running cycle's key (null: the site has no running period for a per-period ladder). */
  cycleKey: string | null;
  verified: boolean;
  banned: boolean;
  /** The viewer's row in that cycle, in cents; null when the poller wrote none. */
  progress: { wagered: bigint; paidThreshold: bigint; paidPoints: bigint; paidCash: bigint } | null;
}

interface Row {
  enabled: boolean;
  automatic: boolean;
  cycle: 'period' | 'all_time';
  updated_by: string | null;
  updated_at: string | Date;
  tiers: Array<{ name: string; threshold: string; kind: Tier['kind']; reward: string }> | string;
  cycle_key: string | null;
  verified: boolean;
  banned: boolean;
  wagered: string | null;
  paid_threshold: string | null;
  paid_points: string | null;
  paid_cash: string | null;
}

/** Null when the site has no ladder at all. */
export async function claimState(db: DbOrTx, userId: string, site: SiteId, now: Date): Promise<ClaimState | null> {
  const field = siteById(site)?.linkField ?? null;
  const at = now.toISOString();
  const [row] = rowsOf<Row>(
    await db.execute(sql`
      WITH ladder AS (
        SELECT site, enabled, automatic, cycle, updated_by, updated_at FROM milestone_ladders WHERE site = ${site}
      ), cycle AS (
        SELECT CASE WHEN l.cycle = 'all_time' THEN 'all'
                    ELSE (SELECT 'period:' || p.id FROM leaderboard_periods p
                          WHERE p.site = ${site} AND p.start_at <= ${at}::timestamptz AND p.end_at > ${at}::timestamptz
                          LIMIT 1)
               END AS key
        FROM ladder l
      )
      SELECT l.enabled, l.automatic, l.cycle, l.updated_by, l.updated_at,
             coalesce((SELECT jsonb_agg(jsonb_build_object('name', t.name, 'threshold', t.threshold::text,
                                                           'kind', t.reward_kind, 'reward', t.reward_amount::text)
                                        ORDER BY t.threshold)
                       FROM milestone_tiers t WHERE t.site = l.site), '[]'::jsonb) AS tiers,
             c.key AS cycle_key,
             EXISTS (
               SELECT 1 FROM partner_links pl
               WHERE pl.user_id = ${userId} AND pl.field = ${field} AND pl.state = 'verified'
             ) AS verified,
             ${activeBanSql(sql`(SELECT u.kick_id FROM users u WHERE u.id = ${userId})`, now)} AS banned,
             m.wagered::text AS wagered, m.paid_threshold::text AS paid_threshold,
             m.paid_points::text AS paid_points, m.paid_cash::text AS paid_cash
      FROM ladder l CROSS JOIN cycle c
      LEFT JOIN milestone_progress m ON m.site = l.site AND m.cycle_key = c.key AND m.user_id = ${userId}
    `),
  );
  if (!row) return null;
  const tiers = typeof row.tiers === 'string' ? (JSON.parse(row.tiers) as Exclude<Row['tiers'], string>) : row.tiers;
  return {
    ladder: {
      site,
      row: {
        site,
        enabled: row.enabled,
        automatic: row.automatic,
        cycle: row.cycle,
        updatedBy: row.updated_by,
        updatedAt: new Date(row.updated_at),
      },
      tiers: tiers.map((t) => ({
        name: t.name,
        threshold: toCents(t.threshold),
        kind: t.kind,
        reward: toCents(t.reward),
      })),
    },
    cycleKey: row.cycle_key,
    verified: row.verified,
    banned: row.banned,
    progress:
      row.wagered === null
        ? null
        : {
            wagered: toCents(row.wagered),
            paidThreshold: toCents(row.paid_threshold ?? '0'),
            paidPoints: toCents(row.paid_points ?? '0'),
            paidCash: toCents(row.paid_cash ?? '0'),
          },
  };
}

/**
 * The poller's part (docs/features/milestone-rewards.md#automatic-payouts): after each standings
 * refresh of a site with a ladder, every verified link's wager for the ladder's cycle is written to
 * its progress row (set-based), and in automatic mode every row that reached a tier it was not paid
 * for is paid, in batches: each batch locks its rows, writes them in one statement, pays the points
 * in one gate batch and announces the payouts in chat after it committed.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import { centsToText, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { transactionThen } from '../../lib/after-commit';
import { activeBanSql } from '../kick-bans/service';
import { linksForPlayers, sameMatch, type PlayersMatch } from '../partner-links/service';
import { cycleKeyOf, loadLadder, type Ladder } from './ladders';
import { announcement, lockProgress, payOut, payoutsOf } from './payouts';

/** Progress rows written per statement (a claim owed something may wait for one statement). */
export const PROGRESS_BATCH = 5_000;
/**
 * Rows per payout transaction: a claim whose row a batch holds waits for that batch to commit.
 * Smaller batches were measured slower in all (each commit and round trip costs the same whatever
 * the batch's size; docs/benchmarks.md#milestones).
 */
export const PAYOUT_BATCH = 2_000;

interface PlayerWager {
  player_key: string;
  username: string;
  external_id: string | null;
  wagered: string;
}

/** Each player's wager on the code in the cycle: the period's standings, or all periods summed. */
async function wagersOf(db: DbOrTx, ladder: Ladder, periodId: number): Promise<PlayerWager[]> {
  if (ladder.row.cycle === 'all_time') {
    return rowsOf<PlayerWager>(
      await db.execute(sql`
        SELECT s.player_key, max(s.username) AS username, max(s.external_id) AS external_id, sum(s.wagered)::text AS wagered
        FROM leaderboard_standings s JOIN leaderboard_periods p ON p.id = s.period_id
        WHERE p.site = ${ladder.site} AND s.on_code
        GROUP BY s.player_key
      `),
    );
  }
  return rowsOf<PlayerWager>(
    await db.execute(sql`
      SELECT player_key, username, external_id, wagered::text AS wagered
      FROM leaderboard_standings WHERE period_id = ${periodId} AND on_code
    `),
  );
}

/**
 * Writes every verified link's wager for the cycle; returns how many rows were written and whether
 * the poll's match was reused. `match` is the poll's own match of its players: reused when the
 * cycle's players are exactly the poll's (`sameMatch`: a period cycle whose every player is on the
 * code and listed in this poll), so 50,000 links are not read and matched a second time
 * (docs/features/milestone-rewards.md#automatic-payouts).
 */
export async function refreshProgress(
  db: DbOrTx,
  ladder: Ladder,
  cycleKey: string,
  periodId: number,
  now: Date,
  match: PlayersMatch | null = null,
) {
  const field = siteById(ladder.site)?.linkField;
  if (!field) return { rows: 0, matchReused: false };
  const players = await wagersOf(db, ladder, periodId);
  const identities = players.map((p) => ({ playerKey: p.player_key, username: p.username, externalId: p.external_id }));
  const reused = match !== null && sameMatch(match, identities);
  const links = reused ? match.links : await linksForPlayers(db, field, identities);
  const byUser = new Map<string, string>();
  for (const p of players) {
    const link = links.get(p.player_key);
    if (link?.state === 'verified') byUser.set(link.id, centsToText(toCents(p.wagered)));
  }
  const records = [...byUser.entries()].map(([user_id, wagered]) => ({ user_id, wagered }));
  for (let i = 0; i < records.length; i += PROGRESS_BATCH) {
    await db.execute(sql`
      INSERT INTO milestone_progress (site, cycle_key, user_id, wagered, updated_at)
      SELECT ${ladder.site}, ${cycleKey}, r.user_id, r.wagered, ${now.toISOString()}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(records.slice(i, i + PROGRESS_BATCH))}::jsonb)
        AS r(user_id uuid, wagered numeric)
      ON CONFLICT (site, cycle_key, user_id) DO UPDATE SET wagered = EXCLUDED.wagered, updated_at = EXCLUDED.updated_at
      WHERE milestone_progress.wagered IS DISTINCT FROM EXCLUDED.wagered
    `);
  }
  return { rows: records.length, matchReused: reused };
}

/**
 * The rows of a cycle owed a tier they were not paid for: verified, neither excluded nor banned in
 * chat, and at or past the next threshold above what the cycle paid: more of the ladder's
 * thresholds (those it pays from) at or below the wager than at or below what was paid, counted by
 * `width_bucket` over the ascending thresholds rather than by a look-up of the tiers for each row
 * (docs/features/milestone-rewards.md#automatic-payouts).
 */
export async function owedUsers(db: DbOrTx, ladder: Ladder, cycleKey: string, now: Date): Promise<string[]> {
  const field = siteById(ladder.site)?.linkField;
  if (!field || ladder.tiers.length === 0) return [];
  const thresholds = `{${ladder.tiers
    .map((t) => t.threshold)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map(centsToText)
    .join(',')}}`;
  const rows = rowsOf<{ user_id: string }>(
    await db.execute(sql`
      SELECT p.user_id FROM milestone_progress p JOIN users u ON u.id = p.user_id
      WHERE p.site = ${ladder.site} AND p.cycle_key = ${cycleKey} AND NOT u.excluded
        AND width_bucket(p.wagered, ${thresholds}::numeric[]) > width_bucket(p.paid_threshold, ${thresholds}::numeric[])
        AND EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = p.user_id AND l.field = ${field} AND l.state = 'verified')
        AND NOT ${activeBanSql(sql`u.kick_id`, now)}
      ORDER BY p.user_id
    `),
  );
  return rows.map((r) => r.user_id);
}

/**
 * Payout transactions running at once: the batches hold disjoint rows (progress, balances), so they
 * never wait on each other, and a claim still waits for at most the one batch holding its row.
 */
export const PAYOUT_WORKERS = 2;

/** Pays every row owed a tier, in batches; returns how many were paid. */
export async function payAutomatically(app: FastifyInstance, ladder: Ladder, cycleKey: string, now: Date) {
  const owed = await owedUsers(app.db, ladder, cycleKey, now);
  const chunks: string[][] = [];
  for (let i = 0; i < owed.length; i += PAYOUT_BATCH) chunks.push(owed.slice(i, i + PAYOUT_BATCH));
  let paid = 0;
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < chunks.length) {
      const chunk = chunks[next++]!;
      const count = await transactionThen(
        app.db,
        async (tx, after) => {
          const rows = await lockProgress(tx, ladder.site, cycleKey, chunk, { skipLocked: true });
          const done = await payOut(tx, ladder, cycleKey, payoutsOf(ladder, rows), null, now);
          const text = announcement(ladder, done);
          if (text) after.push(() => app.chatOut.enqueue({ kind: 'announce', text }));
          return done.length;
        },
        app.log,
      ).catch((err: unknown) => {
        failed = true; // the batches after it wait for the next refresh
        throw err;
      });
      paid += count; // after the await: `paid += await …` would add to a stale total
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAYOUT_WORKERS, chunks.length) }, worker));
  return paid;
}

/** The poller told us a site's standings were refreshed. */
export async function standingsRefreshed(
  app: FastifyInstance,
  refresh: { site: SiteId; periodId: number; at: Date; match?: PlayersMatch | null },
): Promise<{ progress: number; paid: number }> {
  const ladder = await loadLadder(app.db, refresh.site);
  if (!ladder?.row.enabled || ladder.tiers.length === 0) return { progress: 0, paid: 0 };
  const cycleKey = cycleKeyOf(ladder, refresh.periodId);
  if (!cycleKey) return { progress: 0, paid: 0 };
  const t0 = performance.now();
  const written = await refreshProgress(app.db, ladder, cycleKey, refresh.periodId, refresh.at, refresh.match ?? null);
  const progress = written.rows;
  const t1 = performance.now();
  const paid = ladder.row.automatic ? await payAutomatically(app, ladder, cycleKey, refresh.at) : 0;
  app.log[paid > 0 ? 'info' : 'debug'](
    {
      site: refresh.site,
      cycleKey,
      progress,
      matchReused: written.matchReused,
      paid,
      progressMs: Math.round(t1 - t0),
      payMs: Math.round(performance.now() - t1),
    },
    'milestone ladder refreshed',
  );
  return { progress, paid };
}

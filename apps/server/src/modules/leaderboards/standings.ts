/**
 * Periods and their live standings: finds or opens the running period of a site, and writes a
 * partner fetch into it together with the wager points it earned (standingsWriter).
 *
 * Writers of one period are serialised by a row lock on the period. Each player's `credited`
 * watermark (the part of the ranked amount already paid out as points) moves in the same
 * transaction as the ledger credit, so two overlapping polls pay each delta exactly once, and an
 * older fetch never overwrites a newer one.
 */
import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { leaderboardPeriods, type LeaderboardPeriodRow } from '../../db/schema/leaderboards';
import type { PartnerStanding } from '../../integrations/partners/types';
import { applyBalanceChange } from '../ledger/service';
import { rowsOf } from '../../db/rows';
import { AfterCommit } from '../../lib/after-commit';
import { currentWindow, type Window } from './periods';
import { partnerLinks } from '../../db/schema/partner-links';
import { checkPartnerLinks, type LinkedUser, type PlayersMatch } from '../partner-links/service';
import { matchLinks, playerKeyOf } from './ranking';
import { loadSiteSettings, type SiteSettings } from './settings';

/** The open period whose window holds `now`, if it exists. */
export async function findCurrentPeriod(db: DbOrTx, site: SiteId, now: Date): Promise<LeaderboardPeriodRow | null> {
  const [row] = await db
    .select()
    .from(leaderboardPeriods)
    .where(
      and(eq(leaderboardPeriods.site, site), lte(leaderboardPeriods.startAt, now), gt(leaderboardPeriods.endAt, now)),
    )
    .limit(1);
  return row ?? null;
}

async function lastEndedAt(db: DbOrTx, site: SiteId, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ endAt: leaderboardPeriods.endAt })
    .from(leaderboardPeriods)
    .where(and(eq(leaderboardPeriods.site, site), lte(leaderboardPeriods.endAt, now)))
    .orderBy(desc(leaderboardPeriods.endAt))
    .limit(1);
  return row?.endAt ?? null;
}

/** The window the running period has (or will have once the poller opens it). */
export async function runningWindow(db: DbOrTx, settings: SiteSettings, now: Date): Promise<Window> {
  const current = await findCurrentPeriod(db, settings.site, now);
  if (current) return { start: current.startAt, end: current.endAt };
  return currentWindow(settings.schedule, now, await lastEndedAt(db, settings.site, now));
}

/** Finds or opens the period running at `now`. Safe when several processes do it at once. */
export async function ensureCurrentPeriod(
  db: DbOrTx,
  settings: SiteSettings,
  now: Date,
): Promise<LeaderboardPeriodRow> {
  const existing = await findCurrentPeriod(db, settings.site, now);
  if (existing) return existing;
  const window = currentWindow(settings.schedule, now, await lastEndedAt(db, settings.site, now));
  await db
    .insert(leaderboardPeriods)
    .values({ site: settings.site, startAt: window.start, endAt: window.end })
    .onConflictDoNothing();
  const created = await findCurrentPeriod(db, settings.site, now);
  if (!created) throw new Error(`could not open a leaderboard period for site ${settings.site}`);
  return created;
}

/** The amount a site ranks on, in hundredths: Roobet's weighted wager, elsewhere the wager. */
export function rankedAmount(site: SiteId, s: { wagered: bigint; weightedWagered: bigint | null }): bigint | null {
  return siteById(site)?.ranksOn === 'weightedWagered' ? s.weightedWagered : s.wagered;
}

/**
 * Told, inside the write's transaction (the period row locked), that a fetch of a site's period was
 * written; what it queues on `after` runs once that transaction committed. Registered with
 * `app.leaderboards.onStandingsWritten` by the modules that follow the standings (a community goal).
 */
export type StandingsListener = (
  tx: DbOrTx,
  written: { site: SiteId; periodId: number; at: Date },
  after: AfterCommit,
) => Promise<void>;

/** `match`: the poll's players matched to links (after its proofs and pins), for its listeners to reuse. */
export type WriteOutcome =
  | { written: true; players: number; credited: number; match: PlayersMatch | null }
  | { written: false; reason: 'closed' | 'stale' };

interface StoredRow {
  player_key: string;
  username: string;
  external_id: string | null;
  wagered: string;
  weighted_wagered: string | null;
  credited: string;
  on_code: boolean;
}

/**
 * Writes one fetch (started at `fetchedAt`) into an open period and credits wager points: for every
 * player now listed, the ranked amount above the watermark earns `pointsPerUnit` points per unit
 * (rounded down to the hundredth) for the site user who linked that player, and the watermark
 * moves up to the ranked amount whether or not anyone is linked — points are for wager made after
 * the link. Excluded users earn nothing (the ledger's `earning` guard). A claimed (unproven) link's
 * points are held on the link instead (partner-links/decisions credits them on verification).
 */
export async function writeStandings(
  db: DbOrTx,
  periodId: number,
  standings: readonly PartnerStanding[],
  fetchedAt: Date,
  listeners: readonly StandingsListener[] = [],
): Promise<WriteOutcome> {
  const after = new AfterCommit();
  const outcome = await db.transaction(async (tx) => {
    const [period] = await tx
      .select()
      .from(leaderboardPeriods)
      .where(eq(leaderboardPeriods.id, periodId))
      .for('update');
    if (!period || period.status !== 'open') return { written: false, reason: 'closed' } as const;
    if (period.fetchedAt && period.fetchedAt > fetchedAt) return { written: false, reason: 'stale' } as const;
    const site = period.site as SiteId;
    const settings = await loadSiteSettings(tx, site);

    // One row per player: a partner listing someone twice keeps the larger figures.
    const byKey = new Map<string, PartnerStanding>();
    for (const s of standings) {
      const key = playerKeyOf(s);
      const prev = byKey.get(key);
      if (!prev || s.wagered > prev.wagered) byKey.set(key, s);
    }
    const records = [...byKey.entries()].map(([key, s]) => ({
      player_key: key,
      username: s.username,
      external_id: s.externalId,
      avatar_url: s.avatarUrl,
      wagered: centsToText(s.wagered),
      weighted_wagered: s.weightedWagered === null ? null : centsToText(s.weightedWagered),
      unit: s.unit,
      on_code: s.onCode,
    }));
    if (records.length > 0) {
      // Wager points off: nobody earns, and the watermark moves up to the ranked amount in this same
      // write (points are for wager made while they are on) rather than in a second pass over every
      // row (docs/features/leaderboards.md#rules-and-configuration). With them on, creditWagerPoints
      // moves it (the write leaves it as it was).
      const ranked = sql.raw(siteById(site)?.ranksOn === 'weightedWagered' ? 'weighted_wagered' : 'wagered');
      const credited = settings.pointsPerUnit <= 0n ? sql`coalesce(greatest(r.${ranked}, 0), 0)` : sql`0`;
      await tx.execute(sql`
        INSERT INTO leaderboard_standings
          (period_id, player_key, username, external_id, avatar_url, wagered, weighted_wagered, unit, on_code, seen_at,
           credited)
        SELECT ${periodId}, r.player_key, r.username, r.external_id, r.avatar_url, r.wagered, r.weighted_wagered,
               r.unit, r.on_code, ${fetchedAt.toISOString()}::timestamptz, ${credited}
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
          player_key text, username text, external_id text, avatar_url text, wagered numeric,
          weighted_wagered numeric, unit text, on_code boolean)
        ON CONFLICT (period_id, player_key) DO UPDATE SET
          username = EXCLUDED.username, external_id = EXCLUDED.external_id, avatar_url = EXCLUDED.avatar_url,
          wagered = EXCLUDED.wagered, weighted_wagered = EXCLUDED.weighted_wagered, unit = EXCLUDED.unit,
          on_code = EXCLUDED.on_code, seen_at = EXCLUDED.seen_at,
          credited = greatest(leaderboard_standings.credited, EXCLUDED.credited)
      `);
    }
    // Proof codes first: the poll that verifies a link also credits its new wager directly.
    const { match } = await checkPartnerLinks(
      tx,
      site,
      records.map((r) => ({ playerKey: r.player_key, username: r.username, externalId: r.external_id })),
      fetchedAt,
    );
    const credited = await creditWagerPoints(tx, site, settings, periodId, fetchedAt);
    await tx.update(leaderboardPeriods).set({ fetchedAt }).where(eq(leaderboardPeriods.id, periodId));
    for (const listener of listeners) await listener(tx, { site, periodId, at: fetchedAt }, after);
    return { written: true, players: records.length, credited, match } as const;
  });
  await after.run();
  return outcome;
}

async function creditWagerPoints(
  tx: DbOrTx,
  site: SiteId,
  settings: SiteSettings,
  periodId: number,
  fetchedAt: Date,
): Promise<number> {
  // Wager points off: the write itself moved the watermark, and nobody earns.
  if (settings.pointsPerUnit <= 0n) return 0;
  const rows = rowsOf<StoredRow>(
    await tx.execute(sql`
      SELECT player_key, username, external_id, wagered::text, weighted_wagered::text, credited::text, on_code
      FROM leaderboard_standings
      WHERE period_id = ${periodId} AND seen_at = ${fetchedAt.toISOString()}::timestamptz
    `),
  );
  const deltas: Array<{ row: StoredRow; ranked: bigint; delta: bigint }> = [];
  for (const row of rows) {
    const ranked = rankedAmount(site, {
      wagered: toCents(row.wagered),
      weightedWagered: row.weighted_wagered === null ? null : toCents(row.weighted_wagered),
    });
    if (ranked === null) continue;
    const delta = ranked - toCents(row.credited);
    if (delta > 0n) deltas.push({ row, ranked, delta });
  }
  if (deltas.length === 0) return 0;

  // Points (hundredths) = wager (hundredths) × rate (hundredths) / 100 / 100 × 100, rounded down.
  // Players are matched to links only when some row earns points (with wager points off, none
  // does), and then all of them: which link a player matches depends on the others listed.
  const earning = deltas
    .filter(({ row }) => row.on_code)
    .map((d) => ({ ...d, points: (d.delta * settings.pointsPerUnit) / 100n }))
    .filter((d) => d.points > 0n);
  const matches =
    earning.length === 0
      ? new Map<string, LinkedUser>()
      : await matchLinks(
          tx,
          site,
          deltas.map(({ row }) => ({ playerKey: row.player_key, username: row.username, externalId: row.external_id })),
        );
  const siteName = siteById(site)?.name ?? `Site ${site}`;
  let paid = 0;
  for (const { row, delta, points } of earning) {
    const user = matches.get(row.player_key);
    if (!user || user.excluded) continue;
    // The link row is updated before the ledger, conditionally on its state: a decision or a
    // dispute holding the row lock either sees these points or makes this poll pay nobody.
    const amount = centsToText(points);
    if (user.state === 'claimed') {
      // Not proven yet: held on the link, credited on verification, dropped on rejection.
      const held = await tx
        .update(partnerLinks)
        .set({ heldPoints: sql`${partnerLinks.heldPoints} + ${amount}::numeric` })
        .where(and(eq(partnerLinks.id, user.linkId), eq(partnerLinks.state, 'claimed')))
        .returning({ id: partnerLinks.id });
      if (held.length > 0) continue;
    }
    // What this link earned is recorded on it: a dispute lost later reverses it.
    const owned = await tx
      .update(partnerLinks)
      .set({ creditedPoints: sql`${partnerLinks.creditedPoints} + ${amount}::numeric` })
      .where(and(eq(partnerLinks.id, user.linkId), eq(partnerLinks.state, 'verified')))
      .returning({ id: partnerLinks.id });
    if (owned.length === 0) continue;
    const result = await applyBalanceChange(tx, {
      userId: user.id,
      currency: 'points',
      delta: { cents: points },
      reason: 'wager',
      reference: `wager:${site}:${periodId}:${row.player_key}`,
      memo: `${siteName}: ${centsToText(delta)} wagered`,
      earning: true,
    });
    if (result) {
      paid += 1;
    } else {
      await tx
        .update(partnerLinks)
        .set({ creditedPoints: sql`${partnerLinks.creditedPoints} - ${amount}::numeric` })
        .where(eq(partnerLinks.id, user.linkId));
    }
  }
  await tx.execute(sql`
    UPDATE leaderboard_standings s SET credited = d.ranked
    FROM jsonb_to_recordset(${JSON.stringify(
      deltas.map(({ row, ranked }) => ({ player_key: row.player_key, ranked: centsToText(ranked) })),
    )}::jsonb) AS d(player_key text, ranked numeric)
    WHERE s.period_id = ${periodId} AND s.player_key = d.player_key AND s.credited < d.ranked
  `);
  return paid;
}

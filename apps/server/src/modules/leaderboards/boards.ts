/**
 * The public boards (docs/product.md#leaderboard-response), built from the database only — never by
 * calling a partner — and served through the read cache (routes.ts). `now` ranks the running period's standings;
 * `previous` reads the frozen results of the last closed period. Names are masked unless the
 * linked site user opted in to show theirs; only then is site 1's Clash id shown.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { centsToNumber, toCents } from '@kickback/common/money';
import type { BoardType, LeaderboardEntry, LeaderboardResponse, SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { leaderboardPeriods, type LeaderboardPeriodRow } from '../../db/schema/leaderboards';
import { rowsOf } from '../../db/rows';
import { periodPlayers } from './closer';
import { maskName, matchUsers, rankPlayers } from './ranking';
import { loadSiteSettings, prizeFor, type SiteSettings } from './settings';
import { findCurrentPeriod, runningWindow } from './standings';

/** Rows a public board lists (podium + table). */
export const BOARD_LIMIT = 100;

function money(cents: bigint | null): number | null {
  return cents === null ? null : centsToNumber(cents);
}

function presentName(username: string, showName: boolean): string {
  return showName ? username : maskName(username);
}

function prizeFields(settings: SiteSettings, rank: number, active: boolean) {
  const prize = active ? prizeFor(settings, rank) : null;
  return { reward: money(prize?.reward ?? null), rewardBonus: money(prize?.rewardBonus ?? null) };
}

function rewardList(settings: SiteSettings): LeaderboardResponse['rewards'] {
  return settings.rewards.map((p, i) => ({
    rank: i + 1,
    reward: centsToNumber(p.reward),
    rewardBonus: p.rewardBonus === null ? null : centsToNumber(p.rewardBonus),
  }));
}

export async function currentBoard(db: DbOrTx, settings: SiteSettings, now: Date): Promise<LeaderboardResponse> {
  const site = settings.site;
  const period = await findCurrentPeriod(db, site, now);
  const window = period ? { start: period.startAt, end: period.endAt } : await runningWindow(db, settings, now);
  const dates = { startDate: window.start.toISOString(), endDate: window.end.toISOString() };
  let data: LeaderboardEntry[] = [];
  if (period) {
    const players = await periodPlayers(db, site, period.id);
    const ranked = rankPlayers(players, await matchUsers(db, site, players), settings.excludedNames);
    data = ranked.slice(0, BOARD_LIMIT).map((row) => {
      const showName = row.user?.showName ?? false;
      return {
        rank: row.rank,
        userName: presentName(row.username, showName),
        avatarUrl: (showName ? row.user?.avatarUrl : null) ?? row.avatarUrl,
        isActive: row.isActive,
        wageredAmount: money(row.ranked),
        ...prizeFields(settings, row.rank, row.isActive),
        clashId: site === 1 && showName ? (row.externalId ?? row.username) : -1,
      };
    });
  }
  return {
    data,
    rewards: rewardList(settings),
    type: 'now',
    countdown: dates,
    period: dates,
    rewardUnit: settings.rewardUnit,
  };
}

export async function lastClosedPeriod(db: DbOrTx, site: SiteId): Promise<LeaderboardPeriodRow | null> {
  const [row] = await db
    .select()
    .from(leaderboardPeriods)
    .where(and(eq(leaderboardPeriods.site, site), eq(leaderboardPeriods.status, 'closed')))
    .orderBy(desc(leaderboardPeriods.endAt))
    .limit(1);
  return row ?? null;
}

interface ResultRow {
  rank: number;
  username: string;
  external_id: string | null;
  avatar_url: string | null;
  ranked_amount: string;
  is_active: boolean;
  reward: string | null;
  reward_bonus: string | null;
  user_avatar: string | null;
  show_name: boolean | null;
}

export async function previousBoard(db: DbOrTx, settings: SiteSettings): Promise<LeaderboardResponse> {
  const site = settings.site;
  const period = await lastClosedPeriod(db, site);
  const base = {
    rewards: rewardList(settings),
    type: 'previous' as const,
    countdown: null,
    rewardUnit: settings.rewardUnit,
  };
  if (!period) return { ...base, data: [], period: null };
  const rows = rowsOf<ResultRow>(
    await db.execute(sql`
      SELECT r.rank, r.username, r.external_id, r.avatar_url, r.ranked_amount::text, r.is_active,
             r.reward::text, r.reward_bonus::text, u.avatar_url AS user_avatar, u.show_name_on_boards AS show_name
      FROM leaderboard_results r LEFT JOIN users u ON u.id = r.user_id
      WHERE r.period_id = ${period.id}
      ORDER BY r.rank
      LIMIT ${BOARD_LIMIT}
    `),
  );
  return {
    ...base,
    rewardUnit: (period.rewardUnit as SiteSettings['rewardUnit'] | null) ?? settings.rewardUnit,
    period: { startDate: period.startAt.toISOString(), endDate: period.endAt.toISOString() },
    data: rows.map((r) => {
      const showName = r.show_name === true;
      return {
        rank: r.rank,
        userName: presentName(r.username, showName),
        avatarUrl: (showName ? r.user_avatar : null) ?? r.avatar_url,
        isActive: r.is_active,
        wageredAmount: centsToNumber(toCents(r.ranked_amount)),
        reward: r.reward === null ? null : centsToNumber(toCents(r.reward)),
        rewardBonus: r.reward_bonus === null ? null : centsToNumber(toCents(r.reward_bonus)),
        clashId: site === 1 && showName ? (r.external_id ?? r.username) : -1,
      };
    }),
  };
}

export async function buildBoard(db: DbOrTx, site: SiteId, type: BoardType, now: Date): Promise<LeaderboardResponse> {
  const settings = await loadSiteSettings(db, site);
  return type === 'now' ? currentBoard(db, settings, now) : previousBoard(db, settings);
}

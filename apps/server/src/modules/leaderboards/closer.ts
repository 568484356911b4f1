/**
 * periodCloser: freezes a finished period. Its standings are ranked once more (who is linked,
 * excluded and on the code at the end), written as results that nothing updates afterwards, and
 * each prize won by an active player who is a linked site user goes to the fulfilment queue
 * (kind 'leaderboard', reference unique per site/period/rank). Idempotent: a closed period is
 * left alone, so several processes may try at once.
 */
import { eq, sql } from 'drizzle-orm';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { leaderboardPeriods, leaderboardResults } from '../../db/schema/leaderboards';
import { enqueueFulfilment } from '../fulfilment/service';
import { rowsOf } from '../../db/rows';
import { matchUsers, rankPlayers, type PlayerRow } from './ranking';
import { loadSiteSettings, prizeFor } from './settings';
import { rankedAmount } from './standings';

export interface CloseOutcome {
  closed: boolean;
  ranked: number;
  prizesQueued: number;
}

interface StandingRow {
  player_key: string;
  username: string;
  external_id: string | null;
  avatar_url: string | null;
  wagered: string;
  weighted_wagered: string | null;
  active: boolean;
}

/** The players of a period with the site's ranked amount and whether they were active at the last fetch. */
export async function periodPlayers(db: DbOrTx, site: SiteId, periodId: number): Promise<PlayerRow[]> {
  const rows = rowsOf<StandingRow>(
    await db.execute(sql`
      SELECT s.player_key, s.username, s.external_id, s.avatar_url, s.wagered::text, s.weighted_wagered::text,
             (s.on_code AND s.seen_at = p.fetched_at) AS active
      FROM leaderboard_standings s JOIN leaderboard_periods p ON p.id = s.period_id
      WHERE s.period_id = ${periodId}
    `),
  );
  return rows.map((r) => ({
    playerKey: r.player_key,
    username: r.username,
    externalId: r.external_id,
    avatarUrl: r.avatar_url,
    ranked: rankedAmount(site, {
      wagered: toCents(r.wagered),
      weightedWagered: r.weighted_wagered === null ? null : toCents(r.weighted_wagered),
    }),
    isActive: r.active,
  }));
}

function shortDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export async function closePeriod(db: DbOrTx, periodId: number, now: Date): Promise<CloseOutcome> {
  return db.transaction(async (tx) => {
    const [period] = await tx
      .select()
      .from(leaderboardPeriods)
      .where(eq(leaderboardPeriods.id, periodId))
      .for('update');
    if (!period || period.status !== 'open') return { closed: false, ranked: 0, prizesQueued: 0 };
    const site = period.site as SiteId;
    const settings = await loadSiteSettings(tx, site);
    const players = await periodPlayers(tx, site, periodId);
    const ranked = rankPlayers(players, await matchUsers(tx, site, players), settings.excludedNames);
    const siteName = siteById(site)?.name ?? `Site ${site}`;
    let prizesQueued = 0;

    const results: Array<typeof leaderboardResults.$inferInsert> = [];
    for (const row of ranked) {
      const prize = row.isActive ? prizeFor(settings, row.rank) : null;
      let fulfilmentId: number | null = null;
      if (prize && row.user && !row.user.excluded) {
        const total = prize.reward + (prize.rewardBonus ?? 0n);
        if (total > 0n) {
          const bonus = prize.rewardBonus ? ` + ${formatAmount(centsToText(prize.rewardBonus))}` : '';
          fulfilmentId = await enqueueFulfilment(tx, {
            kind: 'leaderboard',
            reference: `leaderboard:${site}:${period.startAt.toISOString()}:${row.rank}`,
            userId: row.user.id,
            description:
              `${siteName} weekly leaderboard, rank ${row.rank} (${shortDate(period.startAt)} – ${shortDate(period.endAt)}): ` +
              `${formatAmount(centsToText(prize.reward))}${bonus} ${settings.rewardUnit} to ${row.username}`,
            amount: centsToText(total),
            unit: settings.rewardUnit,
          });
          if (fulfilmentId !== null) prizesQueued += 1;
        }
      }
      results.push({
        periodId,
        rank: row.rank,
        playerKey: row.playerKey,
        username: row.username,
        externalId: row.externalId,
        avatarUrl: row.avatarUrl,
        rankedAmount: centsToText(row.ranked ?? 0n),
        isActive: row.isActive,
        userId: row.user?.id ?? null,
        reward: prize ? centsToText(prize.reward) : null,
        rewardBonus: prize?.rewardBonus ? centsToText(prize.rewardBonus) : null,
        fulfilmentId,
      });
    }
    for (let i = 0; i < results.length; i += 500) {
      await tx.insert(leaderboardResults).values(results.slice(i, i + 500));
    }
    await tx
      .update(leaderboardPeriods)
      .set({ status: 'closed', closedAt: now, rewardUnit: settings.rewardUnit })
      .where(eq(leaderboardPeriods.id, periodId));
    return { closed: true, ranked: ranked.length, prizesQueued };
  });
}

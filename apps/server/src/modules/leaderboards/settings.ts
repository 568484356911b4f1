/**
 * Per-site leaderboard settings (admin page "Leaderboards"): shown or hidden, the period schedule,
 * the points rate, prizes by rank, referral codes and link, and partner names that never rank.
 * Amounts stay exact: prizes are kept as 2-decimal text inside the jsonb.
 */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import {
  rewardUnits,
  siteById,
  type RewardUnit,
  type SiteId,
  type SiteSettingsInput,
} from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { leaderboardSites, type LeaderboardSiteRow } from '../../db/schema/leaderboards';
import type { Schedule } from './periods';

export interface Prize {
  /** Hundredths. */
  reward: bigint;
  rewardBonus: bigint | null;
}

export interface SiteSettings {
  site: SiteId;
  shown: boolean;
  schedule: Schedule;
  /** Points per 1 unit of ranked wager, in hundredths (10 points = 1000n). */
  pointsPerUnit: bigint;
  rewardUnit: RewardUnit;
  rewards: Prize[];
  codes: string[];
  referralUrl: string | null;
  excludedNames: string[];
}

const storedPrize = z.object({ reward: z.string(), rewardBonus: z.string().nullable().optional() });

function readPrizes(value: unknown): Prize[] {
  const parsed = z.array(storedPrize).safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.map((p) => ({
    reward: toCents(p.reward),
    rewardBonus: p.rewardBonus ? toCents(p.rewardBonus) : null,
  }));
}

function readStrings(value: unknown): string[] {
  const parsed = z.array(z.string()).safeParse(value);
  return parsed.success ? parsed.data : [];
}

export function settingsOf(row: LeaderboardSiteRow): SiteSettings {
  const site = row.site as SiteId;
  return {
    site,
    shown: row.shown,
    schedule: { anchor: row.periodAnchor, days: row.periodDays },
    pointsPerUnit: toCents(decimalToNumber(row.pointsPerUnit)),
    rewardUnit: (rewardUnits as readonly string[]).includes(row.rewardUnit)
      ? row.rewardUnit
      : (siteById(site)?.defaultRewardUnit ?? 'USD'),
    rewards: readPrizes(row.rewards),
    codes: readStrings(row.codes).slice(0, siteById(site)?.codeCount ?? 1),
    referralUrl: row.referralUrl,
    excludedNames: readStrings(row.excludedNames),
  };
}

export async function loadSiteSettings(db: DbOrTx, site: SiteId, lock = false): Promise<SiteSettings> {
  const query = db.select().from(leaderboardSites).where(eq(leaderboardSites.site, site));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new Error(`leaderboard site ${site} has no settings row`);
  return settingsOf(row);
}

export async function loadAllSiteSettings(db: DbOrTx): Promise<SiteSettings[]> {
  const rows = await db.select().from(leaderboardSites).orderBy(asc(leaderboardSites.site));
  return rows.map(settingsOf);
}

/** Settings as the admin API shows them (numbers with at most 2 decimals). */
export function settingsToInput(s: SiteSettings): SiteSettingsInput {
  return {
    shown: s.shown,
    periodStart: s.schedule.anchor.toISOString(),
    periodDays: s.schedule.days,
    pointsPerUnit: Number(centsToText(s.pointsPerUnit)),
    rewardUnit: s.rewardUnit,
    rewards: s.rewards.map((p) => ({
      reward: Number(centsToText(p.reward)),
      rewardBonus: p.rewardBonus === null ? null : Number(centsToText(p.rewardBonus)),
    })),
    codes: s.codes,
    referralUrl: s.referralUrl,
    excludedNames: s.excludedNames,
  };
}

export async function writeSiteSettings(tx: DbOrTx, site: SiteId, input: SiteSettingsInput, now: Date): Promise<void> {
  await tx
    .update(leaderboardSites)
    .set({
      shown: input.shown,
      periodAnchor: new Date(input.periodStart),
      periodDays: input.periodDays,
      pointsPerUnit: centsToText(toCents(input.pointsPerUnit)),
      rewardUnit: input.rewardUnit,
      rewards: input.rewards.map((p) => ({
        reward: centsToText(toCents(p.reward)),
        rewardBonus: p.rewardBonus === null || p.rewardBonus === 0 ? null : centsToText(toCents(p.rewardBonus)),
      })),
      codes: input.codes,
      referralUrl: input.referralUrl,
      excludedNames: [...new Set(input.excludedNames.map((n) => n.trim()))],
      updatedAt: now,
    })
    .where(eq(leaderboardSites.site, site));
}

/** The prize of a rank (1-based), or null beyond the list. */
export function prizeFor(settings: Pick<SiteSettings, 'rewards'>, rank: number): Prize | null {
  return settings.rewards[rank - 1] ?? null;
}

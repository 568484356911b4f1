/**
 * Weekly wager leaderboards (spec part 2: Leaderboard screen, Leaderboard response, the leaderboard
 * calls): the seven partner sites, the public board answer and the admin settings payloads.
 */
import { z } from 'zod';
import { isAmount } from '../money';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

export const siteIds = [1, 2, 3, 4, 5, 6, 7] as const;
export type SiteId = (typeof siteIds)[number];

export const rewardUnits = ['USD', 'gems', 'coins'] as const;
export type RewardUnit = (typeof rewardUnits)[number];

export interface LeaderboardSite {
  id: SiteId;
  /** Path segment of its calls: site 1 is `/api/LeaderBoard/now`, the others `/api/LeaderBoard/{slug}/now`. */
  slug: 'clash' | 'royale' | 'csgobig' | 'howl' | 'rustmagic' | 'roobet' | 'cases';
  name: string;
  /** Sites 1 and 7 give two referral codes, the others one. */
  codeCount: 1 | 2;
  /** The reward icon; site 2 shares site 1's. */
  defaultRewardUnit: RewardUnit;
  /** Roobet ranks on weighted wager (spec §9), the others on plain wager. */
  ranksOn: 'wagered' | 'weightedWagered';
  /** The user column a site user saves their partner id in (none for CSGOBig and Howl). */
  linkField: 'clashId' | 'rustMagicId' | 'roobetName' | 'casesId' | null;
}

export const leaderboardSites: readonly LeaderboardSite[] = [
  {
    id: 1,
    slug: 'clash',
    name: 'Clash.gg',
    codeCount: 2,
    defaultRewardUnit: 'gems',
    ranksOn: 'wagered',
    linkField: 'clashId',
  },
  {
    id: 2,
    slug: 'royale',
    name: 'Royale',
    codeCount: 1,
    defaultRewardUnit: 'gems',
    ranksOn: 'wagered',
    linkField: 'clashId',
  },
  {
    id: 3,
    slug: 'csgobig',
    name: 'CSGOBig',
    codeCount: 1,
    defaultRewardUnit: 'coins',
    ranksOn: 'wagered',
    linkField: null,
  },
  { id: 4, slug: 'howl', name: 'Howl', codeCount: 1, defaultRewardUnit: 'coins', ranksOn: 'wagered', linkField: null },
  {
    id: 5,
    slug: 'rustmagic',
    name: 'RustMagic',
    codeCount: 1,
    defaultRewardUnit: 'coins',
    ranksOn: 'wagered',
    linkField: 'rustMagicId',
  },
  {
    id: 6,
    slug: 'roobet',
    name: 'Roobet',
    codeCount: 1,
    defaultRewardUnit: 'USD',
    ranksOn: 'weightedWagered',
    linkField: 'roobetName',
  },
  {
    id: 7,
    slug: 'cases',
    name: 'Cases.gg',
    codeCount: 2,
    defaultRewardUnit: 'USD',
    ranksOn: 'wagered',
    linkField: 'casesId',
  },
];

export function siteById(id: number): LeaderboardSite | undefined {
  return leaderboardSites.find((s) => s.id === id);
}

export function siteBySlug(slug: string): LeaderboardSite | undefined {
  const lower = slug.toLowerCase();
  return leaderboardSites.find((s) => s.slug === lower);
}

/** The call of a site's board (spec part 2 §7). Only site 1 has a previous board. */
export function boardPath(site: SiteId, type: BoardType = 'now'): string {
  if (site === 1) return `/api/LeaderBoard/${type}`;
  const slug = siteById(site)?.slug ?? 'clash';
  return `/api/LeaderBoard/${slug}/${type}`;
}

export const boardTypes = ['now', 'previous'] as const;
export type BoardType = (typeof boardTypes)[number];

/** One row of a board (spec part 2 §3). `clashId` is -1 when there is none to show. */
export const leaderboardEntry = z.object({
  rank: z.number().int().positive(),
  userName: z.string(),
  avatarUrl: z.string().nullable(),
  isActive: z.boolean(),
  /** Whole-dollar display; null when the partner did not report it. Roobet: the weighted wager. */
  wageredAmount: z.number().nullable(),
  reward: z.number().nullable(),
  rewardBonus: z.number().nullable(),
  clashId: z.union([z.literal(-1), z.string().min(1)]),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;

/** The prize of one rank. */
export const rankReward = z.object({
  rank: z.number().int().positive(),
  reward: z.number(),
  rewardBonus: z.number().nullable(),
});
export type RankReward = z.infer<typeof rankReward>;

export const periodDates = z.object({ startDate: z.string(), endDate: z.string() });
export type PeriodDates = z.infer<typeof periodDates>;

/** `GET /api/LeaderBoard/now` and friends. `countdown` is the running period, null on a previous board. */
export const leaderboardResponse = z.object({
  data: z.array(leaderboardEntry),
  rewards: z.array(rankReward),
  type: z.enum(boardTypes),
  countdown: periodDates.nullable(),
  /** The dates the board covers (also on a previous board); null when there is no such period yet. */
  period: periodDates.nullable(),
  rewardUnit: z.enum(rewardUnits),
});
export type LeaderboardResponse = z.infer<typeof leaderboardResponse>;

/** `GET /api/LeaderBoard/sites`: the boards offered on the public page, with their promo settings. */
export const publicSite = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  codes: z.array(z.string()),
  referralUrl: z.string().nullable(),
  rewardUnit: z.enum(rewardUnits),
});
export type PublicSite = z.infer<typeof publicSite>;
export const publicSitesResponse = z.object({ sites: z.array(publicSite) });

// --- Admin -----------------------------------------------------------------------------------

const money = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(1_000_000_000, `${label} is too large`)
    .refine(isAmount, `${label} has at most 2 decimals`);

export const MAX_PRIZE_RANKS = 100;

export const prizeInput = z.object({
  reward: money('Reward'),
  rewardBonus: money('Bonus').nullable(),
});

const code = z
  .string()
  .trim()
  .min(1, 'A code cannot be empty')
  .max(32, 'A code is at most 32 characters')
  .regex(/^[\w.-]+$/, 'A code is letters, digits, dot, dash or underscore');

/** `PUT /api/admin/leaderboards/{site}`: everything an admin sets for one site. */
export const siteSettingsInput = z.object({
  shown: z.boolean(),
  /** Any instant on the schedule (a period starts there, and every `periodDays` before and after). */
  periodStart: z.iso.datetime({ offset: true, error: 'Period start must be a date and time' }),
  periodDays: z
    .number({ error: 'Period length must be a number of days' })
    .int('Period length is whole days')
    .min(1, 'Period length is 1 to 31 days')
    .max(31, 'Period length is 1 to 31 days'),
  pointsPerUnit: money('Points per unit').refine((v) => v <= 10_000, 'Points per unit is at most 10000'),
  rewardUnit: z.enum(rewardUnits),
  /** Prizes by rank: the first is rank 1. */
  rewards: z.array(prizeInput).max(MAX_PRIZE_RANKS, `At most ${MAX_PRIZE_RANKS} prize ranks`),
  codes: z.array(code).max(2, 'At most two codes'),
  referralUrl: z
    .url({ protocol: /^https?$/, error: 'Referral link must be an http(s) URL' })
    .max(300)
    .nullable(),
  /** Partner-site names that never rank (the streamer's own accounts, bots). */
  excludedNames: z.array(z.string().trim().min(1).max(64)).max(200, 'At most 200 excluded names'),
});
export type SiteSettingsInput = z.infer<typeof siteSettingsInput>;

/** A site id in a path; ids outside 1–7 are answered 404 by the route. */
export const siteParam = z.object({
  site: z.coerce.number({ error: 'Site must be a number' }).int('Site must be a whole number'),
});

export function isSiteId(n: number): n is SiteId {
  return (siteIds as readonly number[]).includes(n);
}

export const providerKinds = ['partner', 'simulator', 'none'] as const;

export const adminResult = z.object({
  rank: z.number(),
  userName: z.string(),
  wageredAmount: z.number(),
  isActive: z.boolean(),
  reward: z.number().nullable(),
  rewardBonus: z.number().nullable(),
  linkedUser: z.string().nullable(),
  fulfilmentId: z.number().nullable(),
});
export type AdminResult = z.infer<typeof adminResult>;

export const adminSite = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  codeCount: z.number(),
  linkField: z.string().nullable(),
  settings: siteSettingsInput,
  provider: z.enum(providerKinds),
  status: z.object({
    lastSuccessAt: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    lastError: z.string().nullable(),
    nextPollAt: z.string().nullable(),
    players: z.number(),
  }),
  current: periodDates.nullable(),
  lastClosed: z
    .object({
      startDate: z.string(),
      endDate: z.string(),
      closedAt: z.string(),
      results: z.array(adminResult),
    })
    .nullable(),
});
export type AdminSite = z.infer<typeof adminSite>;
export const adminSitesResponse = z.object({ sites: z.array(adminSite) });
export type AdminSitesResponse = z.infer<typeof adminSitesResponse>;

export const refreshResult = z.object({ message: z.string() });

const board = <const P extends `/api/LeaderBoard/${string}`>(path: P) =>
  defineEndpoint({ method: 'GET', path, access: 'visitor', response: leaderboardResponse });

/** The public boards (spec part 2 §7): site 1 has `now` and `previous`, the others `{slug}/now`. */
export const boardEndpoints = {
  now: board('/api/LeaderBoard/now'),
  previous: board('/api/LeaderBoard/previous'),
  royale: board('/api/LeaderBoard/royale/now'),
  csgobig: board('/api/LeaderBoard/csgobig/now'),
  howl: board('/api/LeaderBoard/howl/now'),
  rustmagic: board('/api/LeaderBoard/rustmagic/now'),
  roobet: board('/api/LeaderBoard/roobet/now'),
  cases: board('/api/LeaderBoard/cases/now'),
};

export type BoardEndpoint = (typeof boardEndpoints)[keyof typeof boardEndpoints];

/** The board call of a site and type, or null where there is none (only site 1 has a previous board). */
export function boardEndpoint(site: SiteId, type: BoardType): BoardEndpoint | null {
  if (site === 1) return boardEndpoints[type];
  const slug = siteById(site)?.slug;
  if (type !== 'now' || !slug || slug === 'clash') return null;
  return boardEndpoints[slug];
}

export const leaderboardEndpoints = {
  sites: defineEndpoint({
    method: 'GET',
    path: '/api/LeaderBoard/sites',
    access: 'visitor',
    response: publicSitesResponse,
  }),
  adminSites: defineEndpoint({
    method: 'GET',
    path: '/api/admin/leaderboards',
    access: 'admin',
    response: adminSitesResponse,
  }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/leaderboards/:site',
    access: 'admin',
    params: siteParam,
    body: siteSettingsInput,
    response: messageBody,
  }),
  refresh: defineEndpoint({
    method: 'POST',
    path: '/api/admin/leaderboards/:site/refresh',
    access: 'admin',
    params: siteParam,
    response: refreshResult,
  }),
};

/**
 * Weekly wager leaderboards (docs/product.md#leaderboard-screen, Leaderboard response, the leaderboard
 * calls): the seven partner sites, the public board answer and the admin settings payloads.
 */
import { z } from 'zod';
import { strictInt } from './strict-int';
import { typedNumber } from './typed-number';
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
  /** Roobet ranks on weighted wager (docs/features/leaderboards.md#rules-and-configuration), the others on plain wager. */
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

/** The call of a site's board (docs/product.md#live-calls). Only site 1 has a previous board. */
export function boardPath(site: SiteId, type: BoardType = 'now'): string {
  if (site === 1) return `/api/LeaderBoard/${type}`;
  const slug = siteById(site)?.slug ?? 'clash';
  return `/api/LeaderBoard/${slug}/${type}`;
}

export const boardTypes = ['now', 'previous'] as const;
export type BoardType = (typeof boardTypes)[number];

/** One row of a board (docs/product.md#live-entities). `clashId` is -1 when there is none to show. */
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

/** The limits of a site's settings; the admin form's inputs carry the same. */
export const siteSettingsLimits = {
  periodDays: { min: 1, max: 31 },
  pointsPerUnit: 10_000,
  money: 1_000_000_000,
  code: 32,
  referralUrl: 300,
  excludedName: 64,
  excludedNames: 200,
} as const;

/** An amount of 0 or more with at most 2 decimals; `what` is said in the messages ("a reward"). */
const money = (what: string, max: number = siteSettingsLimits.money) =>
  z
    .number({ error: `Enter ${what} as a number, like 250 or 12.50.` })
    .min(0, `Enter ${what} of 0 or more.`)
    .max(max, `Enter ${what} of at most ${max.toLocaleString('en-US')}.`)
    .refine(isAmount, `Enter ${what} with at most 2 decimals, like 12.50.`);

export const MAX_PRIZE_RANKS = 100;

export const prizeInput = z.object({
  reward: money('a reward'),
  rewardBonus: money('a bonus').nullable(),
});

const codeMessages = {
  empty: 'Enter the code, or clear the field.',
  long: `Keep a code to ${siteSettingsLimits.code} characters or fewer.`,
  chars: 'Use only letters, digits, dot, dash or underscore in a code.',
};
const codePattern = /^[\w.-]+$/;

const code = z
  .string()
  .trim()
  .min(1, codeMessages.empty)
  .max(siteSettingsLimits.code, codeMessages.long)
  .regex(codePattern, codeMessages.chars);

const periodDaysRange = `Enter a period length of ${siteSettingsLimits.periodDays.min} to ${siteSettingsLimits.periodDays.max} days.`;

/** `PUT /api/admin/leaderboards/{site}`: everything an admin sets for one site. */
export const siteSettingsInput = z.object({
  shown: z.boolean(),
  /** Any instant on the schedule (a period starts there, and every `periodDays` before and after). */
  periodStart: z.iso.datetime({ offset: true, error: 'Enter when a period starts, as a date and time.' }),
  periodDays: z
    .number({ error: 'Enter the period length as a whole number of days.' })
    .int('Enter the period length as a whole number of days.')
    .min(siteSettingsLimits.periodDays.min, periodDaysRange)
    .max(siteSettingsLimits.periodDays.max, periodDaysRange),
  pointsPerUnit: money('a points rate', siteSettingsLimits.pointsPerUnit),
  rewardUnit: z.enum(rewardUnits),
  /** Prizes by rank: the first is rank 1. */
  rewards: z.array(prizeInput).max(MAX_PRIZE_RANKS, `Keep the prizes to ${MAX_PRIZE_RANKS} ranks or fewer.`),
  codes: z.array(code).max(2, 'Enter at most two codes.'),
  referralUrl: z
    .url({ protocol: /^https?$/, error: 'Enter a referral link starting with http:// or https://.' })
    .max(
      siteSettingsLimits.referralUrl,
      `Keep the referral link to ${siteSettingsLimits.referralUrl} characters or fewer.`,
    )
    .nullable(),
  /** Partner-site names that never rank (the streamer's own accounts, bots). */
  excludedNames: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'Leave out empty excluded names.')
        .max(
          siteSettingsLimits.excludedName,
          `Keep each excluded name to ${siteSettingsLimits.excludedName} characters or fewer.`,
        ),
    )
    .max(siteSettingsLimits.excludedNames, `Enter at most ${siteSettingsLimits.excludedNames} excluded names.`),
});
export type SiteSettingsInput = z.infer<typeof siteSettingsInput>;

const amountText = 'as a number, like 250 or 12.50.';

/**
 * The admin form of a site's settings, as its inputs hold them (text boxes, one code per box, one
 * excluded name per line, the period start as a UTC datetime-local value), checked by the API's
 * rules and turned into the API's body. Field paths match the API's, so the server's field errors
 * land on the same inputs.
 */
export const siteSettingsForm = z.object({
  shown: z.boolean(),
  periodStart: z
    .string()
    .transform((v) => (v === '' ? v : `${v.length === 16 ? `${v}:00` : v}Z`))
    .pipe(siteSettingsInput.shape.periodStart),
  periodDays: typedNumber(
    'Enter the period length in days.',
    'Enter the period length as a whole number of days.',
    siteSettingsInput.shape.periodDays,
  ),
  pointsPerUnit: typedNumber(
    'Enter a points rate (0 for none).',
    `Enter a points rate ${amountText}`,
    siteSettingsInput.shape.pointsPerUnit,
  ),
  rewardUnit: siteSettingsInput.shape.rewardUnit,
  rewards: z
    .array(
      z.object({
        reward: typedNumber(
          'Enter a reward, or remove the rank.',
          `Enter a reward ${amountText}`,
          prizeInput.shape.reward,
        ),
        /** Empty: no bonus. */
        rewardBonus: z
          .string()
          .transform((v, ctx) => {
            const text = v.trim();
            if (text === '') return null;
            if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
            ctx.addIssue({ code: 'custom', message: `Enter a bonus ${amountText}` });
            return z.NEVER;
          })
          .pipe(prizeInput.shape.rewardBonus),
      }),
    )
    .pipe(siteSettingsInput.shape.rewards),
  /** One box per code; an empty box is no code. */
  codes: z
    .array(
      z
        .string()
        .trim()
        .max(siteSettingsLimits.code, codeMessages.long)
        .refine((v) => v === '' || codePattern.test(v), codeMessages.chars),
    )
    .transform((list) => list.filter((c) => c !== ''))
    .pipe(siteSettingsInput.shape.codes),
  referralUrl: z
    .string()
    .transform((v) => v.trim() || null)
    .pipe(siteSettingsInput.shape.referralUrl),
  /** One name per line; blank lines are dropped. */
  excludedNames: z
    .string()
    .transform((v) =>
      v
        .split('\n')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .pipe(siteSettingsInput.shape.excludedNames),
});
export type SiteSettingsFormValues = z.input<typeof siteSettingsForm>;

/** A site id in a path; ids outside 1–7 are answered 404 by the route. */
export const siteParam = z.object({
  site: strictInt('Site must be a whole number'),
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

/** The public boards (docs/product.md#live-calls): site 1 has `now` and `previous`, the others `{slug}/now`. */
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

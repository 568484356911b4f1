/**
 * Daily rewards (docs/product.md#site-entities, docs/product.md#site-calls): the six reward types
 * and their claim actions, the monthly record list, the claim answer, and the admin's per-type
 * policies.
 */
import { z } from 'zod';
import { strictInt } from './strict-int';
import { typedNumber } from './typed-number';
import { defineEndpoint } from './endpoint';
import { isAmount } from '../money';

export const rewardTypes = [0, 1, 2, 3, 4, 5] as const;
export type RewardType = (typeof rewardTypes)[number];

export type RewardIcon = 'chip' | 'gems' | 'coins' | 'USD';

export interface RewardTypeInfo {
  type: RewardType;
  /** The path segment of `POST /api/DailyReward/{action}`. */
  action: string;
  /** The partner site (or the site itself for type 0). */
  site: string;
  /** The currency icon (docs/product.md#site-constants-and-limits): 0 a chip, 1 a gem, 2 a coin, 3 to 5 a dollar. */
  icon: RewardIcon;
  /** What the payout is in, for the fulfilment queue. */
  unit: string;
}

export const rewardTypeInfo: readonly RewardTypeInfo[] = [
  { type: 0, action: 'GetDailyReward', site: 'Kickback', icon: 'chip', unit: 'chips' },
  { type: 1, action: 'GetDailyRewardClash', site: 'Clash.gg', icon: 'gems', unit: 'gems' },
  { type: 2, action: 'GetDailyRewardRustMagic', site: 'RustMagic', icon: 'coins', unit: 'coins' },
  { type: 3, action: 'GetDailyRewardCases', site: 'Cases.gg', icon: 'USD', unit: 'USD' },
  { type: 4, action: 'GetDailyRewardCsgoRoll', site: 'CSGORoll', icon: 'USD', unit: 'USD' },
  { type: 5, action: 'GetDailyRewardRoobet', site: 'Roobet', icon: 'USD', unit: 'USD' },
];

export function rewardTypeOf(type: number): RewardTypeInfo {
  const info = rewardTypeInfo[type];
  if (!info) throw new RangeError(`unknown reward type ${type}`);
  return info;
}

export function rewardTypeByAction(action: string): RewardTypeInfo | undefined {
  const lower = action.toLowerCase();
  return rewardTypeInfo.find((t) => t.action.toLowerCase() === lower);
}

/** The type the affiliate-earnings policy applies to (Roobet). */
export const AFFILIATE_REWARD_TYPE = 5;

/** `GET /api/DailyReward/GetMontlyRewardsRoobet`: this month's claims of the signed-in user. */
export const monthlyRewardRecord = z.object({ createTime: z.string(), gemAmount: z.number() });
export type MonthlyRewardRecord = z.infer<typeof monthlyRewardRecord>;
export const monthlyRewardsResponse = z.array(monthlyRewardRecord);

export const claimResponse = z.object({ gemAmount: z.number() });

/** Why today's case cannot be claimed (null: it can). */
export const claimRefusals = [
  'sign_in',
  'not_linked',
  'not_verified',
  'disabled',
  'already_claimed',
  'no_wager',
  'nothing_to_claim',
  'stats_unavailable',
  'excluded',
] as const;
export type ClaimRefusal = (typeof claimRefusals)[number];

/** `GET /api/DailyReward/RoobetToday`: whether a claim today would pay, computed by the server. */
export const claimability = z.object({
  claimable: z.boolean(),
  reason: z.enum(claimRefusals).nullable(),
  /** The refusal a claim would answer, in words. */
  message: z.string().nullable(),
});
export type Claimability = z.infer<typeof claimability>;

/** The words on a case that cannot be claimed: short, for the card itself. */
export const refusalLabels: Record<ClaimRefusal, string> = {
  sign_in: 'Sign in to claim',
  not_linked: 'Link your Roobet name',
  not_verified: 'Roobet name not verified yet',
  disabled: 'Not available',
  already_claimed: 'Claimed today',
  no_wager: 'No wagering yesterday',
  nothing_to_claim: 'Nothing to claim today',
  stats_unavailable: 'Stats unavailable, try later',
  excluded: 'Not available',
};

export const rewardActionParam = z.object({ action: z.string().max(64) });

/** One type's policy: off, a fixed amount, or (type 5) a share of the previous day's wager. */
export const rewardPolicy = z.object({
  type: z.number(),
  enabled: z.boolean(),
  /** Fixed amount paid per claim (types 0–4). */
  amount: z.number(),
  /** Type 5: the streamer's affiliate earnings, in percent of the previous day's weighted wager. */
  earningsPercent: z.number(),
});
export type RewardPolicy = z.infer<typeof rewardPolicy>;
export const rewardPoliciesResponse = z.object({ policies: z.array(rewardPolicy) });

const amount = z
  .number({ error: 'Enter the amount as a number, like 250 or 12.50.' })
  .min(0, 'Enter an amount of 0 or more.')
  .max(1_000_000, 'Enter an amount of at most 1,000,000.')
  .refine((v) => isAmount(v), 'Enter the amount with at most 2 decimals, like 12.50.');

const earningsPercent = z
  .number({ error: 'Enter the percentage as a number, like 0.35.' })
  .min(0, 'Enter a percentage of 0 to 100.')
  .max(100, 'Enter a percentage of 0 to 100.')
  .refine((v) => /^\d+(\.\d{1,4})?$/.test(String(v)), 'Enter the percentage with at most 4 decimals, like 0.35.');

export const rewardPolicyInput = z.object({
  enabled: z.boolean({ error: 'Switch the reward on or off.' }),
  amount,
  earningsPercent,
});
export type RewardPolicyInput = z.infer<typeof rewardPolicyInput>;

/** The admin's policy row as its inputs hold it (numbers as typed), checked by the API's rules. */
export const rewardPolicyForm = z.object({
  enabled: z.boolean(),
  amount: typedNumber('Enter an amount (0 pays nothing).', 'Enter the amount as a number, like 250 or 12.50.', amount),
  earningsPercent: typedNumber(
    'Enter a percentage (0 pays nothing).',
    'Enter the percentage as a number, like 0.35.',
    earningsPercent,
  ),
});
export type RewardPolicyFormValues = z.input<typeof rewardPolicyForm>;
export const rewardTypeParam = z.object({ type: strictInt('Type must be a whole number', z.number().min(0).max(5)) });

export const dailyRewardEndpoints = {
  /** A visitor sees the calendar with no claims. */
  monthlyRoobet: defineEndpoint({
    method: 'GET',
    path: '/api/DailyReward/GetMontlyRewardsRoobet',
    access: 'visitor',
    response: monthlyRewardsResponse,
  }),
  /** Today's Roobet case: claimable, or why not (a visitor: sign_in). */
  roobetToday: defineEndpoint({
    method: 'GET',
    path: '/api/DailyReward/RoobetToday',
    access: 'visitor',
    response: claimability,
  }),
  /** `{action}` is the type's action name (`rewardTypeOf(type).action`). */
  claim: defineEndpoint({
    method: 'POST',
    path: '/api/DailyReward/:action',
    access: 'user',
    params: rewardActionParam,
    response: claimResponse,
  }),
  policies: defineEndpoint({
    method: 'GET',
    path: '/api/admin/daily-rewards/policies',
    access: 'admin',
    response: rewardPoliciesResponse,
  }),
  savePolicy: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/daily-rewards/policies/:type',
    access: 'admin',
    params: rewardTypeParam,
    body: rewardPolicyInput,
    response: rewardPolicy,
  }),
};

/**
 * The milestone ladder of each partner site (docs/features/milestone-rewards.md): tiers of verified
 * wager under the code, each adding a reward (points, or cash / a site tip delivered by hand). A
 * viewer claims the difference between the tiers reached and what the cycle already paid, or the
 * poller pays it in automatic mode.
 */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';
import { siteIds } from './leaderboards';
import { strictInt } from './strict-int';

export const milestoneCycles = ['period', 'all_time'] as const;
export type MilestoneCycle = (typeof milestoneCycles)[number];
export const milestoneRewardKinds = ['points', 'cash'] as const;
export type MilestoneRewardKind = (typeof milestoneRewardKinds)[number];

export const MILESTONE_TIERS_MAX = 30;
const AMOUNT_MAX = 100_000_000;

/** Refusals in plain words (the claim answers them as 409/403). */
export const milestoneMessages = {
  claimed: 'You have claimed this tier.',
  notReached: 'You have not reached a tier yet.',
  notLinked: 'Verify your account on this site (Profile → Partner ids) to claim its milestones.',
  excluded: 'This account cannot claim milestone rewards.',
  banned: 'You are banned in chat, so milestone rewards are paused.',
  noLadder: 'This site has no milestone ladder.',
} as const;

const amount = (what: string) =>
  z
    .union([z.number(), z.string().trim()], { error: `Enter ${what} with at most 2 decimals.` })
    .refine((v) => isAmount(v), `Enter ${what} with at most 2 decimals.`)
    .refine((v) => !isAmount(v) || toCents(v) > 0n, `Enter ${what} above 0.`)
    .refine(
      (v) => !isAmount(v) || toCents(v) <= BigInt(AMOUNT_MAX) * 100n,
      `Enter ${what} of at most ${AMOUNT_MAX.toLocaleString('en-US')}.`,
    )
    .transform((v) => String(v));

export const milestoneTierInput = z.object({
  name: z.string().trim().min(1, 'Enter a tier name.').max(40, 'A tier name has at most 40 characters.'),
  threshold: amount('a wager threshold'),
  rewardKind: z.enum(milestoneRewardKinds, { error: 'Choose points or cash.' }),
  rewardAmount: amount('a reward'),
});
export type MilestoneTierInput = z.input<typeof milestoneTierInput>;

export const milestoneLadderInput = z
  .object({
    enabled: z.boolean(),
    automatic: z.boolean(),
    cycle: z.enum(milestoneCycles, { error: 'Choose the leaderboard period or all-time.' }),
    tiers: z.array(milestoneTierInput).max(MILESTONE_TIERS_MAX, `A ladder has at most ${MILESTONE_TIERS_MAX} tiers.`),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.tiers.forEach((t, i) => {
      if (!isAmount(t.threshold)) return;
      const key = toCents(t.threshold).toString();
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['tiers', i, 'threshold'],
          message: 'Two tiers cannot have the same threshold.',
        });
      }
      seen.add(key);
    });
    if (b.enabled && b.tiers.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: 'Add at least one tier to turn the ladder on.' });
    }
  });

export const milestoneTier = z.object({
  name: z.string(),
  threshold: z.number(),
  rewardKind: z.enum(milestoneRewardKinds),
  rewardAmount: z.number(),
});
export type MilestoneTier = z.infer<typeof milestoneTier>;

/** The viewer's place on a ladder in the running cycle. */
export const milestoneProgress = z.object({
  linked: z.boolean(),
  wagered: z.number(),
  /** Index of the highest tier reached (-1: none). */
  reached: z.number(),
  /** Index of the highest tier paid this cycle (-1: none). */
  paid: z.number(),
  claimablePoints: z.number(),
  claimableCash: z.number(),
  /** Why a claim would be refused now, in words; null when it would pay. */
  refusal: z.string().nullable(),
});

export const publicLadder = z.object({
  site: z.number(),
  siteName: z.string(),
  unit: z.string(),
  cycle: z.enum(milestoneCycles),
  automatic: z.boolean(),
  cycleEndsAt: z.string().nullable(),
  tiers: z.array(milestoneTier),
  me: milestoneProgress.nullable(),
});
export type PublicLadder = z.infer<typeof publicLadder>;

export const adminLadder = z.object({
  site: z.number(),
  siteName: z.string(),
  enabled: z.boolean(),
  automatic: z.boolean(),
  cycle: z.enum(milestoneCycles),
  tiers: z.array(milestoneTier),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type AdminLadder = z.infer<typeof adminLadder>;

export const ladderStats = z.object({
  site: z.number(),
  cycleKey: z.string(),
  tiers: z.array(z.object({ name: z.string(), threshold: z.number(), reached: z.number(), claimed: z.number() })),
  cycles: z.array(
    z.object({
      cycleKey: z.string(),
      label: z.string(),
      paidPoints: z.number(),
      paidCash: z.number(),
      paidUsers: z.number(),
    }),
  ),
});
export type LadderStats = z.infer<typeof ladderStats>;

export const claimResult = z.object({
  points: z.number(),
  cash: z.number(),
  tier: z.string(),
  held: z.boolean(),
  message: z.string(),
});

/** A preset to start from: 10 tiers, points doubling with the wager (docs/features/milestone-rewards.md#the-preset). */
export const presetLadder: readonly MilestoneTier[] = [
  ['Bronze', 1_000, 100],
  ['Silver', 5_000, 400],
  ['Gold', 10_000, 500],
  ['Platinum', 25_000, 1_500],
  ['Emerald', 50_000, 2_500],
  ['Sapphire', 100_000, 5_000],
  ['Ruby', 250_000, 15_000],
  ['Diamond', 500_000, 25_000],
  ['Opal', 1_000_000, 50_000],
  ['Legend', 2_500_000, 150_000],
].map(([name, threshold, reward]) => ({
  name: name as string,
  threshold: threshold as number,
  rewardKind: 'points' as const,
  rewardAmount: reward as number,
}));

const siteParam = z.object({
  site: strictInt('Unknown site.', z.number()).refine(
    (n) => (siteIds as readonly number[]).includes(n),
    'Unknown site.',
  ),
});

export const milestoneEndpoints = {
  ladders: defineEndpoint({
    method: 'GET',
    path: '/api/milestones',
    access: 'visitor',
    response: z.object({ ladders: z.array(publicLadder) }),
  }),
  claim: defineEndpoint({
    method: 'POST',
    path: '/api/milestones/:site/claim',
    access: 'user',
    params: siteParam,
    response: claimResult,
  }),
  adminLadders: defineEndpoint({
    method: 'GET',
    path: '/api/admin/milestones',
    access: 'admin',
    response: z.object({ ladders: z.array(adminLadder), preset: z.array(milestoneTier) }),
  }),
  saveLadder: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/milestones/:site',
    access: 'admin',
    params: siteParam,
    body: milestoneLadderInput,
    response: adminLadder,
  }),
  stats: defineEndpoint({
    method: 'GET',
    path: '/api/admin/milestones/:site/stats',
    access: 'admin',
    params: siteParam,
    response: ladderStats,
  }),
};

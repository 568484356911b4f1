/**
 * Community wager goals (docs/features/community-goal.md): one goal per partner site, measured on
 * the site's running leaderboard period. The public state is what the board, the home page and the
 * OBS overlay `/overlay/goal` show; the admin edits a site's goal on Admin → Leaderboards.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { strictInt } from './strict-int';
import { liveStateFields } from '../hubs/live-state';

export const communityGoalView = z.object({
  site: z.number(),
  siteSlug: z.string(),
  siteName: z.string(),
  title: z.string(),
  /** In the partner's own currency (the board's), like the standings. */
  target: z.number(),
  progress: z.number(),
  reward: z.string(),
  /** When this period's progress first reached the target, else null. */
  reachedAt: z.string().nullable(),
  /** The end of the period the progress counts (null before the poller opened one). */
  periodEnd: z.string().nullable(),
});
export type CommunityGoalView = z.infer<typeof communityGoalView>;

/** Every active goal of a shown site; `version` grows with each change the server sends. */
export const communityGoalsState = z.object({ ...liveStateFields, goals: z.array(communityGoalView) });
export type CommunityGoalsState = z.infer<typeof communityGoalsState>;

export const goalMessages = {
  titleRequired: 'Give the goal a title.',
  titleTooLong: 'A title has at most 80 characters.',
  rewardTooLong: 'A reward has at most 200 characters.',
  targetPositive: 'The target must be more than 0.',
  targetTooLarge: 'The target is at most 1,000,000,000.',
  unknownSite: 'There is no such partner site.',
  reachedAnnouncement: (title: string, site: string, reward: string) =>
    `Community goal reached on ${site}: ${title}!${reward ? ` ${reward}` : ''}`,
} as const;

export const communityGoalBody = z.object({
  title: z.string().trim().min(1, goalMessages.titleRequired).max(80, goalMessages.titleTooLong),
  target: z
    .number({ error: 'Enter the target as a number.' })
    .gt(0, goalMessages.targetPositive)
    .max(1_000_000_000, goalMessages.targetTooLarge)
    .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, {
      message: 'The target has at most two decimals.',
    }),
  reward: z.string().trim().max(200, goalMessages.rewardTooLong),
  active: z.boolean(),
});
export type CommunityGoalBody = z.infer<typeof communityGoalBody>;

export const adminCommunityGoal = communityGoalView.extend({ active: z.boolean() });
export type AdminCommunityGoal = z.infer<typeof adminCommunityGoal>;

const siteParams = z.object({ site: strictInt('must be a whole number', z.number().int().min(1).max(100)) });

export const communityGoalEndpoints = {
  state: defineEndpoint({
    method: 'GET',
    path: '/api/community-goals',
    access: 'visitor',
    response: communityGoalsState,
  }),
};

export const adminCommunityGoalEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/admin/community-goals',
    access: 'admin',
    response: z.array(adminCommunityGoal),
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/community-goals/:site',
    access: 'admin',
    params: siteParams,
    body: communityGoalBody,
    response: z.array(adminCommunityGoal),
  }),
};

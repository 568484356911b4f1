/** `POST /api/SplitOrStealGame/create` and the admin cancel (docs/product.md#live-entities, docs/product.md#live-calls). */
import { z } from 'zod';
import { splitOrStealState } from '../hubs/split-or-steal';
import { defineEndpoint } from './endpoint';
import { DEFAULT_GAME_SECONDS, MAX_GAME_SECONDS, MIN_GAME_SECONDS, SplitOrStealStatus } from '../games/split-or-steal';
import { isAmount, toCents } from '../money';

const optionalUserId = z
  .union([z.uuid({ error: 'Pick the player from the list.' }), z.literal(''), z.null()], {
    error: 'Pick the player from the list.',
  })
  .optional()
  .transform((v) => v || null);

const rewardShape = 'Enter a reward in points, like 100.';

export const createSplitOrStealBody = z.object({
  player1UserId: optionalUserId,
  player2UserId: optionalUserId,
  reward: z
    .number({ error: rewardShape })
    .refine((v) => Number.isFinite(v), rewardShape)
    .refine((v) => !Number.isFinite(v) || isAmount(v), 'Enter a reward with at most 2 decimals, like 12.50.')
    .refine((v) => !isAmount(v) || toCents(v) > 0n, 'Enter a reward of at least 0.01.')
    .refine((v) => !isAmount(v) || toCents(v) <= 100_000_000n * 100n, 'Enter a reward of at most 100,000,000.'),
  counterInSeconds: z
    .number({ error: 'Enter the game time in seconds.' })
    .int('Enter the game time in whole seconds.')
    .min(MIN_GAME_SECONDS, `Enter a game time of at least ${MIN_GAME_SECONDS} seconds.`)
    .max(MAX_GAME_SECONDS, `Enter a game time of at most ${MAX_GAME_SECONDS} seconds.`)
    .default(DEFAULT_GAME_SECONDS),
  isPrivate: z.boolean({ error: 'Private Game is either on or off.' }).default(false),
});
export type CreateSplitOrStealBody = z.input<typeof createSplitOrStealBody>;

export const createSplitOrStealResponse = z.object({ gameId: z.string() });

export const cancelSplitOrStealBody = z.object({ gameId: z.uuid() });

/** `GET /api/SplitOrStealGame/recent` (admin): the latest games, to get back to one. */
export const splitOrStealSummary = z.object({
  gameId: z.string(),
  status: z.enum(SplitOrStealStatus),
  reward: z.number(),
  isPrivate: z.boolean(),
  /** Who sits (or is reserved) in each seat; null for an open seat. */
  player1: z.string().nullable(),
  player2: z.string().nullable(),
  createdAt: z.string(),
});
export type SplitOrStealSummary = z.infer<typeof splitOrStealSummary>;
export const recentSplitOrStealGames = z.array(splitOrStealSummary);

export const splitOrStealGameParams = z.object({ gameId: z.uuid() });

/** Admin: create, list and cancel games; players act through the hub. */
export const splitOrStealEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/SplitOrStealGame/create',
    access: 'moderator',
    body: createSplitOrStealBody,
    response: createSplitOrStealResponse,
  }),
  recent: defineEndpoint({
    method: 'GET',
    path: '/api/SplitOrStealGame/recent',
    access: 'moderator',
    response: recentSplitOrStealGames,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/SplitOrStealGame/:gameId/cancel',
    access: 'moderator',
    params: splitOrStealGameParams,
    response: splitOrStealState,
  }),
};

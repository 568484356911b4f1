/** `POST /api/SplitOrStealGame/create` and the admin cancel (spec part 2 §3, §7). */
import { z } from 'zod';
import { splitOrStealState } from '../hubs/split-or-steal';
import { defineEndpoint } from './endpoint';
import { DEFAULT_GAME_SECONDS, MAX_GAME_SECONDS, MIN_GAME_SECONDS, SplitOrStealStatus } from '../games/split-or-steal';
import { isAmount, toCents } from '../money';

const optionalUserId = z
  .union([z.uuid(), z.literal(''), z.null()])
  .optional()
  .transform((v) => v || null);

export const createSplitOrStealBody = z.object({
  player1UserId: optionalUserId,
  player2UserId: optionalUserId,
  reward: z
    .number({ error: 'must be a number' })
    .refine((v) => isAmount(v), 'must have at most 2 decimals')
    .refine((v) => isAmount(v) && toCents(v) > 0n, 'must be greater than 0')
    .refine((v) => isAmount(v) && toCents(v) <= 100_000_000n * 100n, 'must be at most 100000000'),
  counterInSeconds: z
    .number({ error: 'must be a number' })
    .int('must be a whole number of seconds')
    .min(MIN_GAME_SECONDS, `must be at least ${MIN_GAME_SECONDS} seconds`)
    .max(MAX_GAME_SECONDS, `must be at most ${MAX_GAME_SECONDS} seconds`)
    .default(DEFAULT_GAME_SECONDS),
  isPrivate: z.boolean().default(false),
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
    access: 'admin',
    body: createSplitOrStealBody,
    response: createSplitOrStealResponse,
  }),
  recent: defineEndpoint({
    method: 'GET',
    path: '/api/SplitOrStealGame/recent',
    access: 'admin',
    response: recentSplitOrStealGames,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/SplitOrStealGame/:gameId/cancel',
    access: 'admin',
    params: splitOrStealGameParams,
    response: splitOrStealState,
  }),
};

/** `POST /api/DealOrNoDeal/create`, the admin list and cancel (docs/product.md#live-entities, docs/product.md#live-calls). */
import { z } from 'zod';
import { dealOrNoDealState } from '../hubs/deal-or-no-deal';
import { defineEndpoint } from './endpoint';
import { BOX_COUNT, DealOrNoDealStatus } from '../games/deal-or-no-deal';
import { isAmount, toCents } from '../money';

/** The largest amount one box may hold, in dollars (our ceiling: the contract gives none). */
export const MAX_BOX_AMOUNT = 10_000;

const amountShape = 'Enter the amount in dollars, like 250 or 0.50.';
const amount = z
  .number({ error: amountShape })
  .refine((v) => Number.isFinite(v), amountShape)
  .refine((v) => !Number.isFinite(v) || isAmount(v), 'Use at most 2 decimals, like 12.50.')
  .refine((v) => !isAmount(v) || toCents(v) > 0n, 'Enter an amount greater than 0.')
  .refine(
    (v) => !isAmount(v) || toCents(v) <= toCents(MAX_BOX_AMOUNT),
    `Enter an amount of at most ${MAX_BOX_AMOUNT.toLocaleString('en-US')}.`,
  );

export const createDealOrNoDealBody = z.object({
  playerUserId: z.uuid({ error: 'Pick the player from the list.' }),
  isPrivate: z.boolean({ error: 'Private is either on or off.' }).default(false),
  /**
   * Sent by the contract's form although no field shows it: kept with the game's audit entry. The
   * prize is what the player wins, not this.
   */
  reward: z
    .number({ error: 'The reward is a number.' })
    .refine((v) => isAmount(v) && toCents(v) >= 0n, 'The reward is 0 or more, with at most 2 decimals.')
    .default(0),
  Amounts: z.array(amount).length(BOX_COUNT, `The board has exactly ${BOX_COUNT} amounts.`),
});
export type CreateDealOrNoDealBody = z.input<typeof createDealOrNoDealBody>;

export const createDealOrNoDealResponse = z.object({ gameId: z.string() });

/** `GET /api/DealOrNoDeal/recent` (admin): the latest games, to get back to one. */
export const dealOrNoDealSummary = z.object({
  gameId: z.string(),
  status: z.enum(DealOrNoDealStatus),
  player: z.string().nullable(),
  /** What the player won (null until the game is won). */
  prize: z.number().nullable(),
  isPrivate: z.boolean(),
  createdAt: z.string(),
});
export type DealOrNoDealSummary = z.infer<typeof dealOrNoDealSummary>;
export const recentDealOrNoDealGames = z.array(dealOrNoDealSummary);

/** `GET /api/DealOrNoDeal/{id}/verification` (public): what the verification page recomputes. */
export const boardVerification = z.object({
  gameId: z.string(),
  status: z.enum(DealOrNoDealStatus),
  commitment: z.string(),
  /** Null until the game ended. */
  seed: z.string().nullable(),
  board: z.array(z.number()).nullable(),
});
export type BoardVerification = z.infer<typeof boardVerification>;

export const dealOrNoDealGameParams = z.object({ gameId: z.uuid() });

/** Admin: create, list and cancel games; anyone: verify a finished board. The owner plays through the hub. */
export const dealOrNoDealEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/DealOrNoDeal/create',
    access: 'moderator',
    body: createDealOrNoDealBody,
    response: createDealOrNoDealResponse,
  }),
  recent: defineEndpoint({
    method: 'GET',
    path: '/api/DealOrNoDeal/recent',
    access: 'moderator',
    response: recentDealOrNoDealGames,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/DealOrNoDeal/:gameId/cancel',
    access: 'moderator',
    params: dealOrNoDealGameParams,
    response: dealOrNoDealState,
  }),
  verification: defineEndpoint({
    method: 'GET',
    path: '/api/DealOrNoDeal/:gameId/verification',
    access: 'visitor',
    params: dealOrNoDealGameParams,
    response: boardVerification,
  }),
};

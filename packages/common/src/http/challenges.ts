/**
 * Challenges (spec part 1 §3, §5, §7): the public list, the admin list, create and update.
 * Status is a number: 0 Active, 1 Completed, 2 Cancelled.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { isAmount, toCents } from '../money';

export const challengeStatuses = { active: 0, completed: 1, cancelled: 2 } as const;
export type ChallengeStatus = (typeof challengeStatuses)[keyof typeof challengeStatuses];

export const challengeStatusLabels: Record<number, string> = { 0: 'Active', 1: 'Completed', 2: 'Cancelled' };

/** The label of a status; anything else is "Unknown" (spec part 1 §3). */
export function challengeStatusLabel(status: number): string {
  return challengeStatusLabels[status] ?? 'Unknown';
}

/** Challenge sort (spec part 1 §9): 1 Newest (default), 2 Oldest, 3 Prize High to Low, 4 Prize Low to High. */
export const challengeSorts = [
  { value: 1, label: 'Newest' },
  { value: 2, label: 'Oldest' },
  { value: 3, label: 'Prize: High to Low' },
  { value: 4, label: 'Prize: Low to High' },
] as const;
export type ChallengeSort = (typeof challengeSorts)[number]['value'];

export const MAX_CHALLENGE_PRICE = 100_000_000;

export const challenge = z.object({
  id: z.number(),
  title: z.string(),
  price: z.number(),
  description: z.string(),
  category: z.string(),
  imageUrl: z.string(),
  status: z.number(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  winnerUserId: z.string().nullable(),
  winnerUserName: z.string().nullable(),
});
export type Challenge = z.infer<typeof challenge>;

export const userChallengesResponse = z.object({
  challenges: z.array(challenge),
  categories: z.array(z.string()),
});
export const allChallengesResponse = z.array(challenge);

const title = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(120, 'must be at most 120 characters');

/** Required and numeric: a number, or a string holding one (forms send either). */
const priceError = 'is required and must be a number';
const price = z
  .union(
    [
      z.number({ error: priceError }),
      z
        .string({ error: priceError })
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, priceError),
    ],
    { error: priceError },
  )
  .transform((v) => (typeof v === 'number' ? v : Number(v)))
  .refine((v) => Number.isFinite(v) && v >= 0, 'must be 0 or more')
  .refine((v) => isAmount(v), 'must have at most 2 decimals')
  .refine(
    (v) => isAmount(v) && toCents(v) <= BigInt(MAX_CHALLENGE_PRICE) * 100n,
    `must be at most ${MAX_CHALLENGE_PRICE}`,
  );

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => v ?? '');

/** An image: an http(s) URL or a path on this site; empty for the fallback image. */
const imageUrl = optionalText(500).refine(
  (v) => v === '' || /^https?:\/\/\S+$/i.test(v) || /^\/[^\s/][^\s]*$/.test(v),
  'must be an http(s) URL or a path starting with /',
);

export const createChallengeBody = z.object({
  title,
  price,
  description: optionalText(2000),
  category: optionalText(60),
  imageUrl,
});
export type CreateChallengeBody = z.input<typeof createChallengeBody>;

const optionalWinner = z
  .union([z.uuid({ error: 'must be a user id' }), z.literal(''), z.null()])
  .optional()
  .transform((v) => v || null);

export const updateChallengeBody = createChallengeBody.extend({
  id: z.number({ error: 'is required and must be a number' }).int('must be a whole number').positive(),
  status: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .refine((v) => v in challengeStatusLabels, 'must be 0 (Active), 1 (Completed) or 2 (Cancelled)'),
  /** Empty keeps the existing winner (spec part 1 §5). */
  winnerUserId: optionalWinner,
});
export type UpdateChallengeBody = z.input<typeof updateChallengeBody>;

export const challengeEndpoints = {
  /** The public page's list (the configured category only). */
  publicList: defineEndpoint({
    method: 'GET',
    path: '/api/Challenge/getuserchallenges',
    access: 'visitor',
    response: userChallengesResponse,
  }),
  all: defineEndpoint({
    method: 'GET',
    path: '/api/Challenge/getall',
    access: 'admin',
    response: allChallengesResponse,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/Challenge/create',
    access: 'admin',
    body: createChallengeBody,
    response: challenge,
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/api/Challenge/update',
    access: 'admin',
    body: updateChallengeBody,
    response: challenge,
  }),
};

/**
 * Challenges (docs/product.md#site-entities, docs/product.md#site-validation,
 * docs/product.md#site-calls): the public list, the admin list, create and update. Status is a
 * number: 0 Active, 1 Completed, 2 Cancelled.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { isAmount, toCents } from '../money';

export const challengeStatuses = { active: 0, completed: 1, cancelled: 2 } as const;
export type ChallengeStatus = (typeof challengeStatuses)[keyof typeof challengeStatuses];

export const challengeStatusLabels: Record<number, string> = { 0: 'Active', 1: 'Completed', 2: 'Cancelled' };

/** The label of a status; anything else is "Unknown" (docs/product.md#site-entities). */
export function challengeStatusLabel(status: number): string {
  return challengeStatusLabels[status] ?? 'Unknown';
}

/** Challenge sort (docs/product.md#site-constants-and-limits): 1 Newest (default), 2 Oldest, 3 Prize High to Low, 4 Prize Low to High. */
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

/** The longest each text field may be; the form's inputs carry the same limits. */
export const challengeLimits = { title: 120, description: 2000, category: 60, imageUrl: 500 } as const;

const title = z
  .string({ error: 'Enter a title.' })
  .trim()
  .min(1, 'Enter a title.')
  .max(challengeLimits.title, `Keep the title to ${challengeLimits.title} characters or fewer.`);

/** Required and numeric: a number, or a string holding one (forms send either). */
const priceMissing = 'Enter a price.';
const priceNotNumber = 'Enter the price as a number, like 250 or 12.50.';
const price = z
  .union([z.number(), z.string(), z.null(), z.undefined()], { error: priceNotNumber })
  .transform((v, ctx) => {
    const text = typeof v === 'string' ? v.trim() : v;
    if (text === null || text === undefined || text === '') {
      ctx.addIssue({ code: 'custom', message: priceMissing });
      return z.NEVER;
    }
    if (typeof text === 'string' && !/^-?\d+(\.\d+)?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: priceNotNumber });
      return z.NEVER;
    }
    return typeof text === 'number' ? text : Number(text);
  })
  .refine((v) => Number.isFinite(v) && v >= 0, 'Enter a price of 0 or more.')
  .refine((v) => isAmount(v), 'Enter a price with at most 2 decimals, like 12.50.')
  .refine(
    (v) => !isAmount(v) || toCents(v) <= BigInt(MAX_CHALLENGE_PRICE) * 100n,
    `Enter a price of at most ${MAX_CHALLENGE_PRICE.toLocaleString('en-US')}.`,
  );

const optionalText = (max: number, name: string) =>
  z
    .string({ error: `The ${name} must be text.` })
    .trim()
    .max(max, `Keep the ${name} to ${max} characters or fewer.`)
    .nullish()
    .transform((v) => v ?? '');

/** An image: an http(s) URL or a path on this site; empty for the fallback image. */
const imageUrl = optionalText(challengeLimits.imageUrl, 'image URL').refine(
  (v) => v === '' || /^https?:\/\/\S+$/i.test(v) || /^\/[^\s/][^\s]*$/.test(v),
  'Enter an image address starting with http(s):// or a path on this site starting with /.',
);

export const createChallengeBody = z.object({
  title,
  price,
  description: optionalText(challengeLimits.description, 'description'),
  category: optionalText(challengeLimits.category, 'category'),
  imageUrl,
});
export type CreateChallengeBody = z.input<typeof createChallengeBody>;

const optionalWinner = z
  .union([z.uuid({ error: 'Pick the winner from the list.' }), z.literal(''), z.null()], {
    error: 'Pick the winner from the list.',
  })
  .optional()
  .transform((v) => v || null);

export const updateChallengeBody = createChallengeBody.extend({
  id: z.number({ error: 'The challenge id is missing.' }).int('The challenge id is a whole number.').positive(),
  status: z
    .number({ error: 'Pick a status.' })
    .int('Pick a status.')
    .refine((v) => v in challengeStatusLabels, 'Pick Active, Completed or Cancelled.'),
  /** Empty keeps the existing winner (docs/product.md#site-validation). */
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

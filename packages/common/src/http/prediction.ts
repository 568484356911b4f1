/** The admin REST calls of chat predictions (not in the spec; DESIGN §10): open, act, list. */
import { z } from 'zod';
import { predictionState } from '../hubs/prediction';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';
import { MAX_ANSWERS, MIN_ANSWERS } from '../games/prediction';
import { isAmount, toCents } from '../money';

const points = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .refine((v) => isAmount(v), `${label} must have at most 2 decimals`)
    .refine((v) => isAmount(v) && toCents(v) > 0n, `${label} must be greater than 0`)
    .refine((v) => isAmount(v) && toCents(v) <= 100_000_000n * 100n, `${label} must be at most 100000000`);

export const predictionAnswerInput = z.object({
  text: z.string().trim().min(1, 'an answer needs text').max(60, 'an answer is at most 60 characters'),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb'),
});

export const openPredictionBody = z
  .object({
    question: z.string().trim().min(1, 'the question is required').max(200, 'the question is at most 200 characters'),
    answers: z
      .array(predictionAnswerInput)
      .min(MIN_ANSWERS, `at least ${MIN_ANSWERS} answers`)
      .max(MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`),
    /** Bets close by themselves at this time (ISO), if given; it must be in the future. */
    autoLockAt: z.iso.datetime({ offset: true, error: 'autoLockAt must be an ISO date-time' }).nullable().optional(),
    minBet: points('minBet').nullable().optional(),
    maxBet: points('maxBet').nullable().optional(),
  })
  .refine((b) => b.minBet == null || b.maxBet == null || b.minBet <= b.maxBet, {
    message: 'minBet must not be above maxBet',
    path: ['minBet'],
  });
export type OpenPredictionBody = z.input<typeof openPredictionBody>;

export const resolvePredictionBody = z.object({ answerId: z.number().int().min(1) });

export const predictionIdParams = z.object({ predictionId: z.uuid() });

export const predictionSummary = z.object({
  id: z.string(),
  question: z.string(),
  state: z.literal([0, 1, 2, 3, 4]),
  /** 1, 2, 3 or 4 even when hidden, so the list says how it ended. */
  status: z.literal([1, 2, 3, 4]),
  hidden: z.boolean(),
  answers: z.array(
    z.object({ id: z.number(), text: z.string(), color: z.string(), participantCount: z.number(), points: z.number() }),
  ),
  resultAnswerId: z.number().nullable(),
  pool: z.number(),
  paid: z.number().nullable(),
  remainder: z.number().nullable(),
  autoLockAt: z.string().nullable(),
  minBet: z.number().nullable(),
  maxBet: z.number().nullable(),
  createdAt: z.string(),
});
export type PredictionSummary = z.infer<typeof predictionSummary>;
export const predictionList = z.array(predictionSummary);

/**
 * `GET /api/me/predictions` (My activity): each prediction the user bet on and what came of it —
 * the stake, and once settled the result: won (payout), lost (the stake went to the winners),
 * refunded (nobody won) or cancelled (refunded).
 */
export const myPredictionBet = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  stake: z.number(),
  result: z.enum(['open', 'won', 'lost', 'refunded', 'cancelled']),
  /** Points paid back (stake + winnings, or the refund); 0 when lost; null while open. */
  payout: z.number().nullable(),
  betAt: z.string(),
  settledAt: z.string().nullable(),
});
export type MyPredictionBet = z.infer<typeof myPredictionBet>;

export const myPredictionsPage = pageOf(myPredictionBet);
export type MyPredictionsPage = z.infer<typeof myPredictionsPage>;

const transition = <const A extends 'lock' | 'cancel' | 'hide'>(action: A) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/predictions/:predictionId/${action}`,
    access: 'admin',
    params: predictionIdParams,
    response: predictionState,
  });

/** Admin: list, open, lock, cancel, hide and resolve predictions; viewers bet in chat. */
export const predictionEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/predictions', access: 'admin', response: predictionList }),
  open: defineEndpoint({
    method: 'POST',
    path: '/api/predictions',
    access: 'admin',
    body: openPredictionBody,
    response: predictionSummary,
  }),
  /** My activity: the predictions the signed-in user bet on, with each result. */
  myBets: defineEndpoint({
    method: 'GET',
    path: '/api/me/predictions',
    access: 'user',
    query: z.object({ page: pageNumber }),
    response: myPredictionsPage,
  }),
  lock: transition('lock'),
  cancel: transition('cancel'),
  hide: transition('hide'),
  resolve: defineEndpoint({
    method: 'POST',
    path: '/api/predictions/:predictionId/resolve',
    access: 'admin',
    params: predictionIdParams,
    body: resolvePredictionBody,
    response: predictionState,
  }),
};

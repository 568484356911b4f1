/** The admin REST calls of chat predictions (not in the contract; docs/features/predictions.md#rules): open, act, list. */
import { z } from 'zod';
import { predictionState } from '../hubs/prediction';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';
import { MAX_ANSWERS, MIN_ANSWERS } from '../games/prediction';
import { isAmount, toCents } from '../money';

/** A bet limit in points: above 0, at most 2 decimals, at most 100,000,000. */
const points = (label: string) =>
  z
    .number({ error: `Enter the ${label} in points, like 100.` })
    .refine((v) => Number.isFinite(v), `Enter the ${label} in points, like 100.`)
    .refine((v) => !Number.isFinite(v) || isAmount(v), `Use at most 2 decimals in the ${label}.`)
    .refine((v) => !isAmount(v) || toCents(v) > 0n, `Enter a ${label} of at least 0.01.`)
    .refine((v) => !isAmount(v) || toCents(v) <= 100_000_000n * 100n, `Enter a ${label} of at most 100,000,000.`);

export const predictionLimits = { question: 200, answer: 60 } as const;

export const predictionAnswerInput = z.object({
  text: z
    .string({ error: 'Enter the answer.' })
    .trim()
    .min(1, 'Enter the answer.')
    .max(predictionLimits.answer, `Keep each answer to ${predictionLimits.answer} characters or fewer.`),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Pick a colour (#rrggbb).'),
});

const question = z
  .string({ error: 'Enter a question.' })
  .trim()
  .min(1, 'Enter a question.')
  .max(predictionLimits.question, `Keep the question to ${predictionLimits.question} characters or fewer.`);

const answers = z
  .array(predictionAnswerInput)
  .min(MIN_ANSWERS, `Give at least ${MIN_ANSWERS} answers.`)
  .max(MAX_ANSWERS, `Give at most ${MAX_ANSWERS} answers.`);

const betsInOrder = {
  check: (b: { minBet?: number | null; maxBet?: number | null }) =>
    b.minBet == null || b.maxBet == null || b.minBet <= b.maxBet,
  message: 'The minimum bet cannot be above the maximum stake.',
};

export const openPredictionBody = z
  .object({
    question,
    answers,
    /** Bets close by themselves at this time (ISO), if given; it must be in the future. */
    autoLockAt: z.iso.datetime({ offset: true, error: 'autoLockAt must be an ISO date-time' }).nullable().optional(),
    minBet: points('minimum bet').nullable().optional(),
    maxBet: points('maximum stake').nullable().optional(),
  })
  .refine(betsInOrder.check, { message: betsInOrder.message, path: ['minBet'] });

/** An optional number field of a form: '' is none (null), anything else must be a number. */
const optionalNumber = <S extends z.ZodType<number, number>>(schema: S) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : Number(v)))
    .pipe(schema.nullable());

/**
 * The admin's Open a prediction form: the body's rules, with the auto-lock typed as minutes from
 * now (empty: lock by hand) and the bet limits as typed (empty: no limit).
 */
export const openPredictionForm = z
  .object({
    question,
    answers,
    lockInMinutes: optionalNumber(
      z
        .number()
        .refine((v) => Number.isFinite(v), 'Enter the minutes as a number, like 5.')
        .refine((v) => !Number.isFinite(v) || v > 0, 'Enter a number of minutes above 0, or leave it empty.'),
    ),
    minBet: optionalNumber(points('minimum bet')),
    maxBet: optionalNumber(points('maximum stake')),
  })
  .refine(betsInOrder.check, { message: betsInOrder.message, path: ['minBet'] });
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
    access: 'moderator',
    params: predictionIdParams,
    response: predictionState,
  });

/** Admin: list, open, lock, cancel, hide and resolve predictions; viewers bet in chat. */
export const predictionEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/predictions', access: 'moderator', response: predictionList }),
  open: defineEndpoint({
    method: 'POST',
    path: '/api/predictions',
    access: 'moderator',
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
    access: 'moderator',
    params: predictionIdParams,
    body: resolvePredictionBody,
    response: predictionState,
  }),
};

/** Staff and their own predictions: the refusals, in words (docs/features/predictions.md#staff-and-their-own-predictions). */
export const predictionStaffMessages = {
  bettorCannotManage: (action: 'lock' | 'resolve') =>
    `You bet on this prediction, so you cannot ${action} it: another staff member must.`,
  /** The chat reply to a `!bet` from whoever runs the prediction (after the @name). */
  runnerCannotBet: 'you run this prediction, so you cannot bet on it.',
} as const;

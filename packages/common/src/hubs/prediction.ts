/**
 * The prediction hub, `/KickPrediction` (docs/product.md#live-calls): public, read-only. `GetState` answers
 * the current prediction state (docs/product.md#prediction-state) and `ReceiveState` pushes every change. Admin actions are
 * REST calls (http/prediction.ts), authorised on the server.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';
import { liveStateFields } from './live-state';

export const predictionAnswerView = z.object({
  id: z.number(),
  text: z.string(),
  color: z.string(),
  participantCount: z.number(),
  /** Points staked on this answer (2 decimals). */
  points: z.number(),
});

export const predictionResultEntry = z.object({
  username: z.string(),
  /** Winners: what they won beyond their stake; losers: the stake they lost (both positive). */
  points: z.number(),
});

export const predictionState = z.object({
  ...liveStateFields,
  /** 0 hidden, 1 active, 2 result, 3 bets closed, 4 cancelled (docs/product.md#prediction-states). */
  state: z.literal([0, 1, 2, 3, 4]),
  /** The question. */
  content: z.string(),
  answers: z.array(predictionAnswerView),
  resultAnswerId: z.number().nullable(),
  resultAnswer: z.string().nullable(),
  startTime: z.string().nullable(),
  winnersResult: z.array(predictionResultEntry),
  losersResult: z.array(predictionResultEntry),
  minBet: z.number().nullable(),
  maxBet: z.number().nullable(),
});
export type PredictionState = z.infer<typeof predictionState>;

export const predictionHub = defineHub({
  namespace: '/KickPrediction',
  query: z.object({}),
  calls: {
    GetState: call(noPayload, predictionState, 'visitor'),
  },
  events: {
    ReceiveState: predictionState,
  },
});
export type PredictionHub = typeof predictionHub;

/**
 * The bonus hunt's REST calls (docs/features/bonus-hunt.md). Reads are public; every change is for hunt runners:
 * HUNT_RUNNER_ACCESS is the one place that says who they are (moderators and admins).
 */
import { z } from 'zod';
import { HUNT_RUNNER_ACCESS, huntView } from '../hubs/hunt';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';

export const HUNT_MAX_AMOUNT = 100_000_000;
export const HUNT_MAX_BONUSES = 500;

const amount = (label: string, opts: { positive?: boolean } = {}) =>
  z
    .number({ error: `Enter ${label.toLowerCase()} as a number.` })
    .refine((v) => isAmount(v), `${label} has at most 2 decimals.`)
    .refine((v) => !isAmount(v) || (opts.positive ? toCents(v) > 0n : toCents(v) >= 0n), {
      message: opts.positive ? `${label} must be above 0.` : `${label} cannot be negative.`,
    })
    .refine((v) => !isAmount(v) || toCents(v) <= BigInt(HUNT_MAX_AMOUNT) * 100n, `${label} is at most 100,000,000.`);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is at most ${max} characters.`)
    .regex(/^[^\p{Cc}]+$/u, `${label} cannot contain control characters.`);

export const startHuntBody = z.object({
  name: text('The name', 80),
  startCost: amount('The start cost'),
  guessPrize: amount('The guess prize'),
});
export type StartHuntBody = z.input<typeof startHuntBody>;

export const addBonusBody = z.object({
  slot: text('The slot', 80),
  provider: z
    .string()
    .trim()
    .max(60, 'The provider is at most 60 characters.')
    .regex(/^[^\p{Cc}]*$/u, 'The provider cannot contain control characters.')
    .default(''),
  bet: amount('The bet', { positive: true }),
  cost: amount('The cost').default(0),
});
export type AddBonusBody = z.input<typeof addBonusBody>;

export const openBonusBody = z.object({ payout: amount('The payout') });

export const huntIdParams = z.object({ huntId: z.uuid('Unknown hunt.') });
export const bonusParams = z.object({
  huntId: z.uuid('Unknown hunt.'),
  bonusId: z.string().regex(/^\d{1,18}$/, 'Unknown bonus.'),
});

export const huntList = z.object({
  /** The running hunt, if any. */
  current: huntView.nullable(),
  /** Finished hunts, newest first, each with its full list. */
  past: z.array(huntView),
});
export type HuntList = z.infer<typeof huntList>;

export const huntTexts = {
  alreadyRunning: 'A hunt is already running: finish it first.',
  notRunning: 'This hunt is finished.',
  notFound: 'Unknown hunt.',
  bonusNotFound: 'Unknown bonus.',
  alreadyOpened: 'That bonus is already opened.',
  tooManyBonuses: `A hunt has at most ${HUNT_MAX_BONUSES} bonuses.`,
  guessingNotOpen: 'Guessing is already closed.',
  nothingToFinish: 'Add and open at least one bonus first.',
  unopenedLeft: 'Open every bonus before finishing the hunt.',
} as const;

export const huntEndpoints = {
  /** Public: the running hunt and the finished ones (for /hunt). */
  list: defineEndpoint({ method: 'GET', path: '/api/hunts', access: 'visitor', response: huntList }),
  start: defineEndpoint({
    method: 'POST',
    path: '/api/admin/hunts',
    access: HUNT_RUNNER_ACCESS,
    body: startHuntBody,
    response: huntView,
  }),
  addBonus: defineEndpoint({
    method: 'POST',
    path: '/api/admin/hunts/:huntId/bonuses',
    access: HUNT_RUNNER_ACCESS,
    params: huntIdParams,
    body: addBonusBody,
    response: huntView,
  }),
  openBonus: defineEndpoint({
    method: 'POST',
    path: '/api/admin/hunts/:huntId/bonuses/:bonusId/open',
    access: HUNT_RUNNER_ACCESS,
    params: bonusParams,
    body: openBonusBody,
    response: huntView,
  }),
  closeGuessing: defineEndpoint({
    method: 'POST',
    path: '/api/admin/hunts/:huntId/close-guessing',
    access: HUNT_RUNNER_ACCESS,
    params: huntIdParams,
    response: huntView,
  }),
  finish: defineEndpoint({
    method: 'POST',
    path: '/api/admin/hunts/:huntId/finish',
    access: HUNT_RUNNER_ACCESS,
    params: huntIdParams,
    response: huntView,
  }),
};

/**
 * Bonus-buy battles (docs/features/bonus-buy-battles.md): the public list, entering and picking a
 * slot, the draw's public record for the verify page, and Admin → Battles (create, close, draw,
 * results, replay, void, cancel).
 */
import { z } from 'zod';
import { strictInt } from './strict-int';
import { bracketSizes, MAX_RESULT_AMOUNT, MAX_SLOT_LENGTH } from '../games/battle';
import { battleState } from '../hubs/battle';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';
import { rollRecord } from './giveaway';

export const MAX_BATTLE_PRIZE_POINTS = 100_000_000;
/** Registration windows from one minute to two weeks. */
export const MIN_REGISTRATION_MINUTES = 1;
export const MAX_REGISTRATION_MINUTES = 14 * 24 * 60;

const noControl = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(max, `${what} must be at most ${max} characters.`)
    .regex(noControl, `${what} must not contain control characters.`);

export const slotName = text('Slot', MAX_SLOT_LENGTH);

const amount = (what: string, opts: { min: 'positive' | 'zero'; max: number }) =>
  z
    .union([z.number(), z.string().trim()], { error: `${what} must be a number.` })
    .refine((v) => v !== '' && isAmount(v), `${what} must be a number with at most 2 decimals.`)
    .refine(
      (v) => !isAmount(v) || (opts.min === 'positive' ? toCents(v) > 0n : toCents(v) >= 0n),
      opts.min === 'positive' ? `${what} must be greater than 0.` : `${what} must be 0 or more.`,
    )
    .refine((v) => !isAmount(v) || toCents(v) <= BigInt(opts.max) * 100n, `${what} must be at most ${opts.max}.`)
    .transform((v) => String(v));

export const battlePrizeInput = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('points'),
      points: amount('Prize points', { min: 'positive', max: MAX_BATTLE_PRIZE_POINTS }),
    }),
    z.object({ kind: z.literal('item'), item: text('Prize item', 200) }),
  ],
  { error: 'Prize kind must be points or item.' },
);

export const battleInput = z
  .object({
    title: text('Title', 100),
    size: strictInt(
      'Bracket size must be 4, 8, 16 or 32.',
      z.number().refine((v) => (bracketSizes as readonly number[]).includes(v), 'Bracket size must be 4, 8, 16 or 32.'),
    ),
    /** Leaderboard site id whose verified partner link is required; null for none. */
    siteId: z.number().int().min(1).max(7).nullable().default(null),
    minWager: amount('Minimum wager', { min: 'zero', max: 1_000_000_000 }).nullable().default(null),
    subsOnly: z.boolean().default(false),
    registrationMinutes: strictInt(
      'Registration window must be a whole number of minutes.',
      z
        .number()
        .min(MIN_REGISTRATION_MINUTES, `Registration window must be at least ${MIN_REGISTRATION_MINUTES} minute.`)
        .max(MAX_REGISTRATION_MINUTES, `Registration window must be at most ${MAX_REGISTRATION_MINUTES} minutes.`),
    ),
    prize: battlePrizeInput,
  })
  .refine((b) => b.minWager === null || b.siteId !== null, {
    message: 'Choose the partner site the minimum wager is counted on.',
    path: ['siteId'],
  });
export type BattleInput = z.input<typeof battleInput>;

export const buyResultInput = z.object({
  cost: amount('Cost', { min: 'positive', max: MAX_RESULT_AMOUNT }),
  win: amount('Win', { min: 'zero', max: MAX_RESULT_AMOUNT }),
});
export const matchResultBody = z.object({ a: buyResultInput, b: buyResultInput });
export type MatchResultBody = z.input<typeof matchResultBody>;

export const reasonBody = z.object({ reason: text('Reason', 300) });
export const slotBody = z.object({ slot: slotName });
export const adminSlotBody = z.object({ userId: z.uuid({ error: 'must be a user id' }), slot: slotName });

export const battleSummary = z.object({
  id: z.string(),
  title: z.string(),
  size: z.number(),
  status: battleState.shape.status,
  entrants: z.number(),
  winner: z.string().nullable(),
  registrationEndsAt: z.string().nullable(),
  createdAt: z.string(),
});
export type BattleSummary = z.infer<typeof battleSummary>;

export const battleMessages = {
  notFound: 'No such battle.',
  entered: 'You are in the battle.',
  notEligible: (why: string) => `You cannot enter this battle: ${why}.`,
  created: 'Battle created: registration is open.',
  closed: 'Registration closed: the bracket is being drawn.',
  drawn: 'The bracket is drawn.',
  recorded: 'Result recorded.',
  replayed: 'The match will be played again.',
  voided: 'The match is void.',
  cancelled: 'Battle cancelled.',
  slotSaved: 'Slot saved.',
} as const;

const idParams = z.object({ id: z.uuid({ error: 'must be a battle id' }) });
const matchParams = idParams.extend({
  no: strictInt('must be a match number', z.number().min(0).max(30)),
});

export const battleEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/battles', access: 'visitor', response: z.array(battleSummary) }),
  /** The battle the overlay shows: the one running, else the latest. */
  current: defineEndpoint({
    method: 'GET',
    path: '/api/battles/current',
    access: 'visitor',
    response: z.object({ id: z.string().nullable() }),
  }),
  enter: defineEndpoint({
    method: 'POST',
    path: '/api/battles/:id/enter',
    access: 'user',
    params: idParams,
    response: battleState,
  }),
  slot: defineEndpoint({
    method: 'PUT',
    path: '/api/battles/:id/slot',
    access: 'user',
    params: idParams,
    body: slotBody,
    response: battleState,
  }),
  draw: defineEndpoint({
    method: 'GET',
    path: '/api/battles/:id/draw',
    access: 'visitor',
    params: idParams,
    response: rollRecord,
  }),
};

const adminAction = <const A extends string>(action: A) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/admin/battles/:id/${action}`,
    access: 'admin',
    params: idParams,
    response: battleState,
  });

const matchAction = <const A extends string, B extends z.ZodType>(action: A, body: B) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/admin/battles/:id/matches/:no/${action}`,
    access: 'admin',
    params: matchParams,
    body,
    response: battleState,
  });

export const adminBattleEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/admin/battles',
    access: 'admin',
    response: z.array(battleSummary),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/admin/battles',
    access: 'admin',
    body: battleInput,
    response: z.object({ id: z.string() }),
  }),
  close: adminAction('close'),
  draw: adminAction('draw'),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/admin/battles/:id/cancel',
    access: 'admin',
    params: idParams,
    body: reasonBody,
    response: battleState,
  }),
  slot: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/battles/:id/slot',
    access: 'admin',
    params: idParams,
    body: adminSlotBody,
    response: battleState,
  }),
  result: matchAction('result', matchResultBody),
  replay: matchAction('replay', reasonBody),
  void: matchAction('void', reasonBody),
};

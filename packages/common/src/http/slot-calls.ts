/**
 * Slot calls (docs/features/slot-calls.md): the public queue, the pick records for the verify page,
 * and the calls that run the queue (moderators and admins) or set its rules (admins). The chat
 * commands (`!sr`, `!call`, `!calls open|close`) are answered in the words of `slotCallTexts`.
 */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { slotCallsState } from '../hubs/slot-calls';
import { defineEndpoint } from './endpoint';
import { rollRecord } from './giveaway';

export const SLOT_NAME_MAX = 60;
export const MAX_CALL_POINTS = 1_000_000;
export const MAX_BLACKLIST = 200;

export const slotCallStatuses = ['queued', 'playing', 'played', 'hunted', 'skipped', 'removed', 'cleared'] as const;
export type SlotCallStatus = (typeof slotCallStatuses)[number];
/** Statuses that leave the queue without the call being played: its cost is refunded. */
export const unplayedStatuses = ['skipped', 'removed', 'cleared'] as const satisfies readonly SlotCallStatus[];

/**
 * Why a slot name is refused before anything else is looked at (empty, too long, control
 * characters), or null. One rule for chat and for the forms.
 */
export function slotNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'the slot name is empty';
  if (trimmed.length > SLOT_NAME_MAX) return `a slot name is at most ${SLOT_NAME_MAX} characters`;
  if (/\p{Cc}/u.test(trimmed)) return 'a slot name cannot contain control characters';
  return null;
}

const slotText = (label: string, max = SLOT_NAME_MAX) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is at most ${max} characters.`)
    .regex(/^[^\p{Cc}]+$/u, `${label} cannot contain control characters.`);

const points = (label: string, opts: { positive?: boolean; max?: number } = {}) =>
  z
    .number({ error: `Enter ${label.toLowerCase()} as a number.` })
    .refine((v) => isAmount(v), `${label} has at most 2 decimals.`)
    .refine((v) => !isAmount(v) || (opts.positive ? toCents(v) > 0n : toCents(v) >= 0n), {
      message: opts.positive ? `${label} must be above 0.` : `${label} cannot be negative.`,
    })
    .refine(
      (v) => !isAmount(v) || toCents(v) <= BigInt(opts.max ?? MAX_CALL_POINTS) * 100n,
      `${label} is at most ${(opts.max ?? MAX_CALL_POINTS).toLocaleString('en-US')}.`,
    );

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `Enter ${label.toLowerCase()} as a whole number.` })
    .int(`${label} must be a whole number.`)
    .min(min, `${label} must be at least ${min}.`)
    .max(max, `${label} is at most ${max}.`);

export const unknownSlotPolicies = ['accept', 'refuse'] as const;

/** The rules an admin sets (Admin → Slot calls → Rules). */
export const slotCallRulesBody = z.object({
  maxPerViewer: whole('Open calls per viewer', 1, 100),
  cooldownSeconds: whole('The cooldown', 0, 86_400),
  cost: points('The call cost'),
  linkedOnly: z.boolean({ error: 'Linked-only must be on or off.' }),
  subsOnly: z.boolean({ error: 'Subs-only must be on or off.' }),
  maxQueue: whole('The queue length', 1, 1000),
  unknownSlots: z.enum(unknownSlotPolicies, { error: 'Unknown slots are accepted or refused.' }),
  blacklist: z.array(slotText('A blacklisted name')).max(MAX_BLACKLIST, `At most ${MAX_BLACKLIST} blacklisted names.`),
  payoutMultiplier: points('The payout multiplier', { positive: true, max: 1_000_000 }),
  payoutPoints: points('The payout'),
});
export type SlotCallRulesBody = z.input<typeof slotCallRulesBody>;

export const addToHuntBody = z.object({
  bet: points('The bet', { positive: true, max: 100_000_000 }),
  cost: points('The cost', { max: 100_000_000 }).default(0),
});
export type AddToHuntBody = z.input<typeof addToHuntBody>;

export const resolveCallBody = z.object({
  outcome: z.enum(['played', 'skipped', 'removed'], { error: 'Choose played, skipped or removed.' }),
});

export const catalogueSlotBody = z.object({
  name: slotText('The slot'),
  provider: slotText('The provider', 60),
});
export type CatalogueSlotBody = z.input<typeof catalogueSlotBody>;

export const catalogueSlot = z.object({ name: z.string(), provider: z.string(), addedAt: z.string().nullable() });
export const catalogueList = z.object({
  /** What the admin added, newest first (the shipped catalogue is in packages/common). */
  added: z.array(catalogueSlot),
  shipped: z.number(),
});

export const callIdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Unknown call.') });
export const pickIdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Unknown pick.') });

export const slotCallTexts = {
  notFound: 'No such call.',
  pickNotFound: 'No such pick.',
  notInQueue: 'That call is no longer in the queue.',
  emptyQueue: 'The queue is empty: there is nothing to pick.',
  noHunt: 'No bonus hunt is running: start one on Run Bonus Hunt first.',
  alreadyOpen: 'Calls are already open.',
  alreadyClosed: 'Calls are already closed.',
  catalogueTaken: 'That slot is already in the catalogue.',
} as const;

const withState = z.object({ state: slotCallsState, message: z.string() });

export const slotCallEndpoints = {
  state: defineEndpoint({ method: 'GET', path: '/api/slot-calls', access: 'visitor', response: slotCallsState }),
  pick: defineEndpoint({
    method: 'GET',
    path: '/api/slot-calls/picks/:id',
    access: 'visitor',
    params: pickIdParams,
    response: rollRecord,
  }),
};

export const adminSlotCallEndpoints = {
  rules: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/slot-calls/rules',
    access: 'admin',
    body: slotCallRulesBody,
    response: withState,
  }),
  open: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/open',
    access: 'moderator',
    response: withState,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/close',
    access: 'moderator',
    response: withState,
  }),
  clear: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/clear',
    access: 'moderator',
    response: withState,
  }),
  pick: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/pick',
    access: 'moderator',
    response: withState,
  }),
  resolve: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/:id/resolve',
    access: 'moderator',
    params: callIdParams,
    body: resolveCallBody,
    response: withState,
  }),
  addToHunt: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/:id/hunt',
    access: 'moderator',
    params: callIdParams,
    body: addToHuntBody,
    response: withState,
  }),
  catalogue: defineEndpoint({
    method: 'GET',
    path: '/api/admin/slot-calls/catalogue',
    access: 'moderator',
    response: catalogueList,
  }),
  addToCatalogue: defineEndpoint({
    method: 'POST',
    path: '/api/admin/slot-calls/catalogue',
    access: 'admin',
    body: catalogueSlotBody,
    response: catalogueList,
  }),
};

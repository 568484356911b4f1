/**
 * The slot calls hub `/SlotCalls` (docs/features/slot-calls.md): public and read-only. `/calls`,
 * the OBS overlay `/overlay/calls` and the admin page follow `ReceiveState`, sent after every
 * committed change and versioned like the live games' states.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';
import { liveStateFields } from './live-state';

export const slotCallView = z.object({
  id: z.string(),
  /** The catalogue's name, or the name as typed for an unknown slot. */
  slot: z.string(),
  provider: z.string().nullable(),
  /** Not in the catalogue: accepted as typed. */
  flagged: z.boolean(),
  /** What the caller typed, when it differs from `slot`. */
  typed: z.string().nullable(),
  caller: z.string(),
  status: z.enum(['queued', 'playing', 'played', 'hunted', 'skipped', 'removed', 'cleared']),
  cost: z.number(),
  refunded: z.boolean(),
  /** Points paid to the caller when the slot, added to the hunt, paid at least the multiplier set. */
  payout: z.number().nullable(),
  /** The hunt bonus's multiplier once it is opened. */
  multiplier: z.number().nullable(),
  calledAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type SlotCallView = z.infer<typeof slotCallView>;

export const slotCallRulesView = z.object({
  maxPerViewer: z.number(),
  cooldownSeconds: z.number(),
  cost: z.number(),
  linkedOnly: z.boolean(),
  subsOnly: z.boolean(),
  maxQueue: z.number(),
  unknownSlots: z.enum(['accept', 'refuse']),
  blacklist: z.array(z.string()),
  payoutMultiplier: z.number(),
  payoutPoints: z.number(),
});
export type SlotCallRulesView = z.infer<typeof slotCallRulesView>;

export const slotCallPickView = z.object({
  id: z.string(),
  callId: z.string(),
  slot: z.string(),
  caller: z.string(),
  pickedAt: z.string(),
  among: z.number(),
});

export const slotCallsState = z.object({
  ...liveStateFields,
  open: z.boolean(),
  rules: slotCallRulesView,
  /** The call being played (a pick), else the first in the queue. */
  nextUp: slotCallView.nullable(),
  /** Calls waiting, in order (the one being played first). */
  queue: z.array(slotCallView),
  /** The last calls that left the queue, newest first. */
  recent: z.array(slotCallView),
  /** SHA-256 of the seed the next random pick uses (published before it is used). */
  nextSeedHash: z.string().nullable(),
  lastPick: slotCallPickView.nullable(),
});
export type SlotCallsState = z.infer<typeof slotCallsState>;

export const slotCallsHub = defineHub({
  namespace: '/SlotCalls',
  query: z.object({}),
  calls: { GetState: call(noPayload, slotCallsState, 'visitor') },
  events: { ReceiveState: slotCallsState },
});
export type SlotCallsHub = typeof slotCallsHub;

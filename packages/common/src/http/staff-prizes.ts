/**
 * Staff prize limits (docs/features/staff-prize-limits.md): the caps on prizes a Moderator sets or
 * runs — per event and per UTC day, in points. A payout above them waits in Fulfilment for an
 * Admin. Read and changed by Admins only.
 */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';

export const STAFF_PRIZE_LIMIT_MAX = 100_000_000;
export const DEFAULT_STAFF_PRIZE_LIMITS = { perEvent: 10_000, perDay: 50_000 } as const;

const limitShape = 'Enter a number of points with at most 2 decimals, like 10000.';
const limit = z
  .union([z.number(), z.string().trim()], { error: limitShape })
  .refine((v) => v !== '', 'Enter a number of points.')
  .refine((v) => v === '' || isAmount(v), limitShape)
  .refine((v) => !isAmount(v) || toCents(v) >= 0n, 'A limit cannot be negative.')
  .refine(
    (v) => !isAmount(v) || toCents(v) <= BigInt(STAFF_PRIZE_LIMIT_MAX) * 100n,
    `Enter a limit of at most ${STAFF_PRIZE_LIMIT_MAX.toLocaleString('en-US')}.`,
  )
  .transform((v) => String(v));

export const staffPrizeLimitsBody = z
  .object({ perEvent: limit, perDay: limit })
  .refine((b) => !isAmount(b.perEvent) || !isAmount(b.perDay) || toCents(b.perEvent) <= toCents(b.perDay), {
    message: 'The per-event limit cannot be above the per-day limit.',
    path: ['perEvent'],
  });
export type StaffPrizeLimitsBody = z.input<typeof staffPrizeLimitsBody>;

export const staffPrizeLimits = z.object({
  perEvent: z.number(),
  perDay: z.number(),
  /** Paid today (UTC) through the ledger from events a Moderator ran, counted against perDay. */
  paidToday: z.number(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type StaffPrizeLimits = z.infer<typeof staffPrizeLimits>;

export const staffPrizeMessages = {
  saved: 'Staff prize limits saved.',
  /** A staff account in a Split or Steal or Deal or No Deal game a Moderator runs. */
  staffCannotPlay: 'Staff accounts cannot play in a game a Moderator runs.',
} as const;

export const staffPrizeEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/admin/staff-prize-limits',
    access: 'admin',
    response: staffPrizeLimits,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/staff-prize-limits',
    access: 'admin',
    body: staffPrizeLimitsBody,
    response: z.object({ message: z.string(), limits: staffPrizeLimits }),
  }),
};

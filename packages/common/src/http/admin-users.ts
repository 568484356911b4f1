/** Admin: Users (`/api/admin/users`): search, balances, linked accounts, adjustments, role, excluded. */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { role } from './auth';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';
import { recipient } from './fulfilment';

export const adminUsersQuery = z.object({
  query: z.string().trim().max(64, 'must be at most 64 characters').default(''),
  page: pageNumber,
});

/** A Kick ban in force on the user's linked Kick account (docs/features/kick-events-and-bans.md). */
export const adminKickBan = z.object({
  reason: z.string().nullable(),
  bannedAt: z.string(),
  /** Null: permanent (until an admin lifts it). */
  expiresAt: z.string().nullable(),
});
export type AdminKickBan = z.infer<typeof adminKickBan>;

/** A user with their linked accounts (the fulfilment recipient), plus balances, role and dates. */
export const adminUser = recipient.extend({
  role: role,
  points: z.number(),
  gems: z.number(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  kickBan: adminKickBan.nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUsersPage = pageOf(adminUser);
export type AdminUsersPage = z.infer<typeof adminUsersPage>;

export const adminUserParams = z.object({ id: z.uuid('must be a user id') });

export const MAX_ADJUSTMENT = 100_000_000;

const amountShape = 'Enter the amount as a number with at most 2 decimals, like 500 or 12.50.';
const amountRange = `Enter an amount of at most ${MAX_ADJUSTMENT.toLocaleString('en-US')}.`;
const fitsAdjustment = (v: number | string) =>
  !isAmount(v) || (toCents(v) <= BigInt(MAX_ADJUSTMENT) * 100n && toCents(v) >= -BigInt(MAX_ADJUSTMENT) * 100n);

/** A signed amount (negative deducts), not zero, at most 2 decimals. */
export const adjustmentAmount = z
  .union([z.number(), z.string().trim()], { error: amountShape })
  .refine((v) => v !== '', 'Enter an amount.')
  .refine((v) => v === '' || isAmount(v), amountShape)
  .refine((v) => !isAmount(v) || toCents(v) !== 0n, 'Enter an amount other than 0.')
  .refine(fitsAdjustment, amountRange)
  .transform((v) => String(v));

export const ADJUSTMENT_REASON_MAX = 200;

export const adjustmentReason = z
  .string({ error: 'Enter a reason.' })
  .trim()
  .min(1, 'Enter a reason.')
  .max(ADJUSTMENT_REASON_MAX, `Keep the reason to ${ADJUSTMENT_REASON_MAX} characters or fewer.`);

const currency = z.enum(['points', 'gems'], { error: 'Pick points or gems.' });

export const balanceAdjustmentBody = z.object({ currency, amount: adjustmentAmount, reason: adjustmentReason });
export type BalanceAdjustmentBody = z.input<typeof balanceAdjustmentBody>;

/**
 * The admin's Adjust balance form: grant or deduct an amount typed without a sign (the body's
 * amount is signed by the direction), checked by the same rules as the body.
 */
export const balanceAdjustmentForm = z.object({
  direction: z.enum(['grant', 'deduct']),
  currency,
  amount: z
    .string({ error: 'Enter an amount.' })
    .trim()
    .min(1, { error: 'Enter an amount.', abort: true })
    .refine((v) => isAmount(v) && !v.startsWith('-'), { error: amountShape, abort: true })
    .refine((v) => toCents(v) !== 0n, 'Enter an amount other than 0.')
    .refine(fitsAdjustment, amountRange),
  reason: adjustmentReason,
});
export type BalanceAdjustmentForm = z.input<typeof balanceAdjustmentForm>;

export const roleBody = z.object({ role: role });
export const excludedBody = z.object({ excluded: z.boolean({ error: 'must be true or false' }) });

export const adminUserMessages = {
  adjusted: (text: string) => `Balance updated: ${text}.`,
  wouldGoNegative: (currency: string) => `That would take the ${currency} balance below 0.`,
  roleChanged: (role: string) => `Role changed to ${role}.`,
  excluded: 'Account excluded: it earns nothing, never ranks and never wins.',
  included: 'Account included again.',
  ownRole: 'You cannot change your own role.',
  kickBanLifted: 'Kick ban lifted: the account takes part again.',
} as const;

/** The answer of a change to a user: what was done, and the user as they are now. */
export const adminUserChange = z.object({ message: z.string(), user: adminUser });

const change = <const P extends `/api/admin/users/:id/${string}`, B extends z.ZodType>(path: P, body: B) =>
  defineEndpoint({ method: 'POST', path, access: 'admin', params: adminUserParams, body, response: adminUserChange });

export const adminUserEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/admin/users',
    access: 'admin',
    query: adminUsersQuery,
    response: adminUsersPage,
  }),
  adjustBalance: change('/api/admin/users/:id/balance', balanceAdjustmentBody),
  setRole: change('/api/admin/users/:id/role', roleBody),
  setExcluded: change('/api/admin/users/:id/excluded', excludedBody),
  /** Lifts the Kick ban in force on the user's linked Kick account (Kick sends no unban event). */
  liftKickBan: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/users/:id/kick-ban',
    access: 'admin',
    params: adminUserParams,
    response: adminUserChange,
  }),
};

/** The admin fulfilment queue: `GET /api/admin/fulfilment`, deliver and reject. */
import { z } from 'zod';
import { idParam } from './strict-int';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';
import { messageBody } from './errors';

export const fulfilmentStatuses = ['pending', 'delivered', 'rejected'] as const;
export const fulfilmentStatus = z.enum(fulfilmentStatuses);
export type FulfilmentStatus = z.infer<typeof fulfilmentStatus>;

/** Kinds other features enqueue; the page shows any kind it gets. */
export const fulfilmentKindLabels: Record<string, string> = {
  order: 'Store order',
  daily_reward: 'Daily reward',
  challenge: 'Challenge prize',
  leaderboard: 'Leaderboard prize',
  split_or_steal: 'Split or Steal',
  deal_or_no_deal: 'Deal or No Deal',
  giveaway: 'Giveaway',
  staff_prize: 'Prize awaiting approval',
  raffle: 'Raffle prize',
  battle: 'Battle prize',
  milestone: 'Milestone reward',
};

/** A kind in words: the label above, or the code made readable. */
export function fulfilmentKindLabel(kind: string): string {
  return fulfilmentKindLabels[kind] ?? kind.replace(/_/g, ' ');
}

export const fulfilmentQuery = z.object({
  status: z.union([fulfilmentStatus, z.literal('')]).optional(),
  kind: z
    .string()
    .max(40)
    .regex(/^[a-z_]*$/, 'must be a kind such as order')
    .optional(),
  page: pageNumber,
});
export type FulfilmentQuery = z.input<typeof fulfilmentQuery>;

/** Where to deliver: the recipient's linked accounts. */
export const recipient = z.object({
  id: z.string(),
  username: z.string(),
  steamId: z.string(),
  avatarUrl: z.string().nullable(),
  kickUsername: z.string().nullable(),
  discordUsername: z.string().nullable(),
  clashId: z.string().nullable(),
  rustMagicId: z.string().nullable(),
  roobetName: z.string().nullable(),
  casesId: z.string().nullable(),
  excluded: z.boolean(),
});
export type Recipient = z.infer<typeof recipient>;

export const fulfilmentItem = z.object({
  id: z.number(),
  kind: z.string(),
  reference: z.string(),
  description: z.string(),
  amount: z.number().nullable(),
  unit: z.string().nullable(),
  status: fulfilmentStatus,
  refund: z.object({ currency: z.enum(['points', 'gems']), amount: z.number() }).nullable(),
  /**
   * A prize from an event a Moderator ran, held back by the staff prize limits: an Admin's
   * Approve (deliver) pays it through the ledger; a Moderator cannot deliver it.
   */
  credit: z.object({ currency: z.enum(['points', 'gems']), amount: z.number() }).nullable(),
  note: z.string().nullable(),
  handledBy: z.string().nullable(),
  handledAt: z.string().nullable(),
  createdAt: z.string(),
  user: recipient,
  /**
   * Store orders: how the product is delivered and the detail the buyer gave (their Steam trade
   * URL or email). An instant code is never shown here, only that it was delivered.
   */
  delivery: z
    .object({
      kind: z.enum(['none', 'steam_trade_url', 'email', 'code']),
      detail: z.string().nullable(),
    })
    .nullable(),
});
export type FulfilmentItem = z.infer<typeof fulfilmentItem>;

export const fulfilmentPage = pageOf(fulfilmentItem).extend({ kinds: z.array(z.string()), pendingCount: z.number() });
export type FulfilmentPage = z.infer<typeof fulfilmentPage>;

export const fulfilmentIdParams = z.object({ id: idParam });

/** `{ note? }`; the body itself may be left out. */
export const fulfilmentActionBody = z
  .object({
    note: z.string({ error: 'must be text' }).trim().max(500, 'must be at most 500 characters').nullish(),
  })
  .nullish()
  .transform((b) => ({ note: b?.note || null }));
export type FulfilmentActionBody = z.input<typeof fulfilmentActionBody>;

export const fulfilmentMessages = {
  delivered: 'Marked as delivered.',
  rejected: 'Rejected.',
  rejectedWithRefund: (text: string) => `Rejected; ${text} refunded.`,
  alreadyHandled: (status: string) => `This item was already ${status}.`,
  notFound: 'Fulfilment item not found.',
  approvedAndPaid: (text: string) => `Approved; ${text} paid.`,
  approvalIsAdmins: 'Only an Admin can approve a held-back prize.',
  excludedCannotBePaid: 'This account is excluded and cannot be paid. Reject the item instead.',
  ranItYourself: 'You ran the game this prize comes from: another staff member must deliver it.',
  waitsForAdmin: (why: string) => `Only an Admin can deliver this prize: ${why}.`,
} as const;

/**
 * Moderators see the queue and mark items delivered; rejecting gives money back (a refund through
 * the ledger), so only an admin rejects. Delivering a held-back prize (one with a credit) pays it,
 * so only an admin does that too (checked per item on the server).
 */
const handle = <const A extends 'deliver' | 'reject', const X extends 'moderator' | 'admin'>(action: A, access: X) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/admin/fulfilment/:id/${action}`,
    access,
    params: fulfilmentIdParams,
    body: fulfilmentActionBody,
    response: messageBody,
  });

/** Admin → Fulfilment: the queue, and delivering or rejecting (refunded) an item. */
export const fulfilmentEndpoints = {
  queue: defineEndpoint({
    method: 'GET',
    path: '/api/admin/fulfilment',
    access: 'moderator',
    query: fulfilmentQuery,
    response: fulfilmentPage,
  }),
  deliver: handle('deliver', 'moderator'),
  reject: handle('reject', 'admin'),
};

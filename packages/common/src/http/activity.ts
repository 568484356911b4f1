/** "My activity": the signed-in user's ledger and orders (`GET /api/me/activity`, `/api/me/orders`). */
import { z } from 'zod';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';
import { fulfilmentStatus } from './fulfilment';

export const ledgerReasons = [
  'order',
  'order_refund',
  'admin_grant',
  'admin_deduct',
  'chat_activity',
  'wager',
  'game_win',
  'game_refund',
  'prediction_bet',
  'prediction_win',
  'prediction_refund',
  'giveaway_win',
  'daily_reward',
  'challenge_prize',
  'leaderboard_prize',
  'fulfilment_refund',
  'partner_reversal',
  'debt_repayment',
  'hunt_prize',
  'raffle_tickets',
  'raffle_refund',
  'raffle_prize',
  'battle_prize',
  'support_reward',
  'support_reversal',
  'channel_points',
  'slot_call',
  'slot_call_refund',
  'slot_call_payout',
  'milestone_reward',
  'stream_streak',
  'chat_command',
] as const;
export type LedgerReasonCode = (typeof ledgerReasons)[number];

/**
 * What kind of change each ledger reason is (docs/features/staff-prize-limits.md#every-credit-names-its-kind).
 * Every reason has exactly one kind; a new reason does not compile until it is classified here.
 * - `earning`: what a viewer earns by rules an Admin set (chat, wagers, Kick channel points).
 * - `prize`: a prize of an event someone runs: paid only through the staff-prize gate.
 * - `pool`: a payout from other bettors' stakes (predictions): moves points, creates none.
 * - `support`: a reward for supporting the stream (subs, gifts, KICKs).
 * - `admin`: an Admin's own grant or deduction.
 * - `refund`: what the person paid, given back.
 * - `reversal`: points taken back (a reward or wager that turned out not to be owed).
 * - `spend`: the person paying for something; never a credit.
 */
export const ledgerReasonKinds = {
  order: 'spend',
  order_refund: 'refund',
  admin_grant: 'admin',
  admin_deduct: 'admin',
  chat_activity: 'earning',
  wager: 'earning',
  game_win: 'prize',
  game_refund: 'refund',
  prediction_bet: 'spend',
  prediction_win: 'pool',
  prediction_refund: 'refund',
  giveaway_win: 'prize',
  daily_reward: 'earning',
  challenge_prize: 'prize',
  leaderboard_prize: 'prize',
  fulfilment_refund: 'refund',
  partner_reversal: 'reversal',
  debt_repayment: 'spend',
  hunt_prize: 'prize',
  raffle_tickets: 'spend',
  raffle_refund: 'refund',
  raffle_prize: 'prize',
  battle_prize: 'prize',
  support_reward: 'support',
  support_reversal: 'reversal',
  channel_points: 'earning',
  slot_call: 'spend',
  slot_call_refund: 'refund',
  slot_call_payout: 'prize',
  milestone_reward: 'prize',
  stream_streak: 'earning',
  chat_command: 'spend',
} as const satisfies Record<LedgerReasonCode, LedgerReasonKind>;

export const ledgerReasonKindNames = [
  'earning',
  'prize',
  'pool',
  'support',
  'admin',
  'refund',
  'reversal',
  'spend',
] as const;
export type LedgerReasonKind = (typeof ledgerReasonKindNames)[number];

/** The reasons of one kind, as a type: `ReasonOfKind<'prize'>` is every prize reason. */
export type ReasonOfKind<K extends LedgerReasonKind> = {
  [R in LedgerReasonCode]: (typeof ledgerReasonKinds)[R] extends K ? R : never;
}[LedgerReasonCode];

/** The kind of a stored reason code; null when the code is not a ledger reason. */
export function ledgerReasonKind(code: string): LedgerReasonKind | null {
  return Object.hasOwn(ledgerReasonKinds, code) ? ledgerReasonKinds[code as LedgerReasonCode] : null;
}

/** Each ledger reason in words, as My activity shows it. */
export const ledgerReasonText: Record<LedgerReasonCode, string> = {
  order: 'Store purchase',
  order_refund: 'Store order refunded',
  admin_grant: 'Granted by an admin',
  admin_deduct: 'Deducted by an admin',
  chat_activity: 'Chatting on stream',
  wager: 'Wagering on the code',
  game_win: 'Game winnings',
  game_refund: 'Game refund',
  prediction_bet: 'Prediction bet',
  prediction_win: 'Prediction winnings',
  prediction_refund: 'Prediction refund',
  giveaway_win: 'Giveaway prize',
  daily_reward: 'Daily reward',
  challenge_prize: 'Challenge prize',
  leaderboard_prize: 'Leaderboard prize',
  fulfilment_refund: 'Prize refunded',
  partner_reversal: 'Taken back: a partner id moved to its rightful owner',
  debt_repayment: 'Paid towards points owed',
  hunt_prize: 'Bonus hunt guess prize',
  raffle_tickets: 'Raffle tickets',
  raffle_refund: 'Raffle cancelled: tickets refunded',
  raffle_prize: 'Raffle prize',
  battle_prize: 'Bonus-buy battle prize',
  support_reward: 'Supporting the stream',
  support_reversal: 'Support reward taken back',
  channel_points: 'Kick channel points',
  slot_call: 'Slot call',
  slot_call_refund: 'Slot call refunded (not played)',
  slot_call_payout: 'Your slot call paid out',
  milestone_reward: 'Milestone reward',
  stream_streak: 'Stream streak bonus',
  chat_command: 'Chat command',
};

export function reasonInWords(code: string): string {
  return (ledgerReasonText as Record<string, string>)[code] ?? code.replace(/_/g, ' ');
}

export const pageQuery = z.object({ page: pageNumber });

export const ledgerEntry = z.object({
  id: z.number(),
  currency: z.enum(['points', 'gems']),
  delta: z.number(),
  balanceAfter: z.number(),
  reason: z.string(),
  memo: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

export const activityPage = pageOf(ledgerEntry);
export type ActivityPage = z.infer<typeof activityPage>;

export const myOrder = z.object({
  id: z.number(),
  productName: z.string(),
  price: z.number(),
  status: fulfilmentStatus,
  note: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  /** The Steam trade URL or email given at purchase. */
  deliveryDetail: z.string().nullable(),
  /** An instant-code product's code (only ever in the buyer's own list). */
  code: z.string().nullable(),
});
export type MyOrder = z.infer<typeof myOrder>;

export const myOrdersPage = pageOf(myOrder);
export type MyOrdersPage = z.infer<typeof myOrdersPage>;

/** A prize or payout someone delivers by hand (daily rewards, challenge and leaderboard prizes…). */
export const myPayout = z.object({
  id: z.number(),
  kind: z.string(),
  description: z.string(),
  amount: z.number().nullable(),
  unit: z.string().nullable(),
  status: fulfilmentStatus,
  note: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type MyPayout = z.infer<typeof myPayout>;

export const myPayoutsPage = pageOf(myPayout);
export type MyPayoutsPage = z.infer<typeof myPayoutsPage>;

const mine = <const P extends `/api/me/${string}`, R extends z.ZodType>(path: P, response: R) =>
  defineEndpoint({ method: 'GET', path, access: 'user', query: pageQuery, response });

/** My activity: the signed-in user's ledger, orders and payouts, a page at a time. */
export const activityEndpoints = {
  ledger: mine('/api/me/activity', activityPage),
  orders: mine('/api/me/orders', myOrdersPage),
  payouts: mine('/api/me/payouts', myPayoutsPage),
};

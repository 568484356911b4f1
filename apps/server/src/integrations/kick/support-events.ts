/**
 * The payloads of Kick's support events (webhook version 1, as documented; see
 * docs/features/support-rewards.md and docs/features/channel-points.md): subscriptions, gifted
 * subscriptions, KICKs, follows and channel-reward redemptions. Lenient about extra fields and
 * missing optional ones; strict about what a reward needs.
 */
import { z } from 'zod';
import { kickUser, subscriptionGifts, subscriptionNewOrRenewal } from './events';

export { subscriptionGifts, subscriptionNewOrRenewal };

/** What every support event handler receives with its payload. */
export interface KickEventMeta {
  messageId: string;
  type: string;
  version: string;
  receivedAt: Date;
}

/** Thrown by a handler whose payload does not parse: the delivery is refused with 400. */
export class MalformedKickEvent extends Error {
  constructor(readonly type: string) {
    super(`malformed ${type}`);
  }
}

/** A handler of one event type, run in the transaction that claims the delivery. */
export type KickEventHandler<Tx> = (tx: Tx, payload: unknown, meta: KickEventMeta) => Promise<void>;

export const SUPPORT_EVENT_TYPES = [
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'kicks.gifted',
  'channel.followed',
  'channel.reward.redemption.updated',
] as const;
export type SupportEventType = (typeof SUPPORT_EVENT_TYPES)[number];

export function isSupportEvent(type: string): type is SupportEventType {
  return (SUPPORT_EVENT_TYPES as readonly string[]).includes(type);
}

/** `channel.followed` (no unfollow event exists). */
export const channelFollowed = z.object({ broadcaster: kickUser, follower: kickUser });

/** `kicks.gifted`: `gift.amount` KICKs from `sender` (no `is_anonymous`, no `identity`). */
export const kicksGifted = z.object({
  broadcaster: kickUser,
  sender: kickUser,
  gift: z.object({
    amount: z.number().int().positive().max(10_000_000),
    name: z.string().max(200).nullish(),
    type: z.string().max(100).nullish(),
    tier: z.string().max(100).nullish(),
    message: z.string().max(1000).nullish(),
    pinned_time_seconds: z.number().nullish(),
  }),
  created_at: z.string().nullish(),
});

/** `channel.reward.redemption.updated`. */
export const rewardRedemption = z.object({
  id: z.string().min(1).max(100),
  user_input: z.string().max(1000).nullish(),
  status: z.enum(['pending', 'accepted', 'rejected']),
  redeemed_at: z.string().nullish(),
  reward: z.object({
    id: z.string().min(1).max(100),
    title: z.string().max(200).nullish(),
    cost: z.number().nullish(),
    description: z.string().max(1000).nullish(),
  }),
  redeemer: kickUser,
  broadcaster: kickUser,
});
export type RewardRedemption = z.infer<typeof rewardRedemption>;

/**
 * The payloads of Kick's support events (webhook version 1, as documented; see
 * docs/features/support-rewards.md and docs/features/channel-points.md): subscriptions, gifted
 * subscriptions, KICKs, follows and channel-reward redemptions. Lenient about extra fields and
 * missing optional ones; strict about what a reward needs.
 */
import type { z } from 'zod';
import {
  channelFollowed,
  kicksGifted,
  rewardRedemptionUpdated,
  subscriptionGifts,
  subscriptionNewOrRenewal,
} from './events';
import type { KickEventMeta as RegistryMeta } from './event-handlers';

export { channelFollowed, kicksGifted, subscriptionGifts, subscriptionNewOrRenewal };

/** What a support event handler reads of the delivery (the registry's meta, ./event-handlers). */
export type KickEventMeta = Pick<RegistryMeta, 'messageId' | 'version' | 'receivedAt'> & { type: string };

/** Thrown by a handler whose payload does not parse: the delivery is refused with 400. */
export class MalformedKickEvent extends Error {
  constructor(readonly type: string) {
    super(`malformed ${type}`);
  }
}

/** A handler of one event type, run in the transaction that claims the delivery. */
export type KickEventHandler<Tx> = (tx: Tx, payload: unknown, meta: KickEventMeta) => Promise<void>;

// The payloads' schemas are the webhook's own (./events), one definition each.
export const rewardRedemption = rewardRedemptionUpdated;
export type RewardRedemption = z.infer<typeof rewardRedemption>;

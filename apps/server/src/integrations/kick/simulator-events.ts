/**
 * The chat simulator's other Kick events: each built in the shape Kick documents for it (the
 * payloads of `../fixtures/kick-webhook-events.json`), for simulated Kick users (a name is always
 * the same Kick account, as in ./simulator), to be signed and delivered like Kick's.
 */
import type { ChatSimulateEventBody } from '@kickback/common/http/chat';
import { ulid } from '../../lib/ulid';
import type { KickEventType } from './events';
import {
  kickTimestamp,
  kickUser,
  simulatedKickUserId,
  simulatedLivestreamStatus,
  type SimulatedBroadcaster,
} from './simulator';

const user = (username: string) => kickUser(simulatedKickUserId(username), username, null);
/** `redeemer` and the KICKs `sender` have no is_anonymous and no identity. */
const plainUser = (username: string) => {
  const { is_anonymous: _a, identity: _i, ...rest } = user(username);
  return rest;
};
const ANONYMOUS = {
  is_anonymous: true,
  user_id: null,
  username: null,
  is_verified: null,
  profile_picture: null,
  channel_slug: null,
  identity: null,
};
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

export function simulatedEvent(
  input: ChatSimulateEventBody,
  broadcaster: SimulatedBroadcaster,
  now: Date,
): { type: KickEventType; payload: Record<string, unknown> } {
  const b = kickUser(broadcaster.userId, broadcaster.username, null);
  const created = kickTimestamp(now);
  const expires = kickTimestamp(new Date(now.getTime() + MONTH_MS));
  switch (input.kind) {
    case 'follow':
      return { type: 'channel.followed', payload: { broadcaster: b, follower: user(input.username) } };
    case 'subscription':
    case 'renewal':
      return {
        type: input.kind === 'subscription' ? 'channel.subscription.new' : 'channel.subscription.renewal',
        payload: {
          broadcaster: b,
          subscriber: user(input.username),
          duration: input.kind === 'subscription' ? 1 : 2,
          created_at: created,
          expires_at: expires,
        },
      };
    case 'gift':
      return {
        type: 'channel.subscription.gifts',
        payload: {
          broadcaster: b,
          gifter: input.gifter ? user(input.gifter) : ANONYMOUS,
          giftees: input.giftees.map(user),
          created_at: created,
          expires_at: input.expiresInSeconds
            ? kickTimestamp(new Date(now.getTime() + input.expiresInSeconds * 1000))
            : expires,
        },
      };
    case 'kicks':
      return {
        type: 'kicks.gifted',
        payload: {
          broadcaster: b,
          sender: plainUser(input.username),
          gift: {
            amount: input.amount,
            name: 'Simulated KICKs',
            type: 'BASIC',
            tier: 'BASIC',
            message: '',
            pinned_time_seconds: 0,
          },
          created_at: created,
        },
      };
    case 'ban':
      return {
        type: 'moderation.banned',
        payload: {
          broadcaster: b,
          moderator: b,
          banned_user: user(input.username),
          metadata: {
            reason: input.reason || null,
            created_at: created,
            expires_at: input.minutes === null ? null : kickTimestamp(new Date(now.getTime() + input.minutes * 60_000)),
          },
        },
      };
    case 'redemption':
      return {
        type: 'channel.reward.redemption.updated',
        payload: {
          id: ulid(now),
          user_input: '',
          status: 'pending',
          redeemed_at: now.toISOString(),
          reward: {
            id: `sim-${input.rewardTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
            title: input.rewardTitle,
            cost: input.cost,
            description: '',
          },
          redeemer: plainUser(input.username),
          broadcaster: b,
        },
      };
    case 'stream-on':
    case 'stream-off':
      return {
        type: 'livestream.status.updated',
        payload: simulatedLivestreamStatus(broadcaster, input.kind === 'stream-on', now),
      };
    case 'title':
      return {
        type: 'livestream.metadata.updated',
        payload: {
          broadcaster: b,
          metadata: {
            title: input.title,
            language: 'en',
            has_mature_content: false,
            category: { id: 1, name: 'Slots & Casino', thumbnail: '' },
          },
        },
      };
  }
}

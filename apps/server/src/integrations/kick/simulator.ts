/**
 * The chat simulator: builds Kick's `chat.message.sent` (and subscription) payloads for any Kick
 * user, signs them with the simulator's key exactly as Kick signs, and delivers them through
 * `app.http` to our own `POST /webhooks/kick`, so verification, deduplication and the pipeline all
 * run as they do for Kick's deliveries.
 */
import { createHash } from 'node:crypto';
import { ulid } from '../../lib/ulid';
import { signKickDelivery } from './signature';
import { simulatorKeyPair } from './simulator-keys';

export interface SimulatedSender {
  username: string;
  subscriber: boolean;
  /** Defaults to an id derived from the name, so one name is always one Kick account. */
  userId?: string;
  /** Further badge types (moderator, vip, og, …), as Kick sends them. */
  badges?: readonly string[];
}

export interface SimulatedBroadcaster {
  userId: string;
  username: string;
}

const colours = ['#FF5733', '#1475E1', '#53FC18', '#F5C542', '#B36BFF', '#FF6FB5', '#3FD4C7', '#FF9F1C'];

function digest(username: string): Buffer {
  return createHash('sha256').update(username.toLowerCase()).digest();
}

/** A stable 8-digit Kick user id for a simulated username. */
export function simulatedKickUserId(username: string): string {
  return String(10_000_000 + (digest(username).readUInt32BE(0) % 89_999_999));
}

export function simulatedColour(username: string): string {
  return colours[(digest(username)[4] ?? 0) % colours.length] ?? '#53FC18';
}

export function kickUser(id: string, username: string, identity: object | null) {
  return {
    is_anonymous: false,
    user_id: Number(id),
    username,
    is_verified: false,
    profile_picture: '',
    channel_slug: username.toLowerCase(),
    identity,
  };
}

/** Kick's RFC 3339 form, seconds precision. */
export function kickTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function simulatedChatMessage(
  sender: SimulatedSender,
  content: string,
  broadcaster: SimulatedBroadcaster,
  now: Date,
): Record<string, unknown> {
  const userId = sender.userId ?? simulatedKickUserId(sender.username);
  return {
    message_id: ulid(now).toLowerCase(),
    replies_to: null,
    broadcaster: kickUser(broadcaster.userId, broadcaster.username, null),
    sender: kickUser(userId, sender.username, {
      username_color: simulatedColour(sender.username),
      // Kick marks the channel owner's own messages with the broadcaster badge.
      badges: [
        ...(sender.username.toLowerCase() === broadcaster.username.toLowerCase()
          ? [{ text: 'Broadcaster', type: 'broadcaster' }]
          : []),
        ...(sender.subscriber ? [{ text: 'Subscriber', type: 'subscriber', count: 1 }] : []),
        ...(sender.badges ?? []).map((type) => ({ text: type.charAt(0).toUpperCase() + type.slice(1), type })),
      ],
    }),
    content,
    emotes: [],
    created_at: kickTimestamp(now),
  };
}

/** Kick's `livestream.status.updated` payload: the stream went live (now) or ended (now). */
export function simulatedLivestreamStatus(
  broadcaster: SimulatedBroadcaster,
  isLive: boolean,
  now: Date,
): Record<string, unknown> {
  return {
    broadcaster: kickUser(broadcaster.userId, broadcaster.username, null),
    is_live: isLive,
    title: isLive ? 'Live on Kickback (simulated)' : null,
    started_at: isLive ? kickTimestamp(now) : null,
    ended_at: isLive ? null : kickTimestamp(now),
  };
}

// Kick gives each subscription an id; the simulator keeps one per event type for the process.
const subscriptionIds = new Map<string, string>();

export type SimulatedSupportKind = 'sub' | 'gift' | 'kicks' | 'follow';

/**
 * A support event as Kick documents it (docs/features/support-rewards.md): a new sub, `units`
 * gifted subs (to made-up giftees), `units` KICKs, or a follow, from `username` (null: an anonymous
 * gifter, every field null).
 */
export function simulatedSupportEvent(
  kind: SimulatedSupportKind,
  username: string | null,
  units: number,
  broadcaster: SimulatedBroadcaster,
  now: Date,
): { type: string; payload: Record<string, unknown> } {
  const channel = kickUser(broadcaster.userId, broadcaster.username, null);
  const who = username
    ? kickUser(simulatedKickUserId(username), username, null)
    : {
        is_anonymous: true,
        user_id: null,
        username: null,
        is_verified: null,
        profile_picture: null,
        channel_slug: null,
        identity: null,
      };
  const at = now.toISOString();
  const month = new Date(now.getTime() + 30 * 24 * 3600_000).toISOString();
  switch (kind) {
    case 'sub':
      return {
        type: 'channel.subscription.new',
        payload: { broadcaster: channel, subscriber: who, duration: 1, created_at: at, expires_at: month },
      };
    case 'gift':
      return {
        type: 'channel.subscription.gifts',
        payload: {
          broadcaster: channel,
          gifter: who,
          giftees: Array.from({ length: units }, (_, i) => {
            const name = `giftee_${now.getTime() % 100000}_${i}`;
            return kickUser(simulatedKickUserId(name), name, null);
          }),
          created_at: at,
          expires_at: month,
        },
      };
    case 'kicks': {
      const { is_anonymous: _a, identity: _i, ...sender } = who;
      const { is_anonymous: _b, identity: _j, ...kicksChannel } = channel;
      return {
        type: 'kicks.gifted',
        payload: {
          broadcaster: kicksChannel,
          sender,
          gift: { amount: units, name: 'KICKs', type: 'BASIC', tier: 'BASIC', message: '', pinned_time_seconds: 0 },
          created_at: at,
        },
      };
    }
    case 'follow':
      return { type: 'channel.followed', payload: { broadcaster: channel, follower: who } };
  }
}

export interface Delivery {
  status: number;
  messageId: string;
}

/** Signs and POSTs one event to `${publicUrl}/webhooks/kick` with Kick's six headers. */
export async function deliverSimulatedEvent(
  http: typeof fetch,
  publicUrl: string,
  eventType: string,
  payload: unknown,
  now: Date,
): Promise<Delivery> {
  const messageId = ulid(now);
  const timestamp = kickTimestamp(now);
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  let subscriptionId = subscriptionIds.get(eventType);
  if (!subscriptionId) {
    subscriptionId = ulid(now);
    subscriptionIds.set(eventType, subscriptionId);
  }
  const res = await http(`${publicUrl}/webhooks/kick`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'kick-event-message-id': messageId,
      'kick-event-subscription-id': subscriptionId,
      'kick-event-signature': signKickDelivery(simulatorKeyPair().privateKey, messageId, timestamp, body),
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': eventType,
      'kick-event-version': '1',
    },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, messageId };
}

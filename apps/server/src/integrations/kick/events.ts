/**
 * Kick event payloads (official webhooks, version 1) and their normalisation into the chat
 * pipeline's message shape. Parsers are lenient about extra and missing optional fields; what the
 * pipeline needs is required.
 */
import { z } from 'zod';
import { cleanChatMessage, type ChatMessage } from './chat-message';

/** Every webhook event Kick documents (all version 1). */
export const KICK_EVENT_TYPES = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'kicks.gifted',
  'moderation.banned',
  'channel.reward.redemption.updated',
  'livestream.status.updated',
  'livestream.metadata.updated',
] as const;
export type KickEventType = (typeof KICK_EVENT_TYPES)[number];

/** The events subscribed to when no feature list is given. */
export const KICK_WEBHOOK_EVENTS: readonly KickEventType[] = KICK_EVENT_TYPES;

export function isKickEventType(type: string): type is KickEventType {
  return (KICK_EVENT_TYPES as readonly string[]).includes(type);
}

const id = z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]).transform(String);

const badge = z.object({ text: z.string().nullish(), type: z.string(), count: z.number().nullish() });

export const kickUser = z.object({
  is_anonymous: z.boolean().nullish(),
  user_id: id.nullish(),
  username: z.string().max(100).nullish(),
  is_verified: z.boolean().nullish(),
  profile_picture: z.string().nullish(),
  channel_slug: z.string().nullish(),
  identity: z
    .object({
      username_color: z.string().max(20).nullish(),
      badges: z.array(badge).nullish(),
    })
    .nullish(),
});
export type KickUser = z.infer<typeof kickUser>;

/** `livestream.status.updated`: the stream went live or ended (the Integrations page shows it). */
export const livestreamStatus = z.object({
  broadcaster: kickUser,
  is_live: z.boolean(),
  title: z.string().max(500).nullish(),
  started_at: z.string().nullish(),
  ended_at: z.string().nullish(),
});

export const chatMessageSent = z.object({
  message_id: z.string().min(1).max(100),
  replies_to: z.unknown().optional(),
  broadcaster: kickUser,
  sender: kickUser,
  content: z.string().max(2000),
  emotes: z.array(z.unknown()).nullish(),
  created_at: z.string().nullish(),
});
export type ChatMessageSent = z.infer<typeof chatMessageSent>;

export const subscriptionNewOrRenewal = z.object({
  broadcaster: kickUser,
  subscriber: kickUser,
  duration: z.number().nullish(),
  created_at: z.string().nullish(),
  expires_at: z.string().nullish(),
});

export const subscriptionGifts = z.object({
  broadcaster: kickUser,
  gifter: kickUser.nullish(),
  giftees: z.array(kickUser),
  created_at: z.string().nullish(),
  expires_at: z.string().nullish(),
});

/** `channel.followed` (there is no unfollow event). */
export const channelFollowed = z.object({ broadcaster: kickUser, follower: kickUser });

/** `kicks.gifted`: the sender has no `is_anonymous` and no `identity`. */
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

/** `moderation.banned`: `expires_at` null is a permanent ban; a timeout is a ban with an expiry. */
export const moderationBanned = z.object({
  broadcaster: kickUser,
  moderator: kickUser.nullish(),
  banned_user: kickUser.extend({ user_id: id, username: z.string().min(1).max(100) }),
  metadata: z.object({
    reason: z.string().max(1000).nullish(),
    created_at: z.string().nullish(),
    expires_at: z.string().nullish(),
  }),
});
export type ModerationBanned = z.infer<typeof moderationBanned>;

export const rewardRedemptionUpdated = z.object({
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

/** `livestream.metadata.updated`: no timestamp in the body (the delivery's header has one). */
export const livestreamMetadata = z.object({
  broadcaster: kickUser,
  metadata: z.object({
    title: z.string().max(500).nullish(),
    language: z.string().max(20).nullish(),
    has_mature_content: z.boolean().nullish(),
    category: z
      .object({ id: z.number().nullish(), name: z.string().max(200).nullish() })
      .passthrough()
      .nullish(),
  }),
});

/** The schema each event's body must pass before any handler sees it. */
export const KICK_EVENT_SCHEMAS: Record<KickEventType, z.ZodTypeAny> = {
  'chat.message.sent': chatMessageSent,
  'channel.followed': channelFollowed,
  'channel.subscription.new': subscriptionNewOrRenewal,
  'channel.subscription.renewal': subscriptionNewOrRenewal,
  'channel.subscription.gifts': subscriptionGifts,
  'kicks.gifted': kicksGifted,
  'moderation.banned': moderationBanned,
  'channel.reward.redemption.updated': rewardRedemptionUpdated,
  'livestream.status.updated': livestreamStatus,
  'livestream.metadata.updated': livestreamMetadata,
};

/** A Kick user who (now) subscribes to the channel. */
export interface KickSubscriber {
  kickUserId: string | null;
  kickUsername: string;
  /** When the subscription ends, if the source says. */
  expiresAt: Date | null;
}

export function kickDate(text: string | null | undefined): Date | null {
  if (!text) return null;
  const at = Date.parse(text);
  return Number.isFinite(at) ? new Date(at) : null;
}

/** `chat.message.sent` → the pipeline's message; null for anonymous senders (nobody to credit). */
export function chatMessageFromWebhook(event: ChatMessageSent, receivedAt: Date): ChatMessage | null {
  const { sender } = event;
  if (sender.is_anonymous || !sender.user_id || !sender.username) return null;
  const badges = (sender.identity?.badges ?? []).map((b) => b.type);
  return cleanChatMessage({
    messageId: event.message_id,
    kickUserId: sender.user_id,
    kickUsername: sender.username,
    color: sender.identity?.username_color ?? null,
    isSubscriber: badges.includes('subscriber'),
    badges,
    content: event.content,
    sentAt: kickDate(event.created_at) ?? receivedAt,
  });
}

export function subscribersFromWebhook(type: string, body: unknown): KickSubscriber[] | null {
  const toSubscriber = (u: KickUser, expiresAt: Date | null): KickSubscriber[] =>
    u.username && !u.is_anonymous ? [{ kickUserId: u.user_id ?? null, kickUsername: u.username, expiresAt }] : [];
  if (type === 'channel.subscription.new' || type === 'channel.subscription.renewal') {
    const parsed = subscriptionNewOrRenewal.safeParse(body);
    return parsed.success ? toSubscriber(parsed.data.subscriber, kickDate(parsed.data.expires_at)) : null;
  }
  if (type === 'channel.subscription.gifts') {
    const parsed = subscriptionGifts.safeParse(body);
    if (!parsed.success) return null;
    const expiresAt = kickDate(parsed.data.expires_at);
    return parsed.data.giftees.flatMap((g) => toSubscriber(g, expiresAt));
  }
  return null;
}

const withBroadcaster = z.object({ broadcaster: kickUser });

export function broadcasterIdOf(body: unknown): string | null {
  const parsed = withBroadcaster.safeParse(body);
  return parsed.success ? (parsed.data.broadcaster.user_id ?? null) : null;
}

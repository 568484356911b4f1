import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Kick usernames: letters, digits and underscores. */
export const kickUsername = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{2,25}$/, 'a Kick username is 2–25 letters, digits or underscores');

export const CHAT_MESSAGE_MAX_LENGTH = 500;

/** `POST /api/admin/chat/simulate`: a chat message as any Kick user, through the real webhook path. */
export const chatSimulateBody = z.object({
  username: kickUsername,
  subscriber: z.boolean().default(false),
  /** Further badges of the sender (a moderator, a VIP), e.g. to try the moderation filters' immunity. */
  badges: z
    .array(z.enum(['moderator', 'vip', 'og', 'founder']))
    .max(4)
    .optional(),
  content: z.string().trim().min(1, 'the message is empty').max(CHAT_MESSAGE_MAX_LENGTH),
});
export type ChatSimulateBody = z.infer<typeof chatSimulateBody>;

/** One chat message as the pipeline saw it, and what it did with it. */
export const chatLogEntry = z.object({
  messageId: z.string(),
  source: z.string(),
  kickUserId: z.string(),
  kickUsername: z.string(),
  color: z.string().nullable(),
  isSubscriber: z.boolean(),
  content: z.string(),
  sentAt: z.string(),
  receivedAt: z.string(),
  linkedUser: z.object({ id: z.string(), username: z.string() }).nullable(),
  /** The handler that took the message as its command, if any. */
  handledBy: z.string().nullable(),
  /** Replies posted to chat about it. */
  replies: z.array(z.string()),
  /** Handlers that failed on it (the message still went on to the others). */
  errors: z.array(z.string()),
});
export type ChatLogEntry = z.infer<typeof chatLogEntry>;

/** Whether the stream is live, as Kick's last `livestream.status.updated` said (null: never heard). */
export const chatLiveState = z.object({
  isLive: z.boolean().nullable(),
  changedAt: z.string().nullable(),
});
export type ChatLiveState = z.infer<typeof chatLiveState>;

export const chatLog = z.object({
  /** Whether this server runs the chat simulator (the admin page's form needs it). */
  simulator: z.boolean(),
  /** Chat-activity points are earned only while the stream is live. */
  live: chatLiveState,
  messages: z.array(chatLogEntry),
  /** Recent chatters, for the simulator's username suggestions. */
  chatters: z.array(z.object({ kickUsername: z.string(), isSubscriber: z.boolean() })),
});
export type ChatLog = z.infer<typeof chatLog>;

export const chatSimulateResult = z.object({
  /** The webhook's HTTP status (200 when it was accepted). */
  status: z.number(),
  entry: chatLogEntry.nullable(),
});
export type ChatSimulateResult = z.infer<typeof chatSimulateResult>;

/** `POST /api/admin/chat/live`: the simulator sends Kick's `livestream.status.updated` through the webhook. */
export const chatLiveBody = z.object({ isLive: z.boolean({ error: 'isLive must be true or false' }) });
export type ChatLiveBody = z.infer<typeof chatLiveBody>;

export const chatLiveResult = z.object({
  /** The webhook's HTTP status (200 when it was accepted). */
  status: z.number(),
  live: chatLiveState,
});
export type ChatLiveResult = z.infer<typeof chatLiveResult>;

/**
 * `POST /api/admin/chat/simulate-event`: any other Kick event, built like Kick's payload, signed
 * like Kick and delivered through the real webhook (docs/features/kick-events-and-bans.md).
 */
export const SIMULATED_BAN_MAX_MINUTES = 10_080;
export const simulatedEventKinds = [
  'follow',
  'subscription',
  'renewal',
  'gift',
  'kicks',
  'ban',
  'redemption',
  'stream-on',
  'stream-off',
  'title',
] as const;
export const chatSimulateEventBody = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('follow'), username: kickUsername }),
    z.object({ kind: z.literal('subscription'), username: kickUsername }),
    z.object({ kind: z.literal('renewal'), username: kickUsername }),
    z.object({
      kind: z.literal('gift'),
      /** Null: an anonymous gifter (every field null, as Kick sends it). */
      gifter: kickUsername.nullable(),
      giftees: z.array(kickUsername).min(1, 'name at least one giftee').max(50, 'at most 50 giftees'),
      /** When the gifted subs end (Kick's `expires_at`); a month when not given. */
      expiresInSeconds: z
        .number({ error: 'expiresInSeconds must be a whole number of seconds' })
        .int('expiresInSeconds must be a whole number of seconds')
        .min(1, 'expiresInSeconds must be at least 1')
        .max(31 * 24 * 3600, 'expiresInSeconds must be at most 31 days')
        .optional(),
    }),
    z.object({
      kind: z.literal('kicks'),
      username: kickUsername,
      amount: z
        .number({ error: 'amount must be a whole number of KICKs' })
        .int('amount must be a whole number of KICKs')
        .min(1, 'amount must be at least 1')
        .max(1_000_000, 'amount must be at most 1,000,000'),
    }),
    z.object({
      kind: z.literal('ban'),
      username: kickUsername,
      /** Null: a permanent ban; else a timeout of this many minutes. */
      minutes: z
        .number({ error: 'minutes must be a whole number' })
        .int('minutes must be a whole number')
        .min(1, 'minutes must be at least 1')
        .max(SIMULATED_BAN_MAX_MINUTES, `minutes must be at most ${SIMULATED_BAN_MAX_MINUTES}`)
        .nullable(),
      reason: z.string().trim().max(200, 'reason must be at most 200 characters').default(''),
    }),
    z.object({
      kind: z.literal('redemption'),
      username: kickUsername,
      rewardTitle: z.string().trim().min(1, 'name the reward').max(50, 'the reward title is at most 50 characters'),
      cost: z
        .number({ error: 'cost must be a whole number' })
        .int('cost must be a whole number')
        .min(1, 'cost must be at least 1')
        .max(10_000_000, 'cost is too large'),
    }),
    z.object({ kind: z.literal('stream-on') }),
    z.object({ kind: z.literal('stream-off') }),
    z.object({
      kind: z.literal('title'),
      title: z.string().trim().min(1, 'the title is empty').max(140, 'the title is at most 140 characters'),
    }),
  ],
  { error: `kind must be one of ${simulatedEventKinds.join(', ')}` },
);
export type ChatSimulateEventBody = z.input<typeof chatSimulateEventBody>;

export const chatSimulateEventResult = z.object({
  /** The webhook's HTTP status (200 when it was accepted). */
  status: z.number(),
  /** The Kick event type delivered. */
  type: z.string(),
  messageId: z.string(),
});
export type ChatSimulateEventResult = z.infer<typeof chatSimulateEventResult>;

/** Admin: the chat log and the chat simulator. */
export const chatEndpoints = {
  messages: defineEndpoint({ method: 'GET', path: '/api/admin/chat/messages', access: 'moderator', response: chatLog }),
  simulate: defineEndpoint({
    method: 'POST',
    path: '/api/admin/chat/simulate',
    access: 'moderator',
    body: chatSimulateBody,
    response: chatSimulateResult,
  }),
  simulateEvent: defineEndpoint({
    method: 'POST',
    path: '/api/admin/chat/simulate-event',
    access: 'moderator',
    body: chatSimulateEventBody,
    response: chatSimulateEventResult,
  }),
  /** The stream's live state alone (the admin Predictions page shows it). */
  liveState: defineEndpoint({
    method: 'GET',
    path: '/api/admin/chat/live',
    access: 'moderator',
    response: chatLiveState,
  }),
  live: defineEndpoint({
    method: 'POST',
    path: '/api/admin/chat/live',
    access: 'moderator',
    body: chatLiveBody,
    response: chatLiveResult,
  }),
};

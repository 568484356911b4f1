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

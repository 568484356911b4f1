import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Discord's limit on a message's content. */
export const DISCORD_MESSAGE_MAX = 2000;
/** Users an admin may pick by hand in one send (the audience switches may add thousands more). */
export const DISCORD_PICK_MAX = 5000;

/** `POST /api/Discord/sendmessage` (docs/product.md#site-calls): flags as booleans, users as an array. */
export const sendDiscordMessageBody = z.object({
  message: z
    .string({ error: 'Enter a message.' })
    .refine((s) => s.trim().length > 0, 'Enter a message.')
    .refine(
      (s) => s.length <= DISCORD_MESSAGE_MAX,
      `Keep the message to ${DISCORD_MESSAGE_MAX.toLocaleString('en-US')} characters or fewer.`,
    ),
  userIds: z
    .array(z.uuid({ error: 'Pick each user from the list.' }))
    .max(
      DISCORD_PICK_MAX,
      `Pick at most ${DISCORD_PICK_MAX.toLocaleString('en-US')} users by hand; use an audience switch for more.`,
    )
    .default([]),
  isIncludeClashActiveUsers: z.boolean().default(false),
  isIncludeClashNonActiveUsers: z.boolean().default(false),
  isAllDiscordLinkedUsers: z.boolean().default(false),
});
export type SendDiscordMessageBody = z.input<typeof sendDiscordMessageBody>;

export const noAudience = 'Pick at least one user, or switch on an audience below.';

/**
 * The sender's form: the body's rules, and an audience to send to (the server answers a send to
 * nobody with an empty result; the form says so before sending). The problem sits on `userIds`.
 */
export const discordMessageForm = sendDiscordMessageBody.superRefine((b, ctx) => {
  const anySwitch = b.isAllDiscordLinkedUsers || b.isIncludeClashActiveUsers || b.isIncludeClashNonActiveUsers;
  if (b.userIds.length === 0 && !anySwitch) ctx.addIssue({ code: 'custom', path: ['userIds'], message: noAudience });
});

export const broadcastStatus = z.enum(['pending', 'running', 'completed', 'failed']);
export type BroadcastStatus = z.infer<typeof broadcastStatus>;

export const recipientStatus = z.enum(['pending', 'sent', 'failed', 'skipped']);

/** Why a recipient did not get the message. */
export const recipientReason = z.enum([
  'dms_closed',
  'no_mutual_guild',
  'unknown_user',
  'not_linked',
  'unauthorized',
  'error',
  'not_sent',
]);
export type RecipientReason = z.infer<typeof recipientReason>;

export const recipientReasonText: Record<RecipientReason, string> = {
  // Discord answers 50007 both to closed DMs and to a user who shares no server with the bot.
  dms_closed: 'DMs closed or no shared server',
  no_mutual_guild: 'Not in a shared server',
  unknown_user: 'Unknown Discord user',
  not_linked: 'No Discord account linked',
  unauthorized: 'Bot token refused',
  error: 'Discord error',
  not_sent: 'Not sent (the broadcast stopped)',
};

/** One recipient of a broadcast (an item of the contract's users and failed lists). */
export const broadcastRecipient = z.object({
  userId: z.string().nullable(),
  username: z.string(),
  discordUsername: z.string().nullable(),
  discordId: z.string().nullable(),
  status: recipientStatus,
  reason: recipientReason.nullable(),
});
export type BroadcastRecipient = z.infer<typeof broadcastRecipient>;

export const broadcastSummary = z.object({
  id: z.string(),
  status: broadcastStatus,
  message: z.string(),
  total: z.number().int(),
  sentCount: z.number().int(),
  failedCount: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type BroadcastSummary = z.infer<typeof broadcastSummary>;

/**
 * The answer of the send and of `GET /api/Discord/broadcasts/:id`: the job's progress, and once it
 * finished the contract's `users` (succeeded) and `failed` lists (empty while it runs).
 */
export const broadcastResult = broadcastSummary.extend({
  users: z.array(broadcastRecipient),
  failed: z.array(broadcastRecipient),
});
export type BroadcastResult = z.infer<typeof broadcastResult>;

export const broadcastList = z.array(broadcastSummary);

/** `GET /api/Discord/bot`: where DMs go (the simulator has an inbox page to look at). */
export const discordBotInfo = z.object({
  mode: z.enum(['discord', 'simulator', 'off']),
  inboxUrl: z.string().nullable(),
});
export type DiscordBotInfo = z.infer<typeof discordBotInfo>;

export function isFinished(status: BroadcastStatus): boolean {
  return status === 'completed' || status === 'failed';
}

export const broadcastIdParams = z.object({ id: z.uuid() });

/** Admin: Discord direct messages to chosen users, sent by a background job. */
export const discordEndpoints = {
  /** 200 once the job finished, 202 while it still runs (poll `broadcast`). */
  send: defineEndpoint({
    method: 'POST',
    path: '/api/Discord/sendmessage',
    access: 'admin',
    body: sendDiscordMessageBody,
    response: broadcastResult,
    alsoStatus: [202],
  }),
  broadcast: defineEndpoint({
    method: 'GET',
    path: '/api/Discord/broadcasts/:id',
    access: 'admin',
    params: broadcastIdParams,
    response: broadcastResult,
  }),
  recent: defineEndpoint({ method: 'GET', path: '/api/Discord/broadcasts', access: 'admin', response: broadcastList }),
  bot: defineEndpoint({ method: 'GET', path: '/api/Discord/bot', access: 'admin', response: discordBotInfo }),
};

import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

/**
 * `GET /api/admin/integrations` (and `/healthz?details=1` for admins): every outside service, so an
 * operator sees at a glance why nothing is arriving.
 */
export const integrationMode = z.enum(['real', 'simulated', 'off']);
export type IntegrationMode = z.infer<typeof integrationMode>;

/** ok: working; failing: the last attempt failed; waiting: configured, nothing yet; off: not configured. */
export const integrationHealth = z.enum(['ok', 'failing', 'waiting', 'off']);
export type IntegrationHealth = z.infer<typeof integrationHealth>;

export const integrationRow = z.object({
  id: z.string(),
  group: z.enum(['Steam', 'Kick', 'Discord', 'Partners']),
  name: z.string(),
  mode: integrationMode,
  configured: z.boolean(),
  health: integrationHealth,
  /** What the mode means here ("Kick app 12ab…", "local simulator", "KICK_CHATROOM_ID not set"). */
  note: z.string(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastFailure: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  detail: z.string().nullable(),
});
export type IntegrationRow = z.infer<typeof integrationRow>;

export const kickBotStatus = z.object({
  mode: integrationMode,
  connected: z.boolean(),
  kickUsername: z.string().nullable(),
  scope: z.string().nullable(),
  expiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  refreshedAt: z.string().nullable(),
  refreshCount: z.number().int(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** Why connecting is not possible right now (no Kick app, no KICK_TOKEN_KEY), or null. */
  cannotConnect: z.string().nullable(),
  tokenKeySource: z.string().nullable(),
});
export type KickBotStatus = z.infer<typeof kickBotStatus>;

export const kickLive = z.object({
  /** null: Kick has not said (no livestream.status.updated received yet). */
  isLive: z.boolean().nullable(),
  title: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type KickLive = z.infer<typeof kickLive>;

/**
 * Reconcile: per Kick event type, whether it is wanted (its feature is on), how the event
 * subscriptions stand (the health of the "Event subscriptions" row: ok once Kick confirmed them,
 * failing while subscribing fails, waiting until the first check, off without a Kick app), the
 * last delivery and the deliveries of the last 24 hours — so an event Kick stopped sending shows.
 */
export const kickEventStat = z.object({
  type: z.string(),
  subscribed: z.boolean(),
  subscription: integrationHealth,
  lastDeliveryAt: z.string().nullable(),
  last24h: z.number().int(),
});
export type KickEventStat = z.infer<typeof kickEventStat>;

/** A feature that is on, the OAuth scopes it needs and those the connected bot token lacks. */
export const kickFeatureScopes = z.object({
  id: z.string(),
  label: z.string(),
  scopes: z.array(z.string()),
  missing: z.array(z.string()),
});
export type KickFeatureScopes = z.infer<typeof kickFeatureScopes>;

/**
 * How bot messages reach Kick chat (docs/features/kick-chat-queue.md): `streamer` posts with the
 * streamer's own account as `type: "bot"`; `bot-account` posts with a separately connected bot
 * account as `type: "user"` into the broadcaster's channel.
 */
export const kickChatMode = z.enum(['streamer', 'bot-account']);
export type KickChatMode = z.infer<typeof kickChatMode>;

/** What Kick's last refusal suggests doing, shown on Admin → Integrations. */
export const kickChatHint = z.enum(['try-bot-account', 'enable-bot-setting', 'wrong-account']);
export type KickChatHint = z.infer<typeof kickChatHint>;
export const KICK_CHAT_HINTS: Record<KickChatHint, string> = {
  'try-bot-account':
    'Kick answered 500 to a post as type "bot" (a known Kick problem). Try posting with a separate bot account instead.',
  'enable-bot-setting':
    "Kick says the channel was not found: turn on the bot setting of your app in Kick's developer settings, then try again.",
  'wrong-account':
    "The connected account is not the broadcaster (KICK_BROADCASTER_USER_ID): with the streamer's own account, connect the streamer's Kick account.",
};

/** The outgoing chat queue: totals since the site first ran, and the posting mode. */
export const kickChatQueue = z.object({
  mode: kickChatMode,
  waiting: z.number().int(),
  sent: z.number().int(),
  merged: z.number().int(),
  dropped: z.number().int(),
  throttled: z.number().int(),
  failed: z.number().int(),
  pausedUntil: z.string().nullable(),
  /** Paused by Kick's daily chat-message quota until this UTC midnight (null: not). */
  quotaUntil: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  hint: kickChatHint.nullable(),
  /** One message per this many milliseconds, bursts of `burst`; acknowledgements older than `maxAgeSeconds` are dropped. */
  intervalMs: z.number().int(),
  burst: z.number().int(),
  maxAgeSeconds: z.number().int(),
  botAccount: z.object({ connected: z.boolean(), kickUsername: z.string().nullable() }),
});
export type KickChatQueue = z.infer<typeof kickChatQueue>;

export const kickChatModeBody = z.object({ mode: kickChatMode });

export const integrationsOverview = z.object({
  checkedAt: z.string(),
  rows: z.array(integrationRow),
  kickBot: kickBotStatus,
  kickLive,
  kickEvents: z.array(kickEventStat),
  kickFeatures: z.array(kickFeatureScopes),
  kickChat: kickChatQueue,
});
export type IntegrationsOverview = z.infer<typeof integrationsOverview>;

export const KICK_BOT_WHOSE_ACCOUNT =
  "Connect the streamer's Kick account: with type \"bot\" Kick posts into the channel of the token's owner, so a separate bot account would post in its own channel, not the stream's.";

/**
 * Admin → Go live (docs/go-live.md): each part a live channel needs, ready or not, and what to do
 * when not — with the value to paste on the other side (the webhook URL, the OAuth redirect).
 */
export const goLiveState = z.enum(['ready', 'todo', 'optional']);
export type GoLiveState = z.infer<typeof goLiveState>;
export const goLiveItem = z.object({
  id: z.string(),
  label: z.string(),
  /** ready; todo: needed before going live; optional: only if the streamer uses it. */
  state: goLiveState,
  /** What is there now, or exactly what to do. */
  detail: z.string(),
  /** A value to paste where the other side asks for it (shown with a Copy button), or null. */
  copy: z.string().nullable(),
});
export type GoLiveItem = z.infer<typeof goLiveItem>;
export const goLiveChecklist = z.object({
  /** Every item is ready or optional. */
  ready: z.boolean(),
  sections: z.array(z.object({ title: z.string(), items: z.array(goLiveItem) })),
});
export type GoLiveChecklist = z.infer<typeof goLiveChecklist>;

/** A finished draw, game or board demo accounts took part in: kept as announced by the removal. */
export const finishedEvent = z.object({
  kind: z.enum(['raffle', 'hunt', 'splitOrSteal', 'battle', 'giveaway', 'prediction']),
  title: z.string(),
  /** Its public page (the verify page where there is one). */
  href: z.string().nullable(),
});
export type FinishedEvent = z.infer<typeof finishedEvent>;
export const demoDataPreview = z.object({ finishedEvents: z.array(finishedEvent) });
export type DemoDataPreview = z.infer<typeof demoDataPreview>;

export const integrationEndpoints = {
  goLive: defineEndpoint({
    method: 'GET',
    path: '/api/admin/go-live',
    access: 'admin',
    response: goLiveChecklist,
  }),
  /** Admin → Go live → Remove demo data (docs/go-live.md): what `npm start` seeded, real users' data kept. */
  /** What the removal's confirmation lists: the finished events demo accounts took part in. */
  demoDataPreview: defineEndpoint({
    method: 'GET',
    path: '/api/admin/demo-data',
    access: 'admin',
    response: demoDataPreview,
  }),
  removeDemoData: defineEndpoint({
    method: 'POST',
    path: '/api/admin/demo-data/remove',
    access: 'admin',
    response: messageBody,
  }),
  overview: defineEndpoint({
    method: 'GET',
    path: '/api/admin/integrations',
    access: 'admin',
    response: integrationsOverview,
  }),
  /** Where to send the admin to authorise the Kick bot. */
  connectKickBot: defineEndpoint({
    method: 'POST',
    path: '/api/admin/integrations/kick-bot/connect',
    access: 'admin',
    response: z.object({ url: z.string() }),
  }),
  disconnectKickBot: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/integrations/kick-bot',
    access: 'admin',
    response: messageBody,
  }),
  /** Admin → Integrations → Bot messages: which account posts (docs/features/kick-chat-queue.md). */
  setKickChatMode: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/integrations/kick-chat/mode',
    access: 'admin',
    body: kickChatModeBody,
    response: messageBody,
  }),
  /** Where to send the admin to authorise the separate bot account. */
  connectKickBotAccount: defineEndpoint({
    method: 'POST',
    path: '/api/admin/integrations/kick-bot-account/connect',
    access: 'admin',
    response: z.object({ url: z.string() }),
  }),
  disconnectKickBotAccount: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/integrations/kick-bot-account',
    access: 'admin',
    response: messageBody,
  }),
};

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
 * Reconcile: per Kick event type, whether it is subscribed (its feature is on), the last delivery
 * and the deliveries of the last 24 hours — so an event Kick stopped sending shows.
 */
export const kickEventStat = z.object({
  type: z.string(),
  subscribed: z.boolean(),
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

export const integrationsOverview = z.object({
  checkedAt: z.string(),
  rows: z.array(integrationRow),
  kickBot: kickBotStatus,
  kickLive,
  kickEvents: z.array(kickEventStat),
  kickFeatures: z.array(kickFeatureScopes),
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

export const integrationEndpoints = {
  goLive: defineEndpoint({
    method: 'GET',
    path: '/api/admin/go-live',
    access: 'admin',
    response: goLiveChecklist,
  }),
  /** Admin → Go live → Remove demo data (docs/go-live.md): what `npm start` seeded, real users' data kept. */
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
};

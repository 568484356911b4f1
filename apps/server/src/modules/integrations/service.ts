/**
 * The Integrations overview: for Steam, Kick (webhooks, public key, subscriptions, chat websocket,
 * bot token), Discord and each partner — real or simulated, configured or not, last success, last
 * failure with its reason, next attempt — and the stream's live state. Facts this process saw come
 * from `app.integrationStatus`; facts every process shares (partner polls, the bot token, webhook
 * deliveries, the live state, the event subscriptions' newest check) from the database.
 */
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, inArray, isNotNull, max } from 'drizzle-orm';
import { leaderboardSites as siteList } from '@kickback/common/http/leaderboards';
import type {
  IntegrationHealth,
  IntegrationMode,
  IntegrationRow,
  IntegrationsOverview,
} from '@kickback/common/http/integrations';
import { chatMessages, kickWebhookDeliveries } from '../../db/schema/chat';
import { discordBroadcastRecipients, discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { kickLiveState } from '../../db/schema/kick-bot';
import { leaderboardSites } from '../../db/schema/leaderboards';
import type { SourceState, StatusSource } from '../../integrations/status-sources';
import { kickEventStats, kickFeatureScopes } from './kick-events';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);

function health(configured: boolean, success: Date | null, failure: Date | null, down: boolean): IntegrationHealth {
  if (!configured) return 'off';
  if (failure && (down || !success || failure >= success)) return 'failing';
  return success ? 'ok' : 'waiting';
}

interface RowInput {
  id: string;
  group: IntegrationRow['group'];
  name: string;
  mode: IntegrationMode;
  note: string;
  state?: SourceState;
  lastSuccessAt?: Date | null;
  lastFailureAt?: Date | null;
  lastFailure?: string | null;
  nextAttemptAt?: Date | null;
  detail?: string | null;
  /** Nothing to wait for (a local key): healthy unless a failure says otherwise. */
  readyWithoutUse?: boolean;
  /** The last failure was one person's refusal (their DMs closed), not the service's: shown, but healthy. */
  failureIsRecipients?: boolean;
}

function row(input: RowInput): IntegrationRow {
  const s = input.state;
  const success = later(s?.lastSuccessAt ?? null, input.lastSuccessAt ?? null);
  const failure = later(s?.lastFailureAt ?? null, input.lastFailureAt ?? null);
  const failureText =
    failure && s?.lastFailureAt && failure.getTime() === s.lastFailureAt.getTime()
      ? s.lastFailure
      : (input.lastFailure ?? s?.lastFailure ?? null);
  const configured = input.mode !== 'off';
  const recipientsOnly = input.failureIsRecipients && failure && !s?.down;
  return {
    id: input.id,
    group: input.group,
    name: input.name,
    mode: input.mode,
    configured,
    health:
      input.readyWithoutUse && !failure
        ? 'ok'
        : recipientsOnly
          ? health(configured, success ?? failure, null, false)
          : health(configured, success, failure, s?.down ?? false),
    note: input.note,
    lastSuccessAt: iso(success),
    lastFailureAt: iso(failure),
    lastFailure: failure ? failureText : null,
    nextAttemptAt: iso(input.nextAttemptAt ?? s?.nextAttemptAt ?? null),
    detail: input.detail ?? s?.detail ?? null,
  };
}

/** Why Discord refused a direct message, as the operator reads it (recipient reasons, worker.ts). */
const dmRefusals: Record<string, { text: string; recipients: boolean }> = {
  dms_closed: { text: 'Discord 50007: Cannot send messages to this user (their DMs are closed)', recipients: true },
  no_mutual_guild: { text: 'Discord 50278: the user shares no server with the bot', recipients: true },
  unknown_user: { text: 'Discord 10013: Unknown User', recipients: true },
  unauthorized: { text: 'Discord 401: the bot token was refused (DISCORD_BOT_TOKEN)', recipients: false },
  error: { text: 'Discord did not take the message (see the server log)', recipients: false },
};

/**
 * The bot's use, from the broadcasts every process records: the last message Discord took, the
 * last one it refused (with the reason), and the counts of the newest broadcast.
 */
async function discordBotUse(app: FastifyInstance): Promise<Partial<RowInput>> {
  const r = discordBroadcastRecipients;
  const [[sent], [refused], [newest]] = await Promise.all([
    app.db
      .select({ at: max(r.doneAt) })
      .from(r)
      .where(eq(r.status, 'sent')),
    app.db
      .select({ at: r.doneAt, reason: r.reason })
      .from(r)
      .where(and(eq(r.status, 'failed'), inArray(r.reason, Object.keys(dmRefusals)), isNotNull(r.doneAt)))
      .orderBy(desc(r.doneAt), desc(r.id))
      .limit(1),
    app.db
      .select({ sent: discordBroadcasts.sent, failed: discordBroadcasts.failed, status: discordBroadcasts.status })
      .from(discordBroadcasts)
      .orderBy(desc(discordBroadcasts.createdAt))
      .limit(1),
  ]);
  const refusal = refused?.reason ? dmRefusals[refused.reason] : undefined;
  return {
    lastSuccessAt: sent?.at ?? null,
    lastFailureAt: refused?.at ?? null,
    lastFailure: refusal?.text ?? null,
    failureIsRecipients: refusal?.recipients ?? false,
    detail: newest ? `last broadcast (${newest.status}): ${newest.sent} sent, ${newest.failed} failed` : null,
  };
}

export async function integrationsOverview(app: FastifyInstance): Promise<IntegrationsOverview> {
  const { config } = app;
  const { steam } = config;
  const kick = app.credentials.kick();
  const discord = app.credentials.discord();
  // A source one process at a time works on (the Kick event subscriptions) as the newest report
  // of any process left it; the others as this process saw them.
  const shared = await app.sharedStatus.all();
  const status = (source: StatusSource) => shared.get(source) ?? app.integrationStatus.get(source);
  const rows: IntegrationRow[] = [];

  rows.push(
    row({
      id: 'steam',
      group: 'Steam',
      name: 'Steam sign-in',
      mode: steam.signin === 'steam' ? 'real' : 'simulated',
      note:
        steam.signin === 'steam'
          ? `OpenID at ${steam.openIdUrl}; profiles ${steam.apiKey ? 'with STEAM_API_KEY' : 'off (no STEAM_API_KEY)'}`
          : 'dev identity provider (STEAM_SIGNIN=dev)',
      state: status('steam'),
    }),
  );

  // Chat messages are their own delivery records (the chat ingest); other events keep a deliveries row.
  const [[otherEvent], [chat]] = await Promise.all([
    app.db.select({ at: max(kickWebhookDeliveries.receivedAt) }).from(kickWebhookDeliveries),
    app.db
      .select({ at: max(chatMessages.receivedAt) })
      .from(chatMessages)
      .where(inArray(chatMessages.source, ['kick-webhook', 'simulator'])),
  ]);
  const newest = Math.max(otherEvent?.at?.getTime() ?? 0, chat?.at?.getTime() ?? 0);
  const lastDelivery = { at: newest > 0 ? new Date(newest) : null };
  const webhooksMode: IntegrationMode = kick.app ? 'real' : kick.simulator ? 'simulated' : 'off';
  rows.push(
    row({
      id: 'kick.webhooks',
      group: 'Kick',
      name: 'Webhooks (chat, subscriptions, live state)',
      mode: webhooksMode,
      note: kick.app
        ? `Kick app ${kick.app.clientId.slice(0, 6)}…, channel ${kick.broadcasterUserId ?? '?'} — the recommended chat source`
        : kick.simulator
          ? 'chat simulator (Admin → Chat Simulator) through the signed webhook'
          : 'no Kick app (KICK_CLIENT_ID) and no simulator',
      state: status('kick.webhooks'),
      lastSuccessAt: lastDelivery?.at ?? null,
      detail: lastDelivery?.at ? 'last delivery accepted' : null,
    }),
  );
  rows.push(
    row({
      id: 'kick.publicKey',
      group: 'Kick',
      name: 'Webhook public key',
      mode: kick.webhookPublicKey || kick.app ? 'real' : kick.simulator ? 'simulated' : 'off',
      note: kick.webhookPublicKey
        ? 'KICK_WEBHOOK_PUBLIC_KEY (override)'
        : kick.app
          ? "Kick's key, fetched with the app token"
          : kick.simulator
            ? "the chat simulator's key"
            : 'none: every webhook is refused',
      state: status('kick.publicKey'),
      readyWithoutUse: Boolean(kick.webhookPublicKey) || (!kick.app && kick.simulator),
    }),
  );
  rows.push(
    row({
      id: 'kick.subscriptions',
      group: 'Kick',
      name: 'Event subscriptions',
      mode: kick.app && kick.broadcasterUserId ? 'real' : 'off',
      note: kick.app ? 'checked at start and every 6 h (Kick unsubscribes a failing app)' : 'needs a Kick app',
      state: status('kick.subscriptions'),
    }),
  );
  rows.push(
    row({
      id: 'kick.websocket',
      group: 'Kick',
      name: 'Chat websocket (Pusher, optional)',
      mode: kick.chatroomId ? 'real' : 'off',
      note: kick.chatroomId
        ? `chatrooms.${kick.chatroomId}.v2 — unofficial and may be gone; prefer webhooks`
        : 'KICK_CHATROOM_ID not set (webhooks recommended)',
      state: status('kick.websocket'),
    }),
  );

  const bot = kick.bot;
  const botState = app.kickBot ? await app.kickBot.tokens.state() : null;
  rows.push(
    row({
      id: 'kick.bot',
      group: 'Kick',
      name: 'Bot token (chat replies)',
      mode: bot.mode === 'kick' ? 'real' : bot.mode === 'simulator' ? 'simulated' : 'off',
      note:
        bot.mode === 'off'
          ? 'needs a Kick app (KICK_CLIENT_ID)'
          : botState?.connected
            ? `connected as ${botState.kickUsername ?? '?'}; refreshed ${botState.refreshCount} time(s)`
            : 'not connected: replies are only logged',
      state: status('kick.bot'),
      lastSuccessAt: botState?.refreshedAt ?? botState?.connectedAt ?? null,
      lastFailureAt: botState?.lastErrorAt ?? null,
      lastFailure: botState?.lastError ?? null,
      // The next refresh is due 5 minutes before the token expires.
      nextAttemptAt: botState?.expiresAt ? new Date(botState.expiresAt.getTime() - 5 * 60_000) : null,
      detail: botState?.connected ? 'connected or refreshed' : null,
    }),
  );

  rows.push(
    row({
      id: 'discord.oauth',
      group: 'Discord',
      name: 'Account linking (OAuth)',
      mode: discord.oauth === 'discord' ? 'real' : discord.oauth === 'dev' ? 'simulated' : 'off',
      note:
        discord.oauth === 'discord'
          ? `application ${discord.clientId}`
          : discord.oauth === 'dev'
            ? 'local Discord simulator'
            : 'DISCORD_OAUTH=off',
      state: status('discord.oauth'),
    }),
  );
  rows.push(
    row({
      id: 'discord.bot',
      group: 'Discord',
      name: 'Bot (direct messages)',
      mode: discord.bot.mode === 'discord' ? 'real' : discord.bot.mode === 'simulator' ? 'simulated' : 'off',
      note:
        discord.bot.mode === 'off'
          ? 'DISCORD_BOT_TOKEN not set'
          : 'users must share a server with the bot (else 50007)',
      state: status('discord.bot'),
      ...(await discordBotUse(app)),
    }),
  );

  const sites = await app.db.select().from(leaderboardSites);
  for (const site of siteList) {
    const r = sites.find((s) => s.site === site.id);
    const mode = app.leaderboards.providerMode(site.id);
    rows.push(
      row({
        id: `partner.${site.slug}`,
        group: 'Partners',
        name: site.name,
        mode: mode === 'partner' ? 'real' : mode === 'simulator' ? 'simulated' : 'off',
        note: mode === 'partner' ? 'partner API' : mode === 'simulator' ? 'local simulator' : 'no key configured',
        lastSuccessAt: r?.lastSuccessAt ?? null,
        lastFailureAt: r?.lastErrorAt ?? null,
        lastFailure: r?.lastError ?? null,
        nextAttemptAt: r && Number.isFinite(r.nextPollAt.getTime()) ? r.nextPollAt : null,
      }),
    );
  }

  const [live] = await app.db.select().from(kickLiveState);
  return {
    checkedAt: app.clock.now().toISOString(),
    rows,
    kickBot: {
      mode: bot.mode === 'kick' ? 'real' : bot.mode === 'simulator' ? 'simulated' : 'off',
      connected: botState?.connected ?? false,
      kickUsername: botState?.kickUsername ?? null,
      scope: botState?.scope ?? null,
      expiresAt: iso(botState?.expiresAt),
      connectedAt: iso(botState?.connectedAt),
      refreshedAt: iso(botState?.refreshedAt),
      refreshCount: botState?.refreshCount ?? 0,
      lastError: botState?.lastError ?? null,
      lastErrorAt: iso(botState?.lastErrorAt),
      cannotConnect:
        bot.mode === 'off'
          ? 'Set KICK_CLIENT_ID and KICK_CLIENT_SECRET (a Kick app) to connect a bot.'
          : bot.tokenKey
            ? null
            : 'Set KICK_TOKEN_KEY (32+ characters): the bot token is stored encrypted with it.',
      tokenKeySource: bot.mode === 'off' ? null : bot.tokenKeySource,
    },
    kickLive: { isLive: live?.isLive ?? null, title: live?.title ?? null, changedAt: iso(live?.changedAt) },
    kickEvents: await kickEventStats(app, rows.find((r) => r.id === 'kick.subscriptions')?.health ?? 'off'),
    kickFeatures: kickFeatureScopes(app, botState?.connected ? (botState.scope ?? '') : null),
    kickChat: await app.chatOut.overview(),
  };
}

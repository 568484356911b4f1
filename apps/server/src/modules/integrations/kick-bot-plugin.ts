/**
 * The Kick bot (`app.kickBot`): its token store when a Kick app or the Kick simulator is there,
 * the simulator's Kick endpoints under /dev/kick outside production, and the admin's "Connect Kick
 * bot" routes: start (`POST /api/admin/integrations/kick-bot/connect` → Kick's consent URL), the
 * OAuth callback (`GET /auth/kick/bot/callback`, admins only, back to the Integrations page) and
 * disconnect (`DELETE /api/admin/integrations/kick-bot`).
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { z } from 'zod';
import { KICK_SIMULATOR_PATH, type KickBotConfig } from '../../config';
import { KickApi } from '../../integrations/kick/api';
import { kickBotSimulatorRoutes, KickSimulatorState } from '../../integrations/kick/bot-simulator';
import { KickBotError, KickBotTokens } from '../../integrations/kick/bot-token';
import { scopesToAsk } from '../../integrations/kick/features';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { actorOf, recordAudit } from '../audit/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Null when neither a Kick app nor the simulator is configured. */
    kickBot: { tokens: KickBotTokens; botAccount: KickBotTokens; api: KickApi } | null;
    kickSimulator: KickSimulatorState | null;
  }
}

const PAGE = '/admin/integrations';
/** The read-cache prefix whose invalidation tells every process to read the bot's tokens again. */
export const KICK_BOT_TOKENS_READ = 'kick-bot-tokens:';

export const kickBotPlugin = plugin({
  name: 'kickBotPlugin',
  dependencies: ['chatModule', 'chatOutModule', 'credentialsPlugin', 'integrationStatusPlugin', 'leaderboardsModule'],
})(async (app: FastifyInstance) => {
  // The token store and API follow the credentials (Admin → Settings → Integrations): rebuilt when
  // the bot's configuration changes, null while it is off.
  let current: {
    config: KickBotConfig;
    bot: { tokens: KickBotTokens; botAccount: KickBotTokens; api: KickApi };
  } | null = null;
  app.decorate('kickBot', {
    getter: () => {
      const { bot } = app.credentials.kick();
      if (bot.mode === 'off') return null;
      if (current?.config !== bot) {
        // A change of the stored tokens here reaches the other processes' held copies.
        const changed = () => app.reads.invalidate(KICK_BOT_TOKENS_READ);
        const tokens = new KickBotTokens(app.db, bot, app.http, app.clock, 1, changed);
        // The separate bot account of the "bot account" posting mode (docs/features/kick-chat-queue.md).
        const botAccount = new KickBotTokens(app.db, bot, app.http, app.clock, 2, changed);
        const api = new KickApi({
          apiUrl: bot.apiUrl,
          oauthUrl: bot.oauthUrl,
          app: null,
          http: app.http,
          clock: app.clock,
        });
        current = { config: bot, bot: { tokens, botAccount, api } };
      }
      return current.bot;
    },
  });
  app.reads.onDrop((prefix) => {
    if (!KICK_BOT_TOKENS_READ.startsWith(prefix) || !current) return;
    current.bot.tokens.forget();
    current.bot.botAccount.forget();
  });
  // The simulator's Kick endpoints are there when the server started with the simulator.
  const { bot } = app.config.kick;
  const simulator = bot.mode === 'simulator' ? new KickSimulatorState(app.config.kick.simulatorChatLimit) : null;
  app.decorate('kickSimulator', simulator);
  if (bot.mode === 'simulator' && simulator) {
    await app.register(
      (scope) =>
        kickBotSimulatorRoutes(scope, { config: bot, state: simulator, defaultUser: app.config.site.kickChannel }),
      { prefix: KICK_SIMULATOR_PATH },
    );
  }
  const botNow = () => {
    const now = app.kickBot;
    if (!now) throw new KickBotError('off', 'Set the Kick app keys on Admin → Settings → Integrations first.', 503);
    return now;
  };

  for (const [endpoint, slot] of [
    [integrationEndpoints.connectKickBot, 'tokens'],
    [integrationEndpoints.connectKickBotAccount, 'botAccount'],
  ] as const) {
    route(app, endpoint, async (request, reply) => {
      try {
        // The bot account only posts: it asks for the configured scopes, not the features' ones.
        const scopes = slot === 'tokens' ? scopesToAsk(app.chat.kickEvents) : undefined;
        return { url: await botNow()[slot].connectUrl(currentUser(request).id, scopes) };
      } catch (err) {
        if (err instanceof KickBotError) return reply.status(err.status).send({ message: err.publicMessage });
        throw err;
      }
    });
  }

  app.get('/auth/kick/bot/callback', { config: { access: 'admin' } }, async (request, reply) => {
    const admin = currentUser(request);
    const q = z
      .object({
        state: z.string().min(1).max(200),
        code: z.string().min(1).max(500).optional(),
        error: z.string().max(100).optional(),
      })
      .safeParse(request.query);
    const back = (params: Record<string, string>) =>
      reply.redirect(`${PAGE}?${new URLSearchParams(params).toString()}`, 303);
    if (!q.success) return back({ kickBot: 'error', message: 'Kick sent an incomplete answer.' });
    if (q.data.error || !q.data.code) {
      return back({
        kickBot: 'error',
        message: q.data.error === 'access_denied' ? 'Access was denied on Kick.' : 'Kick did not connect the bot.',
      });
    }
    try {
      const bot = botNow();
      const store = (await KickBotTokens.slotOf(app.db, q.data.state)) === 2 ? bot.botAccount : bot.tokens;
      const state = await store.finish(admin.id, q.data.state, q.data.code);
      await recordAudit(app.db, actorOf(admin), {
        action: store === bot.botAccount ? 'kick.bot-account.connect' : 'kick.bot.connect',
        targetType: 'kick_bot',
        targetId: state.kickUserId ?? '',
        after: { kickUsername: state.kickUsername, scope: state.scope },
      });
      app.integrationStatus.succeeded('kick.bot', `connected as ${state.kickUsername ?? '?'}`);
      return back({ kickBot: 'connected' });
    } catch (err) {
      request.log.warn({ err }, 'kick bot connect failed');
      const message =
        err instanceof KickBotError ? err.publicMessage : 'Connecting the Kick bot failed; the log says why.';
      return back({ kickBot: 'error', message });
    }
  });

  route(app, integrationEndpoints.disconnectKickBot, async (request, reply) => {
    const admin = currentUser(request);
    const bot = app.kickBot;
    if (!bot || !(await bot.tokens.disconnect()))
      return reply.status(404).send({ message: 'No Kick bot is connected.' });
    await recordAudit(app.db, actorOf(admin), { action: 'kick.bot.disconnect', targetType: 'kick_bot' });
    return { message: 'Kick bot disconnected.' };
  });

  route(app, integrationEndpoints.disconnectKickBotAccount, async (request, reply) => {
    const admin = currentUser(request);
    const bot = app.kickBot;
    if (!bot || !(await bot.botAccount.disconnect()))
      return reply.status(404).send({ message: 'No bot account is connected.' });
    await recordAudit(app.db, actorOf(admin), { action: 'kick.bot-account.disconnect', targetType: 'kick_bot' });
    return { message: 'Bot account disconnected.' };
  });
});

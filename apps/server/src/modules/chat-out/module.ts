/**
 * The outgoing Kick chat queue as `app.chatOut` (docs/features/kick-chat-queue.md): the queue over
 * the database, the poster that speaks as the chosen account (the streamer's, `type: "bot"`, or a
 * separate bot account, `type: "user"`), its sender loop in a listening server, its figures in
 * `/metrics`, and the admin's posting-mode switch.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { Gauge } from 'prom-client';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { postAsBot } from '../../integrations/kick/bot-chat';
import { ChatQueue, type ChatPoster } from '../../integrations/kick/chat-queue';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf, recordAudit } from '../audit/service';
import type { ChatOutService } from './service';

/** How often a listening server's sender looks at the queue (at most). */
const TICK_MS = 250;

export const chatOutModule = plugin({
  name: 'chatOutModule',
  dependencies: ['credentialsPlugin', 'integrationStatusPlugin', 'metricsPlugin'],
})(async (app: FastifyInstance) => {
  const { kick } = app.config;
  /** The channel a bot account posts into: KICK_BROADCASTER_USER_ID, or the simulated streamer's id. */
  const broadcaster = () =>
    app.credentials.kick().broadcasterUserId ??
    (kick.bot.mode === 'simulator' ? simulatedKickUserId(app.config.site.kickChannel) : undefined);

  const poster: ChatPoster = async ({ content, replyTo }, mode) => {
    const bot = app.kickBot;
    if (!bot) return { posted: false, reason: 'not-connected' };
    if (mode === 'bot-account') {
      const channel = broadcaster();
      if (!channel) return { posted: false, reason: 'wrong-account' };
      return postAsBot(
        bot.botAccount,
        bot.api,
        content,
        replyTo,
        { type: 'user', broadcasterUserId: channel },
        app.integrationStatus,
      );
    }
    // type "bot" posts into the token owner's channel: it must be the broadcaster's account.
    const { broadcasterUserId } = app.credentials.kick();
    if (broadcasterUserId) {
      const who = await bot.tokens.state();
      if (who.connected && who.kickUserId !== broadcasterUserId) return { posted: false, reason: 'wrong-account' };
    }
    return postAsBot(bot.tokens, bot.api, content, replyTo, { type: 'bot' }, app.integrationStatus);
  };

  const queue = new ChatQueue(app.database, app.clock, kick.chatQueue, poster, app.log);
  const service: ChatOutService = {
    enqueue: (...messages) => queue.enqueue(...messages),
    pump: () => queue.pump(),
    stats: () => queue.stats(),
    setMode: (mode) => queue.setMode(mode),
    postNow: async (content) => poster({ content, replyTo: undefined }, (await queue.stats()).postingMode),
    async overview() {
      const s = await queue.stats();
      const account = app.kickBot ? await app.kickBot.botAccount.state() : null;
      return {
        mode: s.postingMode,
        waiting: s.waiting,
        sent: s.sent,
        merged: s.merged,
        dropped: s.dropped,
        throttled: s.throttled,
        failed: s.failed,
        pausedUntil: s.pausedUntil?.toISOString() ?? null,
        quotaUntil: s.quotaUntil?.toISOString() ?? null,
        lastError: s.lastError,
        lastErrorAt: s.lastErrorAt?.toISOString() ?? null,
        hint: s.hint,
        intervalMs: kick.chatQueue.intervalMs,
        burst: kick.chatQueue.burst,
        maxAgeSeconds: Math.round(kick.chatQueue.maxAgeMs / 1000),
        botAccount: { connected: account?.connected ?? false, kickUsername: account?.kickUsername ?? null },
      };
    },
  };
  app.decorate('chatOut', service);

  if (app.metricsRegistry) {
    const registry = app.metricsRegistry;
    const figures = [
      ['waiting', 'Bot messages waiting in the outgoing Kick chat queue'],
      ['sent', 'Bot messages Kick accepted (all processes)'],
      ['merged', 'Queued bot messages folded into another one (all processes)'],
      ['dropped', 'Acknowledgements dropped from chat for waiting too long (all processes)'],
      ['throttled', "Kick's 429 answers to bot messages (all processes)"],
      ['failed', 'Bot messages Kick refused or that could not be posted (all processes)'],
    ] as const;
    for (const [key, help] of figures) {
      new Gauge({
        name: `kickback_chat_out_${key}`,
        help,
        registers: [registry],
        async collect() {
          this.set((await queue.stats())[key]);
        },
      });
    }
  }

  route(app, integrationEndpoints.setKickChatMode, async (request) => {
    const admin = currentUser(request);
    const before = (await queue.stats()).postingMode;
    await queue.setMode(request.body.mode);
    await recordAudit(app.db, actorOf(admin), {
      action: 'kick.chat.mode',
      targetType: 'kick_bot',
      before: { mode: before },
      after: { mode: request.body.mode },
    });
    return {
      message:
        request.body.mode === 'streamer'
          ? "Bot messages now post with the streamer's account."
          : 'Bot messages now post with the bot account.',
    };
  });

  // The sender runs in a listening server only (not in tests or shell commands, which pump by hand).
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    const tick = () => void queue.pump().catch((err: unknown) => app.log.warn({ err }, 'chat queue round failed'));
    timer = setInterval(tick, Math.min(TICK_MS, kick.chatQueue.intervalMs));
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (!timer) return;
    clearInterval(timer);
    timer = null;
    await queue.release().catch(() => undefined);
  });
  // What is being queued is written before the database closes.
  app.addHook('onClose', () => queue.drain());
});

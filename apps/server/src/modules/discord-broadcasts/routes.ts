/**
 * Discord broadcasts (admin): `POST /api/Discord/sendmessage` (docs/product.md#site-calls) starts a background
 * job and answers its result at once when it is small and finishes within a few seconds (200),
 * else its progress (202) for the page to poll at `GET /api/Discord/broadcasts/:id`;
 * `GET /api/Discord/broadcasts` lists the recent ones; `GET /api/Discord/bot` says where DMs go.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { discordEndpoints, isFinished } from '@kickback/common/http/discord';
import { DISCORD_SIMULATOR_PATH, type DiscordBotConfig } from '../../config';
import { createDiscordDmSender, type DiscordDmSender } from '../../integrations/discord/bot';
import { AppError } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { createBroadcast } from './create';
import { loadBroadcast, recentBroadcasts } from './read';
import { BroadcastWorker } from './worker';

/** Sends this small are awaited (up to INLINE_WAIT_MS) so the answer carries the result lists. */
export const INLINE_MAX = 25;
export const INLINE_WAIT_MS = 5000;

declare module 'fastify' {
  interface FastifyInstance {
    discordBroadcasts: BroadcastWorker;
  }
}

export const discordBroadcastsModule = plugin({
  name: 'discordBroadcastsModule',
  dependencies: ['credentialsPlugin'],
})(async (app: FastifyInstance) => {
  // One sender per bot configuration: a token changed on Admin → Settings gets a new one.
  let current: { config: DiscordBotConfig; sender: DiscordDmSender } | null = null;
  const sender = (): DiscordDmSender | null => {
    const { bot } = app.credentials.discord();
    if (bot.mode === 'off') return null;
    if (current?.config !== bot) {
      current?.sender.close();
      current = { config: bot, sender: createDiscordDmSender(bot, app.http) };
    }
    return current.sender;
  };
  const worker = new BroadcastWorker(app, sender);
  app.decorate('discordBroadcasts', worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());

  route(
    app,
    discordEndpoints.send,
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request, reply) => {
      if (!sender()) {
        throw new AppError(503, 'Discord messages are not set up on this server (DISCORD_BOT_TOKEN is missing).');
      }
      const admin = currentUser(request);
      const created = await createBroadcast(app.db, actorOf(admin), request.body, app.clock.now());
      if (created.pending > 0) {
        const inline = created.pending <= INLINE_MAX ? worker.waitFor(created.id, INLINE_WAIT_MS) : null;
        void worker.kick();
        if (inline) await inline;
      }
      const result = await loadBroadcast(app.db, created.id);
      return reply.status(isFinished(result.status) ? 200 : 202).send(result);
    },
  );

  route(app, discordEndpoints.broadcast, async (request) => loadBroadcast(app.db, request.params.id));

  route(app, discordEndpoints.recent, async () => recentBroadcasts(app.db));

  route(app, discordEndpoints.bot, async () => {
    const { bot } = app.credentials.discord();
    return { mode: bot.mode, inboxUrl: bot.mode === 'simulator' ? `${DISCORD_SIMULATOR_PATH}/inbox` : null };
  });
});

/**
 * Discord roles and go-live posts (docs/features/discord-roles.md): the role queue and its sweep
 * and nightly reconcile (`app.discordRoles`), the go-live post from Kick's live event, and the admin
 * calls of Admin → Integrations → Discord server (settings, check, reconcile now).
 */
import type { FastifyInstance } from 'fastify';
import { discordRoleEndpoints } from '@kickback/common/http/discord-roles';
import { plugin } from '../../lib/plugin';
import type { DiscordBotConfig } from '../../config';
import { createDiscordGuildClient, type DiscordGuildClient } from '../../integrations/discord/guild';
import { subscriptionGifts } from '../../integrations/kick/support-events';
import { kickDate } from '../../integrations/kick/events';
import { badRequest } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf, recordAudit } from '../audit/service';
import { checkDiscordServer } from './check';
import { GoLivePoster, recordGoLive } from './go-live';
import { currentRules } from './rules';
import { recordGifter } from './gifters';
import { presentRoleSettings, readRoleSettings, saveRoleSettings } from './settings';
import { RoleWorker } from './worker';

declare module 'fastify' {
  interface FastifyInstance {
    discordRoles: { worker: RoleWorker; poster: GoLivePoster };
  }
}

export const discordRolesModule = plugin({
  name: 'discordRolesModule',
  dependencies: ['credentialsPlugin', 'chatModule'],
})(async (app: FastifyInstance) => {
  // One client per bot configuration: a token changed on Admin → Settings gets a new one.
  let current: { config: DiscordBotConfig; client: DiscordGuildClient } | null = null;
  const client = (): DiscordGuildClient | null => {
    const { bot } = app.credentials.discord();
    if (bot.mode === 'off') return null;
    if (current?.config !== bot) {
      current?.client.close();
      current = { config: bot, client: createDiscordGuildClient(bot, app.http) };
    }
    return current.client;
  };
  const worker = new RoleWorker(app, client);
  const poster = new GoLivePoster(app, client);
  app.decorate('discordRoles', { worker, poster });
  const posterPoll = setInterval(() => void poster.kick(), 30_000);
  posterPoll.unref();
  app.addHook('onReady', async () => {
    worker.start();
    void poster.kick();
  });
  app.addHook('preClose', async () => {
    clearInterval(posterPoll);
    await worker.stop();
    current?.client.close();
  });

  const { kickEvents } = app.chat;
  kickEvents.register('livestream.status.updated', 'discord.go-live', async (tx, payload, meta, after) => {
    if (await recordGoLive(tx, payload, meta)) after.push(() => void poster.kick());
  });
  // A sub or a gift changes who holds the subscriber role: sweep once the event committed.
  for (const type of [
    'channel.subscription.new',
    'channel.subscription.renewal',
    'channel.subscription.gifts',
  ] as const) {
    kickEvents.register(type, 'discord.roles', async (tx, payload, meta, after) => {
      if (type === 'channel.subscription.gifts') {
        const event = subscriptionGifts.safeParse(payload);
        if (event.success) await recordGifter(tx, event.data, kickDate(event.data.expires_at), meta.receivedAt);
      }
      after.push(() => void worker.sweepSoon());
    });
  }

  route(app, discordRoleEndpoints.settings, async () => presentRoleSettings(app));

  route(app, discordRoleEndpoints.save, async (request) => {
    const admin = currentUser(request);
    const next = request.body;
    const rules = await currentRules(app.db);
    const unknown = Object.keys(next.roleIds).find((key) => !rules.some((r) => r.key === key));
    if (unknown) throw badRequest(`There is no role rule "${unknown}".`, 'roleIds');
    await app.db.transaction(async (tx) => {
      const before = await readRoleSettings(tx);
      await saveRoleSettings(tx, next, app.clock.now());
      await recordAudit(tx, actorOf(admin), { action: 'discord.roles.settings', before, after: next });
    });
    void worker.sweepSoon();
    return presentRoleSettings(app);
  });

  route(app, discordRoleEndpoints.check, async () =>
    checkDiscordServer(client(), await readRoleSettings(app.db), await currentRules(app.db)),
  );

  route(app, discordRoleEndpoints.reconcile, async (request) => {
    const admin = currentUser(request);
    const n = await worker.reconcileAll();
    await recordAudit(app.db, actorOf(admin), { action: 'discord.roles.reconcile', after: { accounts: n } });
    void worker.kick();
    return { message: `Comparing the roles of ${n} linked account${n === 1 ? '' : 's'} with Discord.` };
  });
});

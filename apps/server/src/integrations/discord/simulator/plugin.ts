/**
 * The local Discord simulator, mounted under /dev/discord (never in production). It speaks
 * Discord's protocol so the real code paths run: while DISCORD_CLIENT_ID is not set, the OAuth side
 * (`/oauth2/authorize`, `/api/v10/oauth2/token`, `/api/v10/users/@me`); while DISCORD_BOT_TOKEN is
 * not set, the bot side (`/api/v10/users/@me/channels`, `/api/v10/channels/{id}/messages`), the
 * streamer's server (roles, members, channels: ./guild.ts) and its inbox page. `app.discordSimulator` exposes the shared state (tests close a user's DMs with it).
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../../lib/plugin';
import { DISCORD_SIMULATOR_PATH } from '../../../config';
import { BOT_USER, simulatorBotRoutes } from './bot';
import { simulatorGuildDevRoutes, simulatorGuildRoutes } from './guild';
import { SimulatedGuild } from './guild-state';
import { SimulatedBot } from './bot-state';
import type { DiscordSimulatorContext } from './context';
import { SimulatedDiscordDirectory } from './directory';
import { simulatorInboxRoutes } from './inbox';
import { simulatorOAuthRoutes } from './oauth';
import { SimulatorTokens } from './tokens';
import { simulatorUserRoutes } from './users';

declare module 'fastify' {
  interface FastifyInstance {
    discordSimulator?: DiscordSimulatorContext;
  }
}

export const discordSimulator = plugin({
  name: 'discordSimulator',
})(async (app: FastifyInstance) => {
  const { config } = app;
  const now = () => app.clock.now().getTime();
  const botConfig = config.discord.bot;
  const bot = new SimulatedBot(now);
  const ctx: DiscordSimulatorContext = {
    directory: new SimulatedDiscordDirectory(),
    tokens: new SimulatorTokens(createHmac('sha256', config.sessionSecret).update('discord-simulator').digest()),
    clientId: config.discord.clientId,
    clientSecret: config.discord.clientSecret,
    redirectUris: [`${config.publicUrl}/auth/discord/callback`],
    bot,
    guild: new SimulatedGuild(bot),
    botUserId: BOT_USER.id,
    oauth: config.discord.oauth === 'dev',
    botToken: botConfig.mode === 'simulator' ? botConfig.token : null,
    now,
  };
  app.decorate('discordSimulator', ctx);
  await app.register(
    async (scope) => {
      if (config.discord.oauth === 'dev') await simulatorOAuthRoutes(scope, ctx);
      if (config.discord.oauth === 'dev' || botConfig.mode === 'simulator') await simulatorUserRoutes(scope, ctx);
      if (botConfig.mode === 'simulator') {
        await simulatorBotRoutes(scope, ctx);
        await simulatorGuildRoutes(scope, ctx);
        await simulatorInboxRoutes(scope, ctx);
        await simulatorGuildDevRoutes(scope, ctx);
      }
    },
    { prefix: DISCORD_SIMULATOR_PATH },
  );
});

/** Whether this configuration mounts the simulator at all. */
export function discordSimulatorWanted(config: FastifyInstance['config']): boolean {
  return config.discord.oauth === 'dev' || config.discord.bot.mode === 'simulator';
}

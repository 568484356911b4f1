/**
 * The local Discord simulator, mounted under /dev/discord (the default while DISCORD_CLIENT_ID is
 * not set; never in production). It speaks Discord's protocol so the real OAuth code path runs:
 * `/oauth2/authorize` (a consent page), `/api/v10/oauth2/token`, `/api/v10/users/@me`. More
 * Discord endpoints (the bot's DMs) plug in here, sharing the context (users, tokens).
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DISCORD_SIMULATOR_PATH } from '../../../config';
import type { DiscordSimulatorContext } from './context';
import { SimulatedDiscordDirectory } from './directory';
import { simulatorOAuthRoutes } from './oauth';
import { SimulatorTokens } from './tokens';
import { simulatorUserRoutes } from './users';

export async function discordSimulator(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const ctx: DiscordSimulatorContext = {
    directory: new SimulatedDiscordDirectory(),
    tokens: new SimulatorTokens(createHmac('sha256', config.sessionSecret).update('discord-simulator').digest()),
    clientId: config.discord.clientId,
    clientSecret: config.discord.clientSecret,
    redirectUris: [`${config.publicUrl}/auth/discord/callback`],
    now: () => app.clock.now().getTime(),
  };
  await app.register(
    async (scope) => {
      await simulatorOAuthRoutes(scope, ctx);
      await simulatorUserRoutes(scope, ctx);
    },
    { prefix: DISCORD_SIMULATOR_PATH },
  );
}

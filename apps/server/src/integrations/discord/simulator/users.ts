/** The simulator's `GET /api/v10/users/@me` for an OAuth bearer token (or the bot's own token), shaped like Discord's user object. */
import type { FastifyInstance } from 'fastify';
import type { DiscordSimulatorContext } from './context';
import { BOT_USER } from './bot';

export async function simulatorUserRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  app.get('/api/v10/users/@me', async (request, reply) => {
    // The bot asks who it is (its member in the server) with its own token.
    const botToken = /^Bot (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (botToken && ctx.botToken && botToken === ctx.botToken) return { ...BOT_USER, discriminator: '0', avatar: null };
    if (!ctx.oauth) return reply.status(401).send({ message: '401: Unauthorized', code: 0 });
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const claims = bearer ? ctx.tokens.read(bearer, 'token', ctx.now()) : null;
    if (!claims) return reply.status(401).send({ message: '401: Unauthorized', code: 0 });
    const user = ctx.directory.user(claims.name);
    return {
      id: user.id,
      username: user.username,
      global_name: user.globalName,
      discriminator: '0',
      avatar: null,
      banner: null,
      accent_color: null,
      public_flags: 0,
      flags: 0,
      mfa_enabled: false,
      locale: 'en-US',
    };
  });
}

/** The simulator's `GET /api/v10/users/@me` for an OAuth bearer token, shaped like Discord's user object. */
import type { FastifyInstance } from 'fastify';
import type { DiscordSimulatorContext } from './context';

export async function simulatorUserRoutes(app: FastifyInstance, ctx: DiscordSimulatorContext): Promise<void> {
  app.get('/api/v10/users/@me', async (request, reply) => {
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

/**
 * Linking a Discord account: `/auth/discord/signin` starts the OAuth2 authorization-code flow with
 * a random `state` bound to the session (its hash stored with the session id, single use, 10
 * minutes); `/auth/discord/callback` checks the state before anything else, exchanges the code,
 * reads `/users/@me` and links the id and username (clearing a DMs-closed mark: a new link is
 * tried again by broadcasts). Either way the browser lands on
 * `/link/discord?result=…&returnTo=…`, where the site shows the outcome.
 */
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { DiscordLinkResult } from '@kickback/common/http/accounts';
import { discordOauthStates } from '../../db/schema/accounts';
import { users } from '../../db/schema/users';
import { discordAuthorizeUrl, exchangeDiscordCode, fetchDiscordUser } from '../../integrations/discord/oauth';
import { isUniqueViolation } from '../../lib/db-errors';
import { randomToken, sha256Hex } from '../../lib/random';
import { errorReason } from '../../lib/error-reason';

const STATE_TTL_MS = 10 * 60 * 1000;

/** Only paths of this site: no scheme, no host, no `//` or `/\` tricks. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 300) return '/';
  if (!/^\/(?![/\\])[^\s]*$/.test(value)) return '/';
  return value;
}

export function linkResultUrl(result: DiscordLinkResult, returnTo: string): string {
  return `/link/discord?${new URLSearchParams({ result, returnTo }).toString()}`;
}

const callbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

export async function discordLinkRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const redirectUri = `${config.publicUrl}/auth/discord/callback`;

  const back = (reply: FastifyReply, result: DiscordLinkResult, returnTo = '/') => {
    reply.header('cache-control', 'no-store');
    return reply.redirect(linkResultUrl(result, returnTo), 302);
  };

  app.get('/auth/discord/signin', { config: { access: 'public' } }, async (request, reply) => {
    const returnTo = safeReturnTo((request.query as Record<string, unknown>).returnTo);
    const user = request.user;
    if (!user || !request.sessionToken) return back(reply, 'signin', returnTo);
    if (app.credentials.discord().oauth === 'off') return back(reply, 'unavailable', returnTo);
    if (user.discordId) return back(reply, 'already', returnTo);
    const now = app.clock.now();
    const state = randomToken(24);
    await app.db.delete(discordOauthStates).where(lt(discordOauthStates.expiresAt, now));
    await app.db.insert(discordOauthStates).values({
      stateHash: sha256Hex(state),
      sessionId: sha256Hex(request.sessionToken),
      userId: user.id,
      returnTo,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    });
    reply.header('cache-control', 'no-store');
    return reply.redirect(discordAuthorizeUrl(app.credentials.discord(), { state, redirectUri }), 302);
  });

  app.get('/auth/discord/callback', { config: { access: 'public' } }, async (request, reply) => {
    const query = callbackQuery.safeParse(request.query);
    if (!request.user || !request.sessionToken) return back(reply, 'signin');
    if (!query.success || !query.data.state) {
      request.log.warn('discord link refused: no state');
      return back(reply, 'state');
    }
    const { code, state, error } = query.data;
    // The state must be one this very session started, unexpired; it is spent either way.
    const [pending] = await app.db
      .delete(discordOauthStates)
      .where(
        and(
          eq(discordOauthStates.stateHash, sha256Hex(state)),
          eq(discordOauthStates.sessionId, sha256Hex(request.sessionToken)),
          gt(discordOauthStates.expiresAt, app.clock.now()),
        ),
      )
      .returning();
    if (!pending || pending.userId !== request.user.id) {
      request.log.warn(
        { userId: request.user.id },
        'discord link refused: state unknown, expired or of another session',
      );
      return back(reply, 'state');
    }
    if (error || !code) {
      request.log.info({ userId: pending.userId, error }, 'discord link declined');
      return back(reply, error === 'access_denied' ? 'denied' : 'failed', pending.returnTo);
    }
    let discordUser;
    try {
      const accessToken = await exchangeDiscordCode(app.http, app.credentials.discord(), code, redirectUri);
      discordUser = await fetchDiscordUser(app.http, app.credentials.discord().apiUrl, accessToken);
    } catch (err) {
      request.log.warn({ err, userId: pending.userId }, 'discord link failed at Discord');
      app.integrationStatus.failed('discord.oauth', `link failed at Discord: ${errorReason(err)}`);
      return back(reply, 'failed', pending.returnTo);
    }
    // Discord answered: the integration worked, whether or not the account can be linked here.
    app.integrationStatus.succeeded('discord.oauth', `authorized ${discordUser.username}`);
    try {
      await app.db
        .update(users)
        .set({ discordId: discordUser.id, discordUsername: discordUser.username, discordDmClosedAt: null })
        .where(eq(users.id, pending.userId));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      request.log.info(
        { userId: pending.userId, discordId: discordUser.id },
        'discord account already linked elsewhere',
      );
      return back(reply, 'taken', pending.returnTo);
    }
    request.log.info({ userId: pending.userId, discordId: discordUser.id }, 'discord linked');
    return back(reply, 'linked', pending.returnTo);
  });
}

/**
 * Steam sign-in (popup), its callback and sign-out.
 * `GET /auth/steam/signin` → the provider; `GET /auth/steam/callback` verifies the assertion and
 * renders a page that posts `{ type: 'authpopup', success, message }` to the opener and closes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import { messages } from '@kickback/common/messages';
import type { AuthPopupMessage } from '@kickback/common/http/auth';
import { openIdNonces } from '../../db/schema/sessions';
import { page, popupResultData } from '../../lib/html';
import { randomToken } from '../../lib/random';
import { buildSigninUrl, verifyAssertion } from '../../integrations/steam/openid';
import { fetchPlayerSummary } from '../../integrations/steam/profiles';
import { endSession, startSession } from '../../plugins/session';
import { upsertSteamUser } from './user-accounts';

const STATE_COOKIE = 'kb_openid_state';
const STATE_TTL_S = 600;

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const callbackUrl = `${config.publicUrl}/auth/steam/callback`;
  const stateCookie = { path: '/auth/steam', httpOnly: true, sameSite: 'lax' as const, secure: config.cookies.secure };

  const popupResult = (reply: FastifyReply, result: AuthPopupMessage) => {
    reply.clearCookie(STATE_COOKIE, stateCookie);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page(
      result.success ? 'Signed in' : 'Sign-in failed',
      `<h1>${result.success ? 'Signed in' : 'Sign-in failed'}</h1>
<p class="lead">You can close this window.</p>
${popupResultData(result, config.publicOrigin)}`,
      config.site.accentColor,
    );
  };

  app.get('/auth/steam/signin', { config: { access: 'public' } }, async (_request, reply) => {
    const state = randomToken(18);
    reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: STATE_TTL_S });
    reply.header('cache-control', 'no-store');
    return reply.redirect(
      buildSigninUrl({
        providerUrl: config.steam.openIdUrl,
        returnTo: `${callbackUrl}?state=${encodeURIComponent(state)}`,
        realm: `${config.publicUrl}/`,
      }),
      302,
    );
  });

  app.get('/auth/steam/callback', { config: { access: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const cookieState = request.cookies[STATE_COOKIE];
    const now = app.clock.now();
    const result = await verifyAssertion(query, {
      providerUrl: config.steam.openIdUrl,
      expectedReturnTo: `${callbackUrl}?state=${encodeURIComponent(cookieState ?? '')}`,
      cookieState,
      queryState: typeof query.state === 'string' ? query.state : undefined,
      now,
      fetch: app.http,
      consumeNonce: async (nonce) => {
        const inserted = await app.db
          .insert(openIdNonces)
          .values({ nonce, seenAt: now })
          .onConflictDoNothing()
          .returning({ nonce: openIdNonces.nonce });
        return inserted.length === 1;
      },
    });
    if (result.ok) app.integrationStatus.succeeded('steam', 'sign-in verified');
    else app.integrationStatus.failed('steam', `sign-in refused (${result.check}): ${result.detail}`);
    if (!result.ok) {
      request.log.warn({ check: result.check, detail: result.detail }, 'steam sign-in refused');
      return popupResult(reply, { type: 'authpopup', success: false, message: messages.authenticationFailed });
    }
    let profile = null;
    if (config.steam.apiKey) {
      try {
        profile = await fetchPlayerSummary(app.http, config.steam.apiUrl, config.steam.apiKey, result.steamId);
      } catch (err) {
        request.log.warn({ err }, 'steam profile lookup failed; keeping the stored name');
      }
    }
    const user = await upsertSteamUser(app.db, result.steamId, profile, config.adminSteamIds, now);
    await startSession(app, request, reply, user.id);
    request.log.info({ userId: user.id, steamId: user.steamId }, 'signed in');
    return popupResult(reply, { type: 'authpopup', success: true, message: messages.signedIn });
  });

  app.get('/auth/signout', { config: { access: 'public' } }, async (request, reply) => {
    await endSession(app, request, reply);
    return { message: messages.signedOut };
  });

  // Old nonces are useless after their 5-minute window; prune them now and then.
  app.addHook('onReady', async () => {
    await app.db.execute(sql`DELETE FROM openid_nonces WHERE seen_at < now() - interval '1 day'`);
  });
}

/**
 * Steam sign-in (popup or same tab), its callback and sign-out.
 * `GET /auth/steam/signin` → the provider; `GET /auth/steam/callback` verifies the assertion and
 * renders a page that posts `{ type: 'authpopup', success, message }` to the opener and closes.
 * `GET /auth/steam/signin?returnTo=/path` is the same-tab sign-in (phones, blocked pop-ups): the
 * path is checked (lib/return-path.ts, no open redirect), kept in a cookie, and the callback sends
 * the person back there with `?signin=ok|failed|cancelled` for the web app to announce.
 * Steam's cancel (`openid.mode=cancel`) is answered as a cancel, not as a failure.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AuthPopupMessage } from '@kickback/common/http/auth';
import { openIdNonces } from '../../db/schema/sessions';
import { badRequest } from '../../lib/errors';
import { said, t } from '../../lib/i18n';
import { page, popupResultData } from '../../lib/html';
import { safeReturnPath, withSigninOutcome } from '../../lib/return-path';
import { randomToken } from '../../lib/random';
import { buildSigninUrl, verifyAssertion } from '../../integrations/steam/openid';
import { fetchPlayerSummary } from '../../integrations/steam/profiles';
import { endSession, startSession } from '../../plugins/session';
import { upsertSteamUser } from './user-accounts';
import { accentColorNow } from '../site/service';

const STATE_COOKIE = 'kb_openid_state';
const RETURN_COOKIE = 'kb_openid_return';
const STATE_TTL_S = 600;

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const callbackUrl = `${config.publicUrl}/auth/steam/callback`;
  const stateCookie = { path: '/auth/steam', httpOnly: true, sameSite: 'lax' as const, secure: config.cookies.secure };

  const popupResult = async (reply: FastifyReply, result: AuthPopupMessage, returnPath: string | null) => {
    reply.clearCookie(STATE_COOKIE, stateCookie);
    reply.clearCookie(RETURN_COOKIE, stateCookie);
    reply.header('cache-control', 'no-store');
    if (returnPath) {
      const outcome = result.success ? 'ok' : result.cancelled ? 'cancelled' : 'failed';
      return reply.redirect(withSigninOutcome(returnPath, outcome, config.publicUrl), 302);
    }
    reply.type('text/html; charset=utf-8');
    const title = result.success ? 'Signed in' : result.cancelled ? 'Sign-in cancelled' : 'Sign-in failed';
    return page(
      title,
      `<h1>${title}</h1>
<p class="lead">You can close this window.</p>
${popupResultData(result, config.publicOrigin)}`,
      await accentColorNow(app),
    );
  };

  app.get('/auth/steam/signin', { config: { access: 'public' } }, async (request, reply) => {
    const { returnTo } = request.query as Record<string, unknown>;
    let returnPath: string | null = null;
    if (returnTo !== undefined) {
      returnPath = safeReturnPath(returnTo, config.publicUrl);
      if (!returnPath) throw badRequest(said('common:badReturnPath'));
    }
    const state = randomToken(18);
    reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: STATE_TTL_S });
    if (returnPath) reply.setCookie(RETURN_COOKIE, returnPath, { ...stateCookie, maxAge: STATE_TTL_S });
    else reply.clearCookie(RETURN_COOKIE, stateCookie);
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
    // Checked again: a cookie is input too.
    const returnPath = safeReturnPath(request.cookies[RETURN_COOKIE], config.publicUrl);
    if (query['openid.mode'] === 'cancel') {
      request.log.info('steam sign-in cancelled at the provider');
      return popupResult(
        reply,
        { type: 'authpopup', success: false, cancelled: true, message: request.t('common:signInCancelled') },
        returnPath,
      );
    }
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
      return popupResult(
        reply,
        { type: 'authpopup', success: false, message: request.t('common:authenticationFailed') },
        returnPath,
      );
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
    // Hashed address and device for the possible-alts view (docs/features/fair-earning.md#possible-alts).
    await app.fairEarning.recordSignIn(request, reply, user.id);
    request.log.info({ userId: user.id, steamId: user.steamId }, 'signed in');
    // Said in the language the account chose, if it did (this request carried no session yet).
    const signedIn = t(user.language ?? request.locale, 'common:signedIn');
    return popupResult(reply, { type: 'authpopup', success: true, message: signedIn }, returnPath);
  });

  app.get('/auth/signout', { config: { access: 'public' } }, async (request, reply) => {
    const locale = request.locale; // the signed-in user's language, read before the session ends
    await endSession(app, request, reply);
    return { message: t(locale, 'common:signedOut') };
  });

  // Old nonces are useless after their 5-minute window; prune them now and then.
  app.addHook('onReady', async () => {
    await app.db.execute(sql`DELETE FROM openid_nonces WHERE seen_at < now() - interval '1 day'`);
  });
}

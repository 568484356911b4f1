/**
 * Reads the session cookie on API, auth and hub requests and puts the signed-in user (or null) on
 * `request.user`. Also the cookie helpers routes use to start and end sessions.
 *
 * Routes whose handler uses nothing of the user but its id declare `config: { access: 'user',
 * identityOnly: true }` and may get the session from a cache of a few seconds (lib/session-cache.ts);
 * on them `request.user` is a snapshot whose balances and flags must not be relied on.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { plugin } from '../lib/plugin';
import { SIGNED_IN_HINT_COOKIE } from '@kickback/common/signed-in-hint';
import type { Config } from '../config';
import type { UserRow } from '../db/schema/users';
import { SessionCache } from '../lib/session-cache';
import { syncSessionCache } from '../lib/session-cache-sync';
import { createSession, deleteSession, loadSession, SESSION_TTL_MS } from '../lib/sessions';
import { sha256Hex } from '../lib/random';
import { pathStartsWith } from '../lib/request-path';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionToken: string | null;
  }
  interface FastifyInstance {
    /** Recently loaded sessions for identity-only routes; evict through it on sign-out and role or
     * exclusion changes. */
    sessionCache: SessionCache;
  }
  interface FastifyContextConfig {
    /** The handler uses only `request.user.id`: the session may come from the short-lived cache. */
    identityOnly?: boolean;
    /** The handler never reads `request.user` (cached public reads): the cookie is not looked up. */
    sessionless?: boolean;
  }
}

export function sessionCookieName(config: Config): string {
  return `${config.cookies.prefix}kb_session`;
}

// /healthz: only `?details=1` needs the session (admins); probes carry no cookie, so this costs them nothing.
const sessionPaths = ['/api/', '/auth/', '/dev/', '/socket.io/', '/webhooks/', '/healthz'];

export const sessionPlugin = plugin({
  name: 'sessionPlugin',
})(async (app: FastifyInstance) => {
  const cookieName = sessionCookieName(app.config);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  const cache = new SessionCache();
  app.decorate('sessionCache', cache);
  if (app.redis) await syncSessionCache(app, app.redis, cache);
  const load = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    const now = app.clock.now();
    const { config } = request.routeOptions;
    const cacheable = config.identityOnly === true && config.access === 'user';
    let session = cacheable ? cache.get(sha256Hex(token), now.getTime()) : null;
    if (!session) {
      session = await loadSession(app.db, token, now);
      if (session && cacheable) cache.set(session, now.getTime());
    }
    if (session) {
      request.user = session.user;
      request.sessionToken = token;
      // Sessions started before the hint existed get it on their next call.
      if (request.cookies[SIGNED_IN_HINT_COOKIE] !== '1') setSignedInHint(app, reply);
    }
  };
  // A callback hook: the requests that need no session (cached public reads, pages, assets) do
  // not pay for a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const token = request.cookies[cookieName];
    if (!token || request.routeOptions.config.sessionless === true || !pathStartsWith(request, ...sessionPaths)) {
      done();
      return;
    }
    load(request, reply, token).then(() => done(), done);
  });
});

export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  if (request.sessionToken) await dropSession(app, request.sessionToken);
  const { token } = await createSession(app.db, userId, app.clock.now(), request.headers['user-agent']);
  reply.setCookie(sessionCookieName(app.config), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.cookies.secure,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
  setSignedInHint(app, reply);
}

function setSignedInHint(app: FastifyInstance, reply: FastifyReply): void {
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    path: '/',
    sameSite: 'lax',
    secure: app.config.cookies.secure,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

async function dropSession(app: FastifyInstance, token: string): Promise<void> {
  await deleteSession(app.db, token);
  app.sessionCache.evict({ sessionId: sha256Hex(token) });
}

export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionToken) await dropSession(app, request.sessionToken);
  reply.clearCookie(sessionCookieName(app.config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.cookies.secure,
  });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: app.config.cookies.secure });
}

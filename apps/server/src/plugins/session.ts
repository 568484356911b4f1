/**
 * Reads the session cookie on API, auth and hub requests and puts the signed-in user (or null) on
 * `request.user`. Also the cookie helpers routes use to start and end sessions.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { UserRow } from '../db/schema/users';
import { createSession, deleteSession, loadSession, SESSION_TTL_MS } from '../modules/auth/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionToken: string | null;
  }
}

export function sessionCookieName(config: Config): string {
  return `${config.cookies.prefix}kb_session`;
}

const sessionPaths = ['/api/', '/auth/', '/dev/', '/socket.io/', '/webhooks/'];

export const sessionPlugin = fp(async (app: FastifyInstance) => {
  const cookieName = sessionCookieName(app.config);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (request) => {
    if (!sessionPaths.some((p) => request.url.startsWith(p))) return;
    const token = request.cookies[cookieName];
    if (!token) return;
    const session = await loadSession(app.db, token, app.clock.now());
    if (session) {
      request.user = session.user;
      request.sessionToken = token;
    }
  });
});

export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  if (request.sessionToken) await deleteSession(app.db, request.sessionToken);
  const { token } = await createSession(app.db, userId, app.clock.now(), request.headers['user-agent']);
  reply.setCookie(sessionCookieName(app.config), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.cookies.secure,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionToken) await deleteSession(app.db, request.sessionToken);
  reply.clearCookie(sessionCookieName(app.config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.cookies.secure,
  });
}

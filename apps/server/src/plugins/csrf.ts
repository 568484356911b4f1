/**
 * Cross-site request forgery guard: every /api call (but the image reads an `<img>` makes) and every
 * state-changing /auth call must carry
 * `X-Requested-With: kickback` (a header no cross-site form or image can set) and, when the browser
 * sends an Origin, it must be ours. Top-level sign-in navigations are protected by their state
 * cookie instead.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plugin } from '../lib/plugin';
import { forbidden } from '../lib/errors';
import { routePath } from '../lib/request-path';
import { said } from '../lib/i18n';

export const CSRF_HEADER = 'x-requested-with';
export const CSRF_VALUE = 'kickback';

/** Navigations the browser makes itself (popup, redirects): no custom header possible. */
const navigationPaths = new Set(['/auth/steam/signin', '/auth/steam/callback']);

/**
 * /api reads the browser makes itself, without our header: an `<img>` loading an uploaded image.
 * GET and HEAD only, and they change nothing.
 */
const browserReadPrefixes = ['/api/images/'];

export function needsCsrfCheck(request: FastifyRequest): boolean {
  const path = routePath(request);
  if (path.startsWith('/api/')) {
    const read = request.method === 'GET' || request.method === 'HEAD';
    return !(read && browserReadPrefixes.some((p) => path.startsWith(p)));
  }
  if (path.startsWith('/auth/')) {
    if (navigationPaths.has(path)) return false;
    // Discord sign-in is a navigation too; its state parameter is bound to the session.
    if (path.startsWith('/auth/discord/')) return false;
    // So is Kick's redirect back after "Connect Kick bot"; its state is single use and bound to the admin.
    if (path === '/auth/kick/bot/callback') return false;
    return true;
  }
  return false;
}

export function isAllowedOrigin(origin: string | undefined, publicOrigin: string): boolean {
  return origin === undefined || origin === publicOrigin;
}

/** The request carries our header and, when the browser names its origin, ours. */
export function passesCsrf(headers: IncomingHttpHeaders, publicOrigin: string): boolean {
  return headers[CSRF_HEADER] === CSRF_VALUE && isAllowedOrigin(headers.origin, publicOrigin);
}

export const csrfPlugin = plugin({
  name: 'csrfPlugin',
})(async (app: FastifyInstance, opts: { publicOrigin: string }) => {
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('onRequest', (request, _reply, done) => {
    if (needsCsrfCheck(request) && !passesCsrf(request.headers, opts.publicOrigin)) {
      done(forbidden(said('common:csrfRejected')));
      return;
    }
    done();
  });
});

/**
 * Who may call a route, declared where the route is declared: `config: { access: 'public' | 'user'
 * | 'moderator' | 'admin' }` ('moderator' lets a Moderator or an Admin in). Deny by default: an /api
 * route that does not say is treated as admin-only. 401 without sign-in, 403 without the role.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plugin } from '../lib/plugin';
import { canModerate } from '@kickback/common/access';
import type { UserRow } from '../db/schema/users';
import { forbidden, unauthorized } from '../lib/errors';
import { pathStartsWith } from '../lib/request-path';

export type Access = 'public' | 'user' | 'moderator' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export const accessPlugin = plugin({
  name: 'accessPlugin',
  dependencies: ['sessionPlugin'],
})(async (app: FastifyInstance) => {
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('preValidation', (request, _reply, done) => {
    done(refusal(request));
  });
});

/** Why `request` may not call its route (401 or 403), or undefined when it may. */
function refusal(request: FastifyRequest): Error | undefined {
  if (request.is404) return undefined; // no route matched: the not-found handler answers
  const declared = request.routeOptions.config.access;
  const access: Access = declared ?? (pathStartsWith(request, '/api/') ? 'admin' : 'public');
  if (access === 'public') return undefined;
  if (!request.user) return unauthorized();
  if (access === 'admin' && request.user.role !== 'Admin') return forbidden();
  if (access === 'moderator' && !canModerate(request.user.role)) return forbidden();
  return undefined;
}

/** For handlers behind `access: 'user' | 'moderator' | 'admin'`: the signed-in user, typed as present. */
export function currentUser(request: { user: UserRow | null }): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Who may call a route, declared where the route is declared: `config: { access: 'public' | 'user'
 * | 'moderator' | 'admin' }` ('moderator' lets a Moderator or an Admin in). Deny by default: an /api
 * route that does not say is treated as admin-only. 401 without sign-in, 403 without the role.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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

export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (request.is404) return; // no route matched: the not-found handler answers
    const declared = request.routeOptions.config.access;
    const isApi = pathStartsWith(request, '/api/');
    const access: Access = declared ?? (isApi ? 'admin' : 'public');
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && request.user.role !== 'Admin') throw forbidden();
    if (access === 'moderator' && !canModerate(request.user.role)) throw forbidden();
  });
});

/** For handlers behind `access: 'user' | 'moderator' | 'admin'`: the signed-in user, typed as present. */
export function currentUser(request: { user: UserRow | null }): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

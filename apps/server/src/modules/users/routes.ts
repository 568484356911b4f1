/** The signed-in user (`GET /api/User/ping`) and the admin user search for pickers. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authUser } from '@kickback/common/http/auth';
import { userSearchQuery, userSearchResult } from '@kickback/common/http/users';
import { currentUser } from '../../plugins/access';
import { toAuthUser } from './presenter';
import { searchUsers } from './search';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/User/ping', { config: { access: 'user' }, schema: { response: { 200: authUser } } }, async (request) =>
    toAuthUser(currentUser(request)),
  );

  r.get(
    '/api/user/search',
    {
      config: { access: 'admin' },
      schema: { querystring: userSearchQuery, response: { 200: userSearchResult } },
    },
    async (request) => {
      const { query, is_discord_linked } = request.query;
      return searchUsers(app.db, query, is_discord_linked === '1' || is_discord_linked === 'true');
    },
  );
}

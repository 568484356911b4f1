/** The signed-in user (`GET /api/User/ping`) and the admin user search for pickers. */
import type { FastifyInstance } from 'fastify';
import { userEndpoints } from '@kickback/common/http/users';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { toAuthUser } from './presenter';
import { searchUsers } from './search';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  route(app, userEndpoints.ping, async (request) => toAuthUser(currentUser(request)));

  route(app, userEndpoints.search, async (request) => {
    const { query, is_discord_linked } = request.query;
    return searchUsers(app.db, query, is_discord_linked === '1' || is_discord_linked === 'true');
  });
}

/** The signed-in user: `GET /api/User/ping`. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authUser } from '@kickback/common/http/auth';
import { currentUser } from '../../plugins/access';
import { toAuthUser } from './presenter';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/User/ping', { config: { access: 'user' }, schema: { response: { 200: authUser } } }, async (request) =>
    toAuthUser(currentUser(request)),
  );
}

/** `GET /api/live/now`: the public list of what is running (./service). */
import type { FastifyInstance } from 'fastify';
import { liveEndpoints } from '@kickback/common/http/live';
import { route } from '../../plugins/endpoints';
import { liveNow } from './service';

export async function liveRoutes(app: FastifyInstance): Promise<void> {
  route(app, liveEndpoints.now, async (_request, reply) => {
    // Read fresh every time: the page polls it, and a game may start or end at any moment.
    reply.header('cache-control', 'no-store');
    return liveNow(app);
  });
}

/**
 * Challenge calls (docs/product.md#site-calls): `GET /api/Challenge/getuserchallenges` (public),
 * `GET /api/Challenge/getall`, `POST /api/Challenge/create` and `/update` (admin).
 */
import type { FastifyInstance } from 'fastify';
import { challengeEndpoints } from '@kickback/common/http/challenges';
import { currentUser } from '../../plugins/access';
import { cachedReadRoute } from '../../plugins/cached-reads';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { CHALLENGES_READ, ChallengeService } from './service';

export async function challengeRoutes(app: FastifyInstance): Promise<void> {
  const service = new ChallengeService(app);
  cachedReadRoute(app, challengeEndpoints.publicList, {
    key: CHALLENGES_READ,
    // Winners' names come from their accounts, which change without telling this list.
    ttlMs: 30_000,
    cacheControl: 'no-cache',
    build: async () => ({ value: await service.publicList() }),
  });

  route(app, challengeEndpoints.all, async () => service.all());

  route(app, challengeEndpoints.create, async (request) => service.create(actorOf(currentUser(request)), request.body));

  route(app, challengeEndpoints.update, async (request) => service.update(actorOf(currentUser(request)), request.body));
}

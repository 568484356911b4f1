/**
 * Challenge calls (spec part 1 §7): `GET /api/Challenge/getuserchallenges` (public),
 * `GET /api/Challenge/getall`, `POST /api/Challenge/create` and `/update` (admin).
 */
import type { FastifyInstance } from 'fastify';
import { challengeEndpoints } from '@kickback/common/http/challenges';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { ChallengeService } from './service';

export async function challengeRoutes(app: FastifyInstance): Promise<void> {
  const service = new ChallengeService(app);
  route(app, challengeEndpoints.publicList, async () => service.publicList());

  route(app, challengeEndpoints.all, async () => service.all());

  route(app, challengeEndpoints.create, async (request) => service.create(actorOf(currentUser(request)), request.body));

  route(app, challengeEndpoints.update, async (request) => service.update(actorOf(currentUser(request)), request.body));
}

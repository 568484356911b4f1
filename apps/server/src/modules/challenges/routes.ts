/**
 * Challenge calls (spec part 1 §7): `GET /api/Challenge/getuserchallenges` (public),
 * `GET /api/Challenge/getall`, `POST /api/Challenge/create` and `/update` (admin).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  allChallengesResponse,
  challenge,
  createChallengeBody,
  updateChallengeBody,
  userChallengesResponse,
} from '@kickback/common/http/challenges';
import { currentUser } from '../../plugins/access';
import { cachedRead, cachedReadConfig } from '../../plugins/cached-reads';
import { actorOf } from '../audit/service';
import { CHALLENGES_READ, ChallengeService } from './service';

export async function challengeRoutes(app: FastifyInstance): Promise<void> {
  const service = new ChallengeService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/Challenge/getuserchallenges',
    { config: cachedReadConfig, schema: { response: { 200: userChallengesResponse } } },
    cachedRead(app, {
      key: CHALLENGES_READ,
      schema: userChallengesResponse,
      // Winners' names come from their accounts, which change without telling this list.
      ttlMs: 30_000,
      cacheControl: 'no-cache',
      build: async () => ({ value: await service.publicList() }),
    }),
  );

  r.get(
    '/api/Challenge/getall',
    { config: { access: 'admin' }, schema: { response: { 200: allChallengesResponse } } },
    async () => service.all(),
  );

  r.post(
    '/api/Challenge/create',
    { config: { access: 'admin' }, schema: { body: createChallengeBody, response: { 200: challenge } } },
    async (request) => service.create(actorOf(currentUser(request)), request.body),
  );

  r.post(
    '/api/Challenge/update',
    { config: { access: 'admin' }, schema: { body: updateChallengeBody, response: { 200: challenge } } },
    async (request) => service.update(actorOf(currentUser(request)), request.body),
  );
}

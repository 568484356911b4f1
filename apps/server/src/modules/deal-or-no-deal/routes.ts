/**
 * Deal or No Deal: the admin REST calls (create, recent, cancel), the public board verification
 * and the hub. The owner plays through the hub; the rules are in
 * packages/common/games/deal-or-no-deal.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dealOrNoDealHub, dealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import {
  boardVerification,
  createDealOrNoDealBody,
  createDealOrNoDealResponse,
  recentDealOrNoDealGames,
} from '@kickback/common/http/deal-or-no-deal';
import { currentUser } from '../../plugins/access';
import { dealOrNoDealHubHandlers } from './hub';
import { DealOrNoDealService } from './service';

export async function dealOrNoDealRoutes(app: FastifyInstance): Promise<void> {
  const games = new DealOrNoDealService(app);
  app.realtime.register(dealOrNoDealHub, dealOrNoDealHubHandlers(games));

  const r = app.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ gameId: z.uuid() });

  r.post(
    '/api/DealOrNoDeal/create',
    {
      config: { access: 'admin' },
      schema: { body: createDealOrNoDealBody, response: { 200: createDealOrNoDealResponse } },
    },
    async (request) => games.create(currentUser(request), request.body),
  );

  r.get(
    '/api/DealOrNoDeal/recent',
    { config: { access: 'admin' }, schema: { response: { 200: recentDealOrNoDealGames } } },
    async () => games.recent(),
  );

  r.post(
    '/api/DealOrNoDeal/:gameId/cancel',
    { config: { access: 'admin' }, schema: { params, response: { 200: dealOrNoDealState } } },
    async (request) => games.cancel(currentUser(request), request.params.gameId),
  );

  r.get(
    '/api/DealOrNoDeal/:gameId/verification',
    { config: { access: 'public' }, schema: { params, response: { 200: boardVerification } } },
    async (request) => games.verification(request.params.gameId, request.user),
  );
}

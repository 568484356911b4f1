/**
 * Deal or No Deal: the admin REST calls (create, recent, cancel), the public board verification
 * and the hub. The owner plays through the hub; the rules are in
 * packages/common/games/deal-or-no-deal.ts.
 */
import type { FastifyInstance } from 'fastify';
import { dealOrNoDealHub } from '@kickback/common/hubs/deal-or-no-deal';
import { dealOrNoDealEndpoints } from '@kickback/common/http/deal-or-no-deal';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { dealOrNoDealHubHandlers } from './hub';
import { DealOrNoDealService } from './service';

export async function dealOrNoDealRoutes(app: FastifyInstance): Promise<void> {
  const games = new DealOrNoDealService(app);
  app.realtime.register(dealOrNoDealHub, dealOrNoDealHubHandlers(games));

  route(app, dealOrNoDealEndpoints.create, async (request) => games.create(currentUser(request), request.body));
  route(app, dealOrNoDealEndpoints.recent, async () => games.recent());
  route(app, dealOrNoDealEndpoints.cancel, async (request) =>
    games.cancel(currentUser(request), request.params.gameId),
  );
  route(app, dealOrNoDealEndpoints.verification, async (request) =>
    games.verification(request.params.gameId, request.user),
  );
}

/**
 * Split or Steal: the admin REST calls (create, cancel), the hub and the timer handler. Players
 * act through the hub; the rules are in packages/common/games/split-or-steal.ts.
 */
import type { FastifyInstance } from 'fastify';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { splitOrStealEndpoints } from '@kickback/common/http/split-or-steal';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { splitOrStealHubHandlers } from './hub';
import { SplitOrStealService } from './service';

export async function splitOrStealRoutes(app: FastifyInstance): Promise<void> {
  const games = new SplitOrStealService(app);
  app.realtime.register(splitOrStealHub, splitOrStealHubHandlers(app, games));

  route(app, splitOrStealEndpoints.create, async (request) => games.create(currentUser(request), request.body));
  route(app, splitOrStealEndpoints.recent, async () => games.recent());
  route(app, splitOrStealEndpoints.cancel, async (request) =>
    games.cancel(currentUser(request), request.params.gameId),
  );
}

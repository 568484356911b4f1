/**
 * Split or Steal: the admin REST calls (create, cancel), the hub and the timer handler. Players
 * act through the hub; the rules are in packages/common/games/split-or-steal.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { splitOrStealHub, splitOrStealState } from '@kickback/common/hubs/split-or-steal';
import {
  createSplitOrStealBody,
  createSplitOrStealResponse,
  recentSplitOrStealGames,
} from '@kickback/common/http/split-or-steal';
import { currentUser } from '../../plugins/access';
import { splitOrStealHubHandlers } from './hub';
import { SplitOrStealService } from './service';

export async function splitOrStealRoutes(app: FastifyInstance): Promise<void> {
  const games = new SplitOrStealService(app);
  app.realtime.register(splitOrStealHub, splitOrStealHubHandlers(app, games));

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/SplitOrStealGame/create',
    {
      config: { access: 'admin' },
      schema: { body: createSplitOrStealBody, response: { 200: createSplitOrStealResponse } },
    },
    async (request) => games.create(currentUser(request), request.body),
  );

  r.get(
    '/api/SplitOrStealGame/recent',
    { config: { access: 'admin' }, schema: { response: { 200: recentSplitOrStealGames } } },
    async () => games.recent(),
  );

  r.post(
    '/api/SplitOrStealGame/:gameId/cancel',
    {
      config: { access: 'admin' },
      schema: { params: z.object({ gameId: z.uuid() }), response: { 200: splitOrStealState } },
    },
    async (request) => games.cancel(currentUser(request), request.params.gameId),
  );
}

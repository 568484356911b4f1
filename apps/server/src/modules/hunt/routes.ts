/**
 * The bonus hunt module (docs/features/bonus-hunt.md): the public `/BonusHunt` hub (state for the overlay and /hunt;
 * the guesses for runners only), the REST calls that run a hunt, and the `!guess` chat command.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { huntEndpoints } from '@kickback/common/http/hunt';
import { bonusHuntHub } from '@kickback/common/hubs/hunt';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { guessHandler } from './chat-command';
import { HUNT_ROOM, HuntService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    hunt: HuntService;
  }
}

export const huntModule = plugin({
  name: 'huntModule',
  dependencies: ['chatModule', 'kickBansPlugin', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const hunt = new HuntService(app);
  app.decorate('hunt', hunt);
  app.addHook('preClose', async () => hunt.stop());
  app.chat.register(guessHandler());

  app.realtime.register(bonusHuntHub, {
    async connect(ctx) {
      ctx.join(HUNT_ROOM);
    },
    calls: {
      GetState: () => hunt.state(),
      GetGuesses: () => hunt.guesses(), // HUNT_RUNNER_ACCESS, checked by the hub layer
    },
  });

  route(app, huntEndpoints.list, async () => hunt.list());
  route(app, huntEndpoints.start, async (request) => hunt.start(currentUser(request), request.body));
  route(app, huntEndpoints.addBonus, async (request) =>
    hunt.addBonus(currentUser(request), request.params.huntId, request.body),
  );
  route(app, huntEndpoints.openBonus, async (request) =>
    hunt.openBonus(currentUser(request), request.params.huntId, request.params.bonusId, request.body.payout),
  );
  route(app, huntEndpoints.closeGuessing, async (request) =>
    hunt.closeGuessing(currentUser(request), request.params.huntId),
  );
  route(app, huntEndpoints.finish, async (request) => hunt.finish(currentUser(request), request.params.huntId));
});

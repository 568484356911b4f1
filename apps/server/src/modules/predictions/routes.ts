/**
 * Chat predictions on the app (`app.predictions`): the public `/KickPrediction` hub the overlay
 * reads, the admin REST calls (open, lock, resolve, cancel, hide, list) and the `!bet` chat
 * command, registered into the chat pipeline from here.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { predictionHub } from '@kickback/common/hubs/prediction';
import { predictionEndpoints } from '@kickback/common/http/prediction';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { betHandler } from './chat-command';
import { PREDICTION_ROOM } from './game';
import { PredictionService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    predictions: PredictionService;
  }
}

export const predictionsModule = plugin({
  name: 'predictionsModule',
  dependencies: ['chatModule', 'chatOutModule', 'gamesPlugin', 'kickBansPlugin', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const predictions = new PredictionService(app);
  app.decorate('predictions', predictions);
  app.addHook('preClose', async () => predictions.broadcaster.stop());
  app.chat.register(betHandler());

  // Public and read-only: anyone (OBS included) may watch; nothing on it changes anything.
  app.realtime.register(predictionHub, {
    async connect(ctx) {
      ctx.join(PREDICTION_ROOM);
    },
    calls: {
      GetState: () => predictions.state(),
    },
  });

  route(app, predictionEndpoints.myBets, async (request) =>
    predictions.betsOf(currentUser(request).id, request.query.page),
  );
  route(app, predictionEndpoints.list, async () => predictions.recent());
  route(app, predictionEndpoints.open, async (request) => predictions.open(currentUser(request), request.body));
  route(app, predictionEndpoints.lock, async (request) =>
    predictions.lock(currentUser(request), request.params.predictionId),
  );
  route(app, predictionEndpoints.cancel, async (request) =>
    predictions.cancel(currentUser(request), request.params.predictionId),
  );
  route(app, predictionEndpoints.hide, async (request) =>
    predictions.hide(currentUser(request), request.params.predictionId),
  );
  route(app, predictionEndpoints.resolve, async (request) =>
    predictions.resolve(currentUser(request), request.params.predictionId, request.body.answerId),
  );
});

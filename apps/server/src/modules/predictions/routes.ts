/**
 * Chat predictions on the app (`app.predictions`): the public `/KickPrediction` hub the overlay
 * reads, the admin REST calls (open, lock, resolve, cancel, hide, list) and the `!bet` chat
 * command, registered into the chat pipeline from here.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { predictionHub, predictionState, type PredictionState } from '@kickback/common/hubs/prediction';
import { pageQuery } from '@kickback/common/http/activity';
import {
  myPredictionsPage,
  openPredictionBody,
  predictionIdParams,
  predictionList,
  predictionSummary,
  resolvePredictionBody,
} from '@kickback/common/http/prediction';
import { currentUser } from '../../plugins/access';
import { betHandler } from './chat-command';
import { PREDICTION_ROOM } from './game';
import { PredictionService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    predictions: PredictionService;
  }
}

export const predictionsModule = fp(async (app: FastifyInstance) => {
  const predictions = new PredictionService(app);
  app.decorate('predictions', predictions);
  app.addHook('preClose', async () => predictions.broadcaster.stop());
  app.chat.register(betHandler(app.config.site.siteName));

  // Public and read-only: anyone (OBS included) may watch; nothing on it changes anything.
  app.realtime.register(predictionHub, {
    async connect(ctx) {
      ctx.join(PREDICTION_ROOM);
    },
    calls: {
      GetState: () => predictions.state(),
    },
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' } as const;
  r.get(
    '/api/me/predictions',
    { config: { access: 'user' }, schema: { querystring: pageQuery, response: { 200: myPredictionsPage } } },
    async (request) => predictions.betsOf(currentUser(request).id, request.query.page),
  );
  r.get('/api/predictions', { config: admin, schema: { response: { 200: predictionList } } }, async () =>
    predictions.recent(),
  );
  r.post(
    '/api/predictions',
    { config: admin, schema: { body: openPredictionBody, response: { 200: predictionSummary } } },
    async (request) => predictions.open(currentUser(request), request.body),
  );
  const transition = (
    path: string,
    run: (id: string, request: Parameters<typeof currentUser>[0]) => Promise<PredictionState>,
  ) =>
    r.post(
      `/api/predictions/:predictionId/${path}`,
      { config: admin, schema: { params: predictionIdParams, response: { 200: predictionState } } },
      async (request) => run(request.params.predictionId, request),
    );
  transition('lock', (id, request) => predictions.lock(currentUser(request), id));
  transition('cancel', (id, request) => predictions.cancel(currentUser(request), id));
  transition('hide', (id, request) => predictions.hide(currentUser(request), id));
  r.post(
    '/api/predictions/:predictionId/resolve',
    {
      config: admin,
      schema: { params: predictionIdParams, body: resolvePredictionBody, response: { 200: predictionState } },
    },
    async (request) => predictions.resolve(currentUser(request), request.params.predictionId, request.body.answerId),
  );
});

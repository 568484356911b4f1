/** The raffles module: public pages, buying, the verify record, My activity, Admin → Raffles, the `/Raffles` hub. */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { adminRaffleEndpoints, raffleEndpoints } from '@kickback/common/http/raffles';
import { rafflesHub } from '@kickback/common/hubs/raffles';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { RAFFLE_ROOM, RaffleService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    raffles: RaffleService;
  }
}

export const rafflesModule = plugin({
  name: 'rafflesModule',
  dependencies: ['chatOutModule', 'gamesPlugin', 'realtimePlugin', 'sessionPlugin'],
})(async (app: FastifyInstance) => {
  const raffles = new RaffleService(app);
  app.decorate('raffles', raffles);
  app.realtime.register(rafflesHub, {
    async connect(ctx) {
      ctx.join(RAFFLE_ROOM);
    },
    calls: { GetLastDraw: () => raffles.lastDraw() },
  });

  route(app, raffleEndpoints.list, (request) => raffles.list(request.user));
  route(app, raffleEndpoints.get, (request) => raffles.detail(request.params.id, request.user));
  route(app, raffleEndpoints.draw, (request) => raffles.drawRecord(request.params.id));
  route(app, raffleEndpoints.buy, (request) =>
    raffles.buy(currentUser(request), request.params.id, request.body.quantity),
  );
  route(app, raffleEndpoints.mine, (request) => raffles.myTickets(currentUser(request).id, request.query.page));

  route(app, adminRaffleEndpoints.list, () => raffles.adminList());
  route(app, adminRaffleEndpoints.create, (request) => raffles.create(currentUser(request), request.body));
  route(app, adminRaffleEndpoints.update, (request) =>
    raffles.update(currentUser(request), request.params.id, request.body),
  );
  route(app, adminRaffleEndpoints.open, (request) => raffles.open(currentUser(request), request.params.id));
  route(app, adminRaffleEndpoints.close, (request) => raffles.close(currentUser(request), request.params.id));
  route(app, adminRaffleEndpoints.cancel, (request) => raffles.cancel(currentUser(request), request.params.id));
  route(app, adminRaffleEndpoints.draw, (request) => raffles.draw(currentUser(request), request.params.id));

  app.addHook('onClose', async () => raffles.stop());
});

/**
 * The battles module (docs/features/bonus-buy-battles.md): the `/Battle` hub every viewer of a
 * battle joins, `!enter` in chat, the public list, entering and slots, the draw's record for the
 * verify page, and Admin → Battles. Battles left closed but undrawn by a process that died are
 * drawn when the server is ready.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { adminBattleEndpoints, battleEndpoints } from '@kickback/common/http/battles';
import { battleHub } from '@kickback/common/hubs/battle';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { enterHandler } from './chat-command';
import { BattleService } from './service';

export const battlesModule = plugin({
  name: 'battlesModule',
  dependencies: ['chatModule', 'gamesPlugin', 'realtimePlugin', 'slotCallsModule'],
})(async (app: FastifyInstance) => {
  const battles = new BattleService(app);

  const { connect, GetGameState } = battles.hub();
  app.realtime.register(battleHub, { connect, calls: { GetGameState } });
  app.chat.register(enterHandler(battles));

  route(app, battleEndpoints.list, () => battles.list());
  route(app, battleEndpoints.current, async () => ({ id: await battles.current() }));
  route(app, battleEndpoints.draw, (request) => battles.drawRecord(request.params.id));
  route(app, battleEndpoints.enter, (request) => battles.enter(currentUser(request), request.params.id));
  route(app, battleEndpoints.slot, (request) =>
    battles.setSlot(currentUser(request), request.params.id, request.body.slot),
  );

  route(app, adminBattleEndpoints.list, () => battles.list());
  route(app, adminBattleEndpoints.create, (request) => battles.create(currentUser(request), request.body));
  route(app, adminBattleEndpoints.close, (request) => battles.close(currentUser(request), request.params.id));
  route(app, adminBattleEndpoints.draw, (request) => battles.draw(request.params.id, currentUser(request)));
  route(app, adminBattleEndpoints.cancel, (request) =>
    battles.cancel(currentUser(request), request.params.id, request.body.reason),
  );
  route(app, adminBattleEndpoints.slot, (request) =>
    battles.adminSlot(currentUser(request), request.params.id, request.body.userId, request.body.slot),
  );
  route(app, adminBattleEndpoints.result, (request) =>
    battles.record(currentUser(request), request.params.id, request.params.no, request.body),
  );
  route(app, adminBattleEndpoints.replay, (request) =>
    battles.replay(currentUser(request), request.params.id, request.params.no, request.body.reason),
  );
  route(app, adminBattleEndpoints.void, (request) =>
    battles.voidMatch(currentUser(request), request.params.id, request.params.no, request.body.reason),
  );

  app.addHook('onReady', async () => {
    void battles.drawPending();
  });
});

/**
 * The slot calls module (docs/features/slot-calls.md): the public `/SlotCalls` hub and reads, the
 * calls that run the queue (moderators) and set its rules and catalogue (admins), the chat
 * commands, and the hunt's bonus-opened listener that pays callers.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { adminSlotCallEndpoints, slotCallEndpoints } from '@kickback/common/http/slot-calls';
import { slotCallsHub } from '@kickback/common/hubs/slot-calls';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { slotCallsHandler } from './chat-command';
import { SLOT_CALLS_ROOM, SlotCallService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    slotCalls: SlotCallService;
  }
}

export const slotCallsModule = plugin({
  name: 'slotCallsModule',
  dependencies: ['chatModule', 'huntModule', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const calls = new SlotCallService(app);
  app.decorate('slotCalls', calls);
  app.chat.register(slotCallsHandler());
  app.hunt.onBonusOpened((tx, opened, after) => calls.bonusOpened(tx, opened, after));

  app.realtime.register(slotCallsHub, {
    async connect(ctx) {
      ctx.join(SLOT_CALLS_ROOM);
    },
    calls: { GetState: () => calls.state() },
  });

  route(app, slotCallEndpoints.state, () => calls.state());
  route(app, slotCallEndpoints.pick, (request) => calls.pickRecord(request.params.id));

  const admin = adminSlotCallEndpoints;
  route(app, admin.rules, (request) => calls.setRules(currentUser(request), request.body));
  route(app, admin.open, (request) => calls.setOpen(actorOf(currentUser(request)), true));
  route(app, admin.close, (request) => calls.setOpen(actorOf(currentUser(request)), false));
  route(app, admin.clear, (request) => calls.clear(currentUser(request)));
  route(app, admin.pick, (request) => calls.pick(currentUser(request)));
  route(app, admin.resolve, (request) => calls.resolve(currentUser(request), request.params.id, request.body.outcome));
  route(app, admin.addToHunt, (request) => calls.addToHunt(currentUser(request), request.params.id, request.body));
  route(app, admin.catalogue, () => calls.catalogue());
  route(app, admin.addToCatalogue, (request) => calls.addToCatalogue(currentUser(request), request.body));
});

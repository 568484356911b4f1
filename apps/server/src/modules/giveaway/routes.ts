/**
 * The giveaway module: the admins' hub `/KickGiveAway`, the overlay's read-only hub, the public
 * roll record for the verify page, and two chat handlers — the key entry (a command: it consumes
 * the message) and the winners' messages (an observer, after chat points).
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { giveawayHub } from '@kickback/common/hubs/giveaway';
import { giveawayOverlayHub } from '@kickback/common/hubs/giveaway-overlay';
import { giveawayEndpoints } from '@kickback/common/http/giveaway';
import { moderationBanned } from '../../integrations/kick/events';
import { route } from '../../plugins/endpoints';
import { isBanned } from '../kick-bans/service';
import { syncGiveawayChatState } from './chat-state';
import { giveawayHubHandlers, giveawayOverlayHandlers } from './hub';
import { GiveawayService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    giveaway: GiveawayService;
  }
}

export const giveawayModule = plugin({
  name: 'giveawayModule',
  dependencies: ['chatModule', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const giveaway = new GiveawayService(app);
  app.decorate('giveaway', giveaway);
  if (app.redis) await syncGiveawayChatState(app, app.redis, giveaway.chatState);
  app.realtime.register(giveawayHub, giveawayHubHandlers(giveaway));
  app.realtime.register(giveawayOverlayHub, giveawayOverlayHandlers(giveaway));

  app.chat.register({
    name: 'giveaway-key',
    // A command beside !verify (100): a message that is a key enters and earns no chat points.
    order: 150,
    handle: (message, { linkedUser }) => giveaway.enter(message, linkedUser),
    mayAct: (message) => giveaway.mayBeKey(message),
  });
  app.chat.register({
    name: 'giveaway-winner-messages',
    // An observer after chat points (900): never consumes.
    order: 920,
    async handle(message) {
      await giveaway.noteWinnerMessage(message);
      return false;
    },
    // Its effect is a live event to the admins' panel: nothing to keep exactly once.
    mayAct: () => false,
  });

  // A chatter banned on Kick leaves the current round (the entry and the roll refuse them too).
  app.chat.kickEvents.register('moderation.banned', 'giveaway.drop-banned', async (tx, payload, meta, after) => {
    const kickUserId = moderationBanned.parse(payload).banned_user.user_id;
    if (await isBanned(tx, { kickUserId }, meta.receivedAt)) await giveaway.dropBanned(tx, kickUserId, after);
  });

  route(app, giveawayEndpoints.roll, async (request) => giveaway.rollRecord(request.params.rollId));

  app.addHook('onClose', async () => giveaway.stop());
});

/**
 * `app.kickBans`, and the `moderation.banned` handler: each ban is recorded in the transaction that
 * claims Kick's delivery (a redelivery records nothing twice), then this process's list of bans in
 * force is re-read.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { moderationBanned } from '../../integrations/kick/events';
import { KickBanList } from './ban-list';
import { recordBan } from './bans';
import type { KickBansService } from './service';

export const kickBansPlugin = plugin({
  name: 'kickBansPlugin',
  dependencies: ['chatModule'],
})(async (app: FastifyInstance) => {
  const list = new KickBanList(app.db, () => app.clock.now());
  const service: KickBansService = {
    banOf: (kickUserId) => list.banOf(kickUserId),
    changed: () => list.stale(),
  };
  app.decorate('kickBans', service);
  app.chat.kickEvents.register('moderation.banned', 'kick-bans.record', async (tx, payload, meta, after) => {
    if (await recordBan(tx, moderationBanned.parse(payload), meta)) after.push(() => list.stale());
  });
});

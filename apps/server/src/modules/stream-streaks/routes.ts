/**
 * Stream streaks (docs/features/stream-streaks.md): `app.streaks`, the live sessions recorded from
 * Kick's `livestream.status.updated`, the chat observer that records attendance, the viewer's
 * streak (`GET /api/me/streak`) and the admin's bonus table.
 */
import type { FastifyInstance } from 'fastify';
import { adminStreakEndpoints, streakEndpoints } from '@kickback/common/http/stream-streaks';
import { kickDate, livestreamStatus } from '../../integrations/kick/events';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { streakHandler } from './handler';
import { sessionEnded, sessionStarted, StreakService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    streaks: StreakService;
  }
}

export const streamStreaksModule = plugin({
  name: 'streamStreaksModule',
  dependencies: ['chatModule', 'kickBansPlugin'],
})(async (app: FastifyInstance) => {
  const streaks = new StreakService(app);
  app.decorate('streaks', streaks);
  app.chat.register(streakHandler);
  app.chat.kickEvents.register('livestream.status.updated', 'stream-streaks.sessions', async (tx, payload, meta) => {
    const event = livestreamStatus.parse(payload);
    if (event.is_live) await sessionStarted(tx, kickDate(event.started_at) ?? meta.sentAt);
    else await sessionEnded(tx, kickDate(event.ended_at) ?? meta.sentAt);
  });

  route(app, streakEndpoints.mine, (request) => streaks.mine(currentUser(request).id));
  route(app, adminStreakEndpoints.bonuses, async () => ({ bonuses: await streaks.bonuses() }));
  route(app, adminStreakEndpoints.saveBonuses, (request) =>
    streaks.saveBonuses(actorOf(currentUser(request)), request.body.bonuses),
  );
});

/** The signed-in user's site notifications (docs/features/store-limits.md#site-notifications). */
import type { FastifyInstance } from 'fastify';
import { notificationEndpoints } from '@kickback/common/http/notifications';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { listNotifications, markRead } from './service';

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  route(app, notificationEndpoints.list, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return listNotifications(app.db, currentUser(request).id);
  });

  route(app, notificationEndpoints.markRead, async (request) => {
    const n = await markRead(app.db, currentUser(request).id, request.body.ids);
    return { message: n === 1 ? '1 notification marked read.' : `${n} notifications marked read.` };
  });
}

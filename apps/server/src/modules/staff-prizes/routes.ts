/** Admin → Staff prize limits (`/api/admin/staff-prize-limits`): read and change the caps. */
import type { FastifyInstance } from 'fastify';
import { staffPrizeEndpoints, staffPrizeMessages } from '@kickback/common/http/staff-prizes';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { readStaffPrizeLimits, updateStaffPrizeLimits } from './service';

export async function staffPrizeRoutes(app: FastifyInstance): Promise<void> {
  route(app, staffPrizeEndpoints.get, async () => readStaffPrizeLimits(app.db, app.clock.now()));

  route(app, staffPrizeEndpoints.update, async (request) => {
    const limits = await updateStaffPrizeLimits(app.db, currentUser(request), request.body, app.clock.now());
    return { message: staffPrizeMessages.saved, limits };
  });
}

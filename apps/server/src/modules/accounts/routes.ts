/**
 * The signed-in user's own accounts: partner ids (`POST /api/User/ids`), Kick link codes
 * (`GET /api/User/link/kick`), unlinking (`GET /api/User/unlink?type=kick|discord`) and the
 * leaderboard-name preference (`POST /api/User/preferences`); and `!verify <code>` in the chat.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accountEndpoints } from '@kickback/common/http/accounts';
import { users } from '../../db/schema/users';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { createKickLinkCode, verifyHandler } from './kick-link';
import { savePartnerIds } from './partner-ids';
import { unlinkAccount } from './unlink';

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  app.chat.register(verifyHandler());
  route(app, accountEndpoints.savePartnerIds, async (request) => {
    const user = currentUser(request);
    // Hashed partner ids for the possible-alts view, kept even when the save is refused (an id
    // another account holds): docs/features/fair-earning.md#possible-alts.
    const typed = Object.entries(request.body).filter((e): e is [string, string] => typeof e[1] === 'string');
    await app.fairEarning.recordPartnerIds(
      user.id,
      typed.filter(([, id]) => id.trim() !== '').map(([site, id]) => `${site}:${id.trim()}`),
    );
    await savePartnerIds(app.db, user, request.body, app.clock.now());
    return { message: request.t('common:settingsUpdated') };
  });

  route(app, accountEndpoints.kickCode, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return createKickLinkCode(app.db, currentUser(request), app.clock.now());
  });

  route(app, accountEndpoints.unlink, async (request) => {
    const user = currentUser(request);
    await unlinkAccount(app.db, user.id, request.query.type);
    if (request.query.type === 'kick') await app.chat.linkChanged(user.id);
    request.log.info({ userId: user.id, type: request.query.type }, 'account unlinked');
    return { message: request.t('common:connectionUnlinked') };
  });

  route(app, accountEndpoints.savePreferences, async (request) => {
    await app.db
      .update(users)
      .set({ showNameOnBoards: request.body.showNameOnBoards })
      .where(eq(users.id, currentUser(request).id));
    app.leaderboards.cache.invalidate(); // the boards show or mask this user's name
    return { message: request.t('common:settingsUpdated') };
  });
}

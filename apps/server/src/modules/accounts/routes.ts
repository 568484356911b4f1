/**
 * The signed-in user's own accounts: partner ids (`POST /api/User/ids`), Kick link codes
 * (`GET /api/User/link/kick`), unlinking (`GET /api/User/unlink?type=kick|discord`) and the
 * leaderboard-name preference (`POST /api/User/preferences`); and `!verify <code>` in the chat.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { kickLinkKey, partnerIdsBody, preferencesBody, unlinkQuery } from '@kickback/common/http/accounts';
import { messageBody } from '@kickback/common/http/errors';
import { messages } from '@kickback/common/messages';
import { users } from '../../db/schema/users';
import { currentUser } from '../../plugins/access';
import { createKickLinkCode, verifyHandler } from './kick-link';
import { savePartnerIds } from './partner-ids';
import { unlinkAccount } from './unlink';

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  app.chat.register(verifyHandler(app.config.site.siteName));
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/User/ids',
    { config: { access: 'user' }, schema: { body: partnerIdsBody, response: { 200: messageBody } } },
    async (request) => {
      await savePartnerIds(app.db, currentUser(request), request.body, app.clock.now());
      return { message: messages.settingsUpdated };
    },
  );

  r.get(
    '/api/User/link/kick',
    { config: { access: 'user' }, schema: { response: { 200: kickLinkKey } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return createKickLinkCode(app.db, currentUser(request), app.clock.now());
    },
  );

  r.get(
    '/api/User/unlink',
    { config: { access: 'user' }, schema: { querystring: unlinkQuery, response: { 200: messageBody } } },
    async (request) => {
      const user = currentUser(request);
      await unlinkAccount(app.db, user.id, request.query.type);
      if (request.query.type === 'kick') await app.chat.linkChanged(user.id);
      request.log.info({ userId: user.id, type: request.query.type }, 'account unlinked');
      return { message: messages.connectionUnlinked };
    },
  );

  r.post(
    '/api/User/preferences',
    { config: { access: 'user' }, schema: { body: preferencesBody, response: { 200: messageBody } } },
    async (request) => {
      await app.db
        .update(users)
        .set({ showNameOnBoards: request.body.showNameOnBoards })
        .where(eq(users.id, currentUser(request).id));
      return { message: messages.settingsUpdated };
    },
  );
}

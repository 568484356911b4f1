/** Admin → Moderation (`/api/admin/moderation`): the filters' settings and the moderation log. */
import type { FastifyInstance } from 'fastify';
import { moderationEndpoints, type ModerationSettingsView } from '@kickback/common/http/chat-moderation';
import { missingScopes } from '../../integrations/kick/features';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf, recordAudit } from '../audit/service';
import { logPage } from './log';
import { readSettings, writeSettings } from './settings';

export async function moderationRoutes(app: FastifyInstance): Promise<void> {
  const view = async (): Promise<ModerationSettingsView> => {
    const { settings, updatedAt } = await readSettings(app.db);
    const bot = app.kickBot ? await app.kickBot.tokens.state() : null;
    const feature = missingScopes(app.chat.kickEvents, bot?.scope ?? null).find((f) => f.id === 'moderation');
    return {
      settings,
      updatedAt: updatedAt?.toISOString() ?? null,
      missingScopes: bot?.connected && feature ? feature.missing : [],
      botConnected: bot?.connected ?? false,
    };
  };

  route(app, moderationEndpoints.get, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return view();
  });

  route(app, moderationEndpoints.update, async (request) => {
    const before = await readSettings(app.db);
    await app.db.transaction(async (tx) => {
      await writeSettings(tx, request.body, app.clock.now());
      await recordAudit(tx, actorOf(currentUser(request)), {
        action: 'chat.moderation.update',
        targetType: 'chat-moderation',
        targetId: '1',
        before: before.settings,
        after: request.body,
      });
    });
    await app.chatModeration.refresh();
    return { message: 'Moderation filters saved.', view: await view() };
  });

  route(app, moderationEndpoints.log, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return logPage(app.db, request.query.page);
  });
}

/**
 * `app.chatModeration`: the filters' settings cache, the chat handler that runs first in the Kick
 * chat pipeline, the Admin → Moderation routes, and the Kick scopes the filters need (asked for by
 * "Connect Kick bot" while any filter is on).
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { ModerationLogWriter, pruneLog } from './log';
import { moderate, moderationHandler } from './moderator';
import { moderationRoutes } from './routes';
import type { ChatModerationService } from './service';
import { SettingsCache } from './settings';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const chatModerationPlugin = plugin({
  name: 'chatModerationPlugin',
  dependencies: ['chatModule', 'credentialsPlugin'],
})(async (app: FastifyInstance) => {
  const cache = new SettingsCache(
    app.db,
    () => app.clock.now().getTime(),
    (pattern, ms) => app.log.warn({ pattern, ms }, 'a moderation pattern was too slow and is off in this process'),
    (err) => app.log.warn({ err }, 'moderation settings could not be read'),
  );
  await cache.refresh();
  const log = new ModerationLogWriter(app.database);
  const service: ChatModerationService = {
    filters: () => cache.current(),
    refresh: () => cache.refresh(),
    moderate: (message, verdict) => moderate(app, log, message, verdict),
    logStatements: () => log.batches,
  };
  app.decorate('chatModeration', service);
  app.chat.register(moderationHandler(app, cache, log));
  app.chat.kickEvents.switchFeature('moderation', () => cache.current().anyOn);
  await app.register(moderationRoutes);

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    const prune = () =>
      pruneLog(app.db, app.clock.now()).catch((err: unknown) => app.log.warn({ err }, 'moderation log pruning failed'));
    timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
  // What is waiting is written before the database closes.
  app.addHook('onClose', async () => {
    await log.drain();
  });
});

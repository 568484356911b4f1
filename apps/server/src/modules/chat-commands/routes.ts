/**
 * The custom commands module (docs/features/custom-commands.md): `app.chatCommands`, the chat
 * handler registered into the Kick chat pipeline, the timers' rounds in a listening server, and
 * the Admin → Commands calls (moderators and admins).
 */
import type { FastifyInstance } from 'fastify';
import { commandEndpoints, parseTemplate } from '@kickback/common/http/chat-commands';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { commandsHandler } from './handler';
import { ChatCommandService, siteSlugs } from './service';
import { timerRound } from './timers';

export const chatCommandsModule = plugin({
  name: 'chatCommandsModule',
  dependencies: ['chatModule', 'chatOutModule', 'leaderboardsModule'],
})(async (app: FastifyInstance) => {
  const service = new ChatCommandService(app);
  app.decorate('chatCommands', service);
  app.chat.register(commandsHandler(app));

  const e = commandEndpoints;
  const actor = (request: Parameters<typeof currentUser>[0]) => actorOf(currentUser(request));
  route(app, e.overview, () => service.overview());
  route(app, e.create, (request) => service.create(actor(request), request.body));
  route(app, e.update, (request) => service.update(actor(request), request.params.id, request.body));
  route(app, e.remove, (request) => service.remove(actor(request), request.params.id));
  route(app, e.builtinAliases, (request) =>
    service.setBuiltinAliases(actor(request), request.params.name, request.body.aliases),
  );
  route(app, e.preview, async (request) => {
    const { parts, problems } = parseTemplate(request.body.response, siteSlugs);
    const sample = {
      messageId: 'preview',
      kickUserId: 'preview',
      kickUsername: 'viewer',
      color: null,
      isSubscriber: false,
      badges: [],
      content: '!command someone',
      sentAt: app.clock.now(),
    };
    const text = problems.length > 0 ? '' : await service.render(parts, sample, null, { uses: 42, balance: '1500' });
    return { text, problems };
  });
  route(app, e.createTimer, (request) => service.createTimer(actor(request), request.body));
  route(app, e.updateTimer, (request) => service.updateTimer(actor(request), request.params.id, request.body));
  route(app, e.removeTimer, (request) => service.removeTimer(actor(request), request.params.id));

  // A round every tick in a listening server only (tests run rounds themselves).
  const tickMs = app.config.chatTimersTickMs;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(
      () => void timerRound(app, tickMs / 2).catch((err: unknown) => app.log.warn({ err }, 'chat timers round failed')),
      tickMs,
    );
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
});

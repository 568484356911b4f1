/**
 * `app.chatPoints`: the chat-points buffer, flushed on a timer in a listening server and on close;
 * its chat handler marks linked chatters active.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { chatPointsHandler } from './handler';
import { ChatPoints } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    chatPoints: ChatPoints;
  }
}

export const chatPointsPlugin = plugin({
  name: 'chatPointsPlugin',
  dependencies: ['chatModule', 'kickBansPlugin'],
})(async (app: FastifyInstance) => {
  const { pointsPerMinute, flushMs } = app.config.chatPoints;
  const onError = (err: unknown) => app.log.error({ err }, 'chat points flush failed');
  const chatPoints = new ChatPoints(app.db, { pointsPerMinute }, onError);
  app.decorate('chatPoints', chatPoints);
  app.chat.register(chatPointsHandler);

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onListen', async () => {
    timer = setInterval(() => void chatPoints.flush().catch(onError), flushMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
  app.addHook('onClose', async () => {
    await chatPoints.flush().catch(onError);
  });
});

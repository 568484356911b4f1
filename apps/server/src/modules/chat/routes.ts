/** Admin: the recent chat and what the pipeline did with it; posting as any Kick user (simulator). */
import type { FastifyInstance } from 'fastify';
import { chatEndpoints } from '@kickback/common/http/chat';
import { route } from '../../plugins/endpoints';
import { recentChatters } from './activity';
import { recentChatLog } from './log';
import { liveState, simulateChat, simulateEvent, simulateLive } from './simulate';

const LOG_SIZE = 50;
const CHATTER_SUGGESTIONS = 20;

export async function chatAdminRoutes(app: FastifyInstance): Promise<void> {
  route(app, chatEndpoints.messages, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const [messages, chatters, live] = await Promise.all([
      recentChatLog(app.db, LOG_SIZE),
      recentChatters(app.db, CHATTER_SUGGESTIONS),
      liveState(app),
    ]);
    return {
      simulator: app.config.kick.simulator,
      live,
      messages,
      chatters: chatters.map((c) => ({ kickUsername: c.kickUsername, isSubscriber: c.isSubscriber })),
    };
  });

  route(app, chatEndpoints.simulate, async (request) => simulateChat(app, request.body));
  route(app, chatEndpoints.simulateEvent, async (request) => simulateEvent(app, request.body));

  route(app, chatEndpoints.liveState, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return liveState(app);
  });

  route(app, chatEndpoints.live, async (request) => simulateLive(app, request.body.isLive));
}

/** Admin: the recent chat and what the pipeline did with it; posting as any Kick user (simulator). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  chatLiveBody,
  chatLiveResult,
  chatLog,
  chatSimulateBody,
  chatSimulateResult,
} from '@kickback/common/http/chat';
import { recentChatters } from './activity';
import { recentChatLog } from './log';
import { liveState, simulateChat, simulateLive } from './simulate';

const LOG_SIZE = 50;
const CHATTER_SUGGESTIONS = 20;

export async function chatAdminRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/chat/messages',
    { config: { access: 'admin' }, schema: { response: { 200: chatLog } } },
    async (_request, reply) => {
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
    },
  );

  r.post(
    '/api/admin/chat/simulate',
    { config: { access: 'admin' }, schema: { body: chatSimulateBody, response: { 200: chatSimulateResult } } },
    async (request) => simulateChat(app, request.body),
  );

  r.post(
    '/api/admin/chat/live',
    { config: { access: 'admin' }, schema: { body: chatLiveBody, response: { 200: chatLiveResult } } },
    async (request) => simulateLive(app, request.body.isLive),
  );
}

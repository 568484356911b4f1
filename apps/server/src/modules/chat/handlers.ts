/**
 * The handlers every chat message goes through, in order, after the sender's activity is
 * recorded. Features add theirs here: `!verify` (accounts), chat-activity points (economy), and
 * later giveaway keys and `!bet` (predictions). A handler answers in chat with
 * `ctx.app.chat.reply(message, text)` (posted as the connected Kick bot, kept with the message).
 */
import type { FastifyInstance } from 'fastify';
import { verifyHandler } from '../accounts/kick-link';
import { chatPointsHandler } from '../chat-points/handler';
import type { ChatHandler } from './types';

export function buildChatHandlers(app: FastifyInstance): ChatHandler[] {
  // `!verify` first: a message it consumes earns nothing (routing stops there).
  return [verifyHandler(app.config.site.siteName), chatPointsHandler];
}

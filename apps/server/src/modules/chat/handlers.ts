/**
 * The handlers every chat message goes through, in order, after the sender's activity is
 * recorded. Features add theirs here: `!verify` (accounts), chat-activity points (economy), and
 * later giveaway keys and `!bet` (predictions).
 */
import type { FastifyInstance } from 'fastify';
import { verifyHandler } from '../accounts/kick-link';
import type { ChatHandler } from './types';

export function buildChatHandlers(app: FastifyInstance): ChatHandler[] {
  return [verifyHandler(app.config.site.siteName)];
}

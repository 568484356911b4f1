/**
 * The shape every chat source (Kick webhooks, the Kick chat websocket, the chat simulator) turns a
 * message into, and the handlers the chat pipeline routes each message through.
 */
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../db/schema/users';

export interface ChatMessage {
  /** The source's message id; a message is processed once per id. */
  messageId: string;
  kickUserId: string;
  kickUsername: string;
  /** Badge colour of the sender's name, when the source gives one. */
  color: string | null;
  isSubscriber: boolean;
  badges: string[];
  content: string;
  sentAt: Date;
}

export interface ChatContext {
  app: FastifyInstance;
  /** The site user who linked the sender's Kick account, if any. */
  linkedUser: UserRow | null;
}

export interface ChatHandler {
  name: string;
  /** Returns true when the message was a command this handler consumed (routing stops). */
  handle(message: ChatMessage, ctx: ChatContext): Promise<boolean | void>;
}

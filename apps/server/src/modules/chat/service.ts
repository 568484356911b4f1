/**
 * The chat module's public surface: `app.chat`, and what a feature needs to take part in the chat
 * pipeline. The pipeline knows no feature: a feature registers its handler with
 * `app.chat.register(handler)` from its own plugin (like game timers), and the pipeline runs the
 * registered handlers in `order` until one takes the message as its command.
 *
 * Orders, lowest first: commands that consume what they recognise (`!verify` 100; the giveaway's
 * keys and `!bet` go beside it) before observers that only watch and never consume (chat points
 * 900), so a command earns nothing and is handled once.
 */
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../db/schema/users';
import type { KickApi } from '../../integrations/kick/api';
import type { ChatMessage } from '../../integrations/kick/chat-message';

export type ChatSource = 'kick-webhook' | 'kick-websocket' | 'simulator';

export interface PipelineResult {
  /** The message id had been processed before; nothing ran. */
  duplicate: boolean;
  handledBy: string | null;
  linkedUserId: string | null;
  errors: string[];
}

export interface ChatContext {
  app: FastifyInstance;
  /** The site user who linked the sender's Kick account, if any. */
  linkedUser: UserRow | null;
}

export interface ChatHandler {
  /** Kept with each message it takes (`handled_by`) and named in the log when it fails. */
  name: string;
  /** Lower runs first; two handlers never share an order, so the sequence is always explicit. */
  order: number;
  /** Returns true when the message was a command this handler consumed (routing stops). */
  handle(message: ChatMessage, ctx: ChatContext): Promise<boolean | void>;
}

export interface ChatService {
  /** Adds a handler to the pipeline; every message processed afterwards goes through it. */
  register(handler: ChatHandler): void;
  /** Runs a message through the pipeline (once per message id). */
  process(message: ChatMessage, source: ChatSource): Promise<PipelineResult>;
  /**
   * Answers a message in chat: posted with KICK_BOT_TOKEN through Kick's API (logged when there is
   * none) and kept with the message for the Chat Simulator page. Never throws for Kick's sake.
   */
  reply(message: ChatMessage, text: string): Promise<void>;
  kickApi: KickApi;
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService;
  }
}

/** The registered handlers, kept in order. */
export class ChatHandlers {
  private readonly list: ChatHandler[] = [];

  register(handler: ChatHandler): void {
    const clash = this.list.find((h) => h.name === handler.name || h.order === handler.order);
    if (clash) {
      throw new Error(
        `chat handler ${handler.name} (order ${handler.order}) clashes with ${clash.name} (order ${clash.order})`,
      );
    }
    this.list.push(handler);
    this.list.sort((a, b) => a.order - b.order);
  }

  /** A snapshot: a handler registered while a message is being processed waits for the next one. */
  inOrder(): readonly ChatHandler[] {
    return [...this.list];
  }
}

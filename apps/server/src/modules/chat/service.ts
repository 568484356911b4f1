/**
 * The chat module's public surface: `app.chat`, and what a feature needs to take part in the chat
 * pipeline. The pipeline knows no feature: a feature registers its handler with
 * `app.chat.register(handler)` from its own plugin (like game timers), and the pipeline runs the
 * registered handlers in `order` until one takes the message as its command.
 *
 * Orders, lowest first: moderation (below 60) sees every message before anything answers it; the
 * custom commands (60) answer their own words and turn aliases of built-ins into the built-in's
 * words; commands that consume what they recognise (`!verify` 100; the giveaway's keys and `!bet`
 * go beside it) before observers that only watch and never consume (chat points 900), so a
 * command earns nothing and is handled once.
 */
import type { KickEventHandlers } from '../../integrations/kick/event-handlers';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import type { KickApi } from '../../integrations/kick/api';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { LinkedChatter } from './linked-users';

export type { LinkedChatter } from './linked-users';

export type ChatSource = 'kick-webhook' | 'kick-websocket' | 'simulator';

export interface PipelineResult {
  /** The message id had been processed before; nothing ran. */
  duplicate: boolean;
  /** Another process is processing this message id right now; nothing ran (ask Kick to retry). */
  inFlight: boolean;
  handledBy: string | null;
  linkedUserId: string | null;
  errors: string[];
}

export interface ChatContext {
  app: FastifyInstance;
  /** The site user who linked the sender's Kick account, if any (from memory: read balances afresh). */
  linkedUser: LinkedChatter | null;
  /**
   * Marks the message handled by `handler` inside the caller's transaction; false when it already
   * was (a redelivery or a takeover of a message whose effect committed): the caller then rolls
   * back and does nothing. A handler whose effect must happen once per message calls it.
   */
  once(tx: Tx, handler: string): Promise<boolean>;
}

export interface ChatHandler {
  /** Kept with each message it takes (`handled_by`) and named in the log when it fails. */
  name: string;
  /** Lower runs first; two handlers never share an order, so the sequence is always explicit. */
  order: number;
  /**
   * Returns true when the message was a command this handler consumed (routing stops). Returns a
   * message instead to hand the handlers after it that message in its place (same id, other
   * words): an alias of a built-in command typed in chat becomes the built-in's own words
   * (docs/features/custom-commands.md#built-in-commands).
   */
  handle(message: ChatMessage, ctx: ChatContext): Promise<boolean | void | ChatMessage>;
  /**
   * A cheap test made before the message is recorded: false when `handle` will surely neither
   * consume this message nor change anything that must happen exactly once for it (an observer
   * whose effect lives in memory says false for every message). Left out, it is taken as true.
   *
   * When every handler says false — plain chat, most of a busy chat — the message is recorded
   * already processed, in one write instead of two (no lease to hand back and no completion), and
   * the handlers run after that write committed; a process that dies before they ran loses only
   * their in-memory effects. Otherwise the message is recorded with a lease, so a redelivery or
   * the sweeper takes it over if this process dies, and marked processed after the handlers.
   */
  mayAct?(message: ChatMessage): boolean;
}

export interface ChatService {
  /** Adds a handler to the pipeline; every message processed afterwards goes through it. */
  register(handler: ChatHandler): void;
  /** Runs a message through the pipeline (once per message id). */
  process(message: ChatMessage, source: ChatSource): Promise<PipelineResult>;
  /**
   * Answers a message's sender in chat (`answer` without the "@name"): kept with the message as
   * "@name answer" for the Chat Simulator page by the chat's next write, which the pipeline waits
   * for before it answers the delivery, and queued for Kick by the outgoing chat queue (app.chatOut):
   * an acknowledgement given `ack` folds with the others of its topic ("Bets taken: @a 500 on 1 ·
   * …"), any other answer with the sender's other answers. Never throws for Kick's sake.
   */
  reply(message: ChatMessage, answer: string, ack?: { topic: string; item: string }): Promise<void>;
  /** A user's Kick link, exclusion or Kick name changed (call after commit): every process's lookup follows. */
  linkChanged(userId: string): Promise<void>;
  /**
   * Whether the stream is live (Kick's `livestream.status.updated`), or null when no such event was
   * ever received. Read from memory, at most a few seconds old in other processes.
   */
  isLive(): Promise<boolean | null>;
  /** Processes messages left unprocessed by a process that died (a timer runs it in a listening server). */
  sweep(limit?: number): Promise<number>;
  /** Statements the batched ingest has written so far (tests and the benchmark read it). */
  readonly batches: number;
  kickApi: KickApi;
  /**
   * Handlers of Kick's other webhook events: a module registers per event type; each runs in the
   * transaction that claims the delivery (../../integrations/kick/event-handlers.ts).
   */
  kickEvents: KickEventHandlers;
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

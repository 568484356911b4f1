/**
 * The chat pipeline every source feeds (Kick webhooks, the Kick chat websocket, the simulator
 * through the webhook). For each message:
 *
 * 1. look the sender's linked site user up in memory (linked-users.ts);
 * 2. record it — batched with the other messages of the same few milliseconds into one statement
 *    that also deduplicates (the message id is the key, so with several processes each message is
 *    processed once) and records the sender's activity (ingest.ts); a message that some handler may
 *    act on (`ChatHandler.mayAct`) is recorded with a lease, plain chat already processed;
 * 3. after the messages the same sender sent before it here, run the registered handlers (service.ts)
 *    in order until one takes the message as its command; a failing handler is logged and the
 *    others still run. A handler that changes balances (a bet) marks the message handled inside its
 *    own transaction (`ctx.once`), so its effect commits exactly once whoever processes the message;
 * 4. mark it processed — batched again, and only for a leased message or one a handler took or
 *    failed on — and only then answer.
 *
 * If anything but a handler fails, the message's claim is given back so a retry processes it; if
 * the process dies in between, the lease runs out and a redelivery (or the sweeper) takes it over.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatWriter } from './ingest';
import type { LinkedChatter, LinkedUsers } from './linked-users';
import type { ChatContext, ChatHandler, ChatSource, PipelineResult } from './service';

/** How long a recorded message belongs to the process that recorded it before another may take it over. */
export const CLAIM_LEASE_MS = 30_000;

export class ChatPipeline {
  /** Per Kick user, the end of the last message queued here: a user's messages run in arrival order. */
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Messages being processed here, so a redelivery meanwhile waits for the first and is a duplicate. */
  private readonly inFlight = new Map<string, Promise<PipelineResult>>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly writer: ChatWriter,
    private readonly linked: LinkedUsers,
    private readonly handlers: () => readonly ChatHandler[],
  ) {}

  process(message: ChatMessage, source: ChatSource): Promise<PipelineResult> {
    const running = this.inFlight.get(message.messageId);
    if (running) {
      return running.then(
        () => ({ duplicate: true, inFlight: false, handledBy: null, linkedUserId: null, errors: [] }),
        () => this.process(message, source),
      );
    }
    const result = this.run(message, source);
    this.inFlight.set(message.messageId, result);
    const forget = () => {
      if (this.inFlight.get(message.messageId) === result) this.inFlight.delete(message.messageId);
    };
    result.then(forget, forget);
    return result;
  }

  private async run(message: ChatMessage, source: ChatSource): Promise<PipelineResult> {
    const receivedAt = this.app.clock.now();
    // From memory without a promise when it can (nearly every message), else through the database.
    const known = this.linked.findLoaded(message.kickUserId);
    const linkedUser =
      known !== undefined && (known === null || known.kickUsername === message.kickUsername)
        ? known
        : await this.linkedUser(message);
    const handlers = this.handlers();
    // Plain chat no handler will act on is recorded processed at once: one write, no completion.
    const leased = handlers.some((h) => h.mayAct?.(message) ?? true);
    const recorded = this.writer.record({
      message,
      source,
      linkedUserId: linkedUser?.id ?? null,
      receivedAt,
      claimedUntil: leased ? new Date(receivedAt.getTime() + CLAIM_LEASE_MS) : null,
      processedAt: leased ? null : receivedAt,
    });
    // Queue behind the sender's previous message now, in arrival order, while the row is written.
    // (A tail never rejects: see below.)
    const previous = this.tails.get(message.kickUserId);
    const turn = recorded.then(async (claim) => {
      if (claim !== 'claimed') return { claim, handled: null };
      if (previous) await previous;
      return { claim, handled: await this.runHandlers(message, linkedUser, handlers) };
    });
    const kickUserId = message.kickUserId;
    const tail: Promise<unknown> = turn.then(
      () => this.untail(kickUserId, tail),
      () => this.untail(kickUserId, tail),
    );
    this.tails.set(kickUserId, tail);

    const { claim, handled } = await turn;
    if (claim !== 'claimed' || !handled) {
      return {
        duplicate: claim === 'processed',
        inFlight: claim === 'in-flight',
        handledBy: null,
        linkedUserId: null,
        errors: [],
      };
    }
    const result = { duplicate: false, inFlight: false, linkedUserId: linkedUser?.id ?? null, ...handled };
    // Recorded processed: written again only to keep what a handler did or which one failed.
    if (!leased && handled.handledBy === null && handled.errors.length === 0) return result;
    try {
      await this.writer.complete({
        messageId: message.messageId,
        handledBy: handled.handledBy,
        errors: handled.errors,
        processedAt: this.app.clock.now(),
      });
    } catch (err) {
      if (leased) await this.release(message.messageId);
      throw err;
    }
    return result;
  }

  /** The end of a sender's queue: forgotten once it is still the last (no message of theirs waits). */
  private untail(kickUserId: string, tail: Promise<unknown>): void {
    if (this.tails.get(kickUserId) === tail) this.tails.delete(kickUserId);
  }

  /** Takes up to `limit` messages whose lease ran out unprocessed (their process died) and processes them. */
  async sweep(limit = 100): Promise<number> {
    const now = this.app.clock.now();
    const until = new Date(now.getTime() + CLAIM_LEASE_MS);
    const rows = await this.app.database.query<{
      message_id: string;
      kick_user_id: string;
      kick_username: string;
      color: string | null;
      is_subscriber: boolean;
      badges: string[];
      content: string;
      sent_at: string | Date;
    }>(
      `UPDATE chat_messages SET claimed_until = $2
       WHERE message_id IN (SELECT message_id FROM chat_messages
                            WHERE processed_at IS NULL AND COALESCE(claimed_until, '-infinity') < $1
                            ORDER BY claimed_until LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING message_id, kick_user_id, kick_username, color, is_subscriber, badges, content, sent_at`,
      [now.toISOString(), until.toISOString(), limit],
    );
    for (const r of rows) {
      const message: ChatMessage = {
        messageId: r.message_id,
        kickUserId: r.kick_user_id,
        kickUsername: r.kick_username,
        color: r.color,
        isSubscriber: r.is_subscriber,
        badges: r.badges,
        content: r.content,
        sentAt: new Date(r.sent_at),
      };
      const linkedUser = await this.linkedUser(message);
      const handled = await this.runHandlers(message, linkedUser, this.handlers());
      await this.writer.complete({ messageId: r.message_id, ...handled, processedAt: this.app.clock.now() });
    }
    return rows.length;
  }

  private async linkedUser(message: ChatMessage): Promise<LinkedChatter | null> {
    const user = await this.linked.find(message.kickUserId);
    if (!user || user.kickUsername === message.kickUsername) return user;
    // Kick names can change; the link follows the account id, the name follows Kick.
    await this.app.database.query('UPDATE users SET kick_username = $2 WHERE id = $1 AND kick_id = $3', [
      user.id,
      message.kickUsername,
      message.kickUserId,
    ]);
    await this.linked.changed(user.id);
    return { ...user, kickUsername: message.kickUsername };
  }

  private async runHandlers(message: ChatMessage, linkedUser: LinkedChatter | null, handlers: readonly ChatHandler[]) {
    const app = this.app;
    const ctx: ChatContext = {
      app,
      linkedUser,
      once: async (tx: Tx, handler: string) => {
        const marked = await tx.execute(sql`
          UPDATE chat_messages SET handled_by = ${handler}, processed_at = ${app.clock.now().toISOString()}::timestamptz
          WHERE message_id = ${message.messageId} AND processed_at IS NULL
          RETURNING 1 AS marked`);
        return rowsOf(marked).length > 0;
      },
    };
    let handledBy: string | null = null;
    const errors: string[] = [];
    let current = message;
    for (const handler of handlers) {
      try {
        const outcome = await handler.handle(current, ctx);
        if (typeof outcome === 'object') {
          // The handlers after this one see the message in other words (an alias of a built-in).
          current = { ...outcome, messageId: message.messageId };
          continue;
        }
        if (outcome) {
          handledBy = handler.name;
          break;
        }
      } catch (err) {
        errors.push(handler.name);
        app.log.error({ err, handler: handler.name, messageId: message.messageId }, 'chat handler failed');
      }
    }
    return { handledBy, errors };
  }

  /** Gives a claim back (processing failed): Kick's retry, or the sweeper, processes it again. */
  private async release(messageId: string): Promise<void> {
    await this.app.database
      .query('UPDATE chat_messages SET claimed_until = NULL WHERE message_id = $1 AND processed_at IS NULL', [
        messageId,
      ])
      .catch((err: unknown) => this.app.log.error({ err, messageId }, 'chat message claim not released'));
  }
}

/**
 * `POST /webhooks/kick`: Kick's event deliveries (and the chat simulator's, signed the same way).
 * In order: the six headers are there, the RSA-SHA256 signature over `messageId.timestamp.rawBody`
 * holds against a trusted key, the timestamp is within 5 minutes of our clock, the message id was
 * never seen, the body parses. Then the event goes to the sink. A refusal answers 4xx with no
 * detail; the log says why.
 *
 * Kick delivers at least once and unsubscribes an app whose endpoint keeps failing, so a delivery
 * already seen answers 200 and does nothing; and a delivery whose processing fails gives its
 * message id back, so Kick's retry is processed instead of being taken for a duplicate. Chat
 * messages — nearly all the traffic — are deduplicated by the chat pipeline itself: the message row
 * is the claim, written in the same statement as the message (so no crash can leave a claim without
 * its message), and the answer waits until it is committed. A redelivery of a message another
 * process is still on answers 503, so Kick comes back later. Other events claim their delivery id
 * in the deliveries table in the same transaction as their handlers' writes (see handleEvent).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client';
import { kickWebhookDeliveries } from '../../db/schema/chat';
import { kickEventLastSeen } from '../../db/schema/kick-bans';
import { AfterCommit } from '../../lib/after-commit';
import type { ChatMessage } from './chat-message';
import type { KickEventHandlers, KickEventMeta } from './event-handlers';
import {
  broadcasterIdOf,
  chatMessageFromWebhook,
  chatMessageSent,
  isKickEventType,
  KICK_EVENT_SCHEMAS,
} from './events';
import { isFreshTimestamp, verifyKickSignature } from './signature';
import { MalformedKickEvent } from './support-events';
import type { WebhookKeyring } from './webhook-keys';

export interface KickEventSink {
  /**
   * Records and processes a chat message (once per message id): `duplicate` when it was processed
   * before, `in-flight` when another process is on it right now.
   */
  chatMessage(message: ChatMessage): Promise<'processed' | 'duplicate' | 'in-flight'>;
}

export interface KickWebhookOptions {
  keyring: WebhookKeyring;
  sink: KickEventSink;
  /** Every other event type's handlers (./event-handlers). */
  handlers: KickEventHandlers;
  /** Events of other channels are acknowledged and ignored. */
  /** The streamer's Kick user id now (events of other channels are ignored). */
  broadcasterUserId: () => string | undefined;
}

export const KICK_WEBHOOK_PATH = '/webhooks/kick';
const BODY_LIMIT = 64 * 1024;

const headerNames = {
  messageId: 'kick-event-message-id',
  subscriptionId: 'kick-event-subscription-id',
  signature: 'kick-event-signature',
  timestamp: 'kick-event-message-timestamp',
  type: 'kick-event-type',
  version: 'kick-event-version',
} as const;

type Headers = Record<keyof typeof headerNames, string>;

const headerEntries = Object.entries(headerNames) as Array<[keyof Headers, string]>;

function readHeaders(request: FastifyRequest): Headers | null {
  const out = {} as Headers;
  for (const [key, name] of headerEntries) {
    const value = request.headers[name];
    if (typeof value !== 'string' || value === '' || value.length > 1024) return null;
    out[key] = value;
  }
  return out;
}

export async function kickWebhookRoutes(app: FastifyInstance, opts: KickWebhookOptions): Promise<void> {
  // The signature covers the exact bytes Kick sent: keep them, scoped to this route only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, reason: string, extra = {}) => {
    request.log.warn({ reason, ...extra }, 'kick webhook refused');
    app.integrationStatus.failed('kick.webhooks', `refused a delivery: ${reason}`);
    return reply.status(status).send({ message: 'Rejected.' });
  };

  // No browser reads these answers, so no security headers.
  app.post(KICK_WEBHOOK_PATH, { config: { access: 'public', securityHeaders: false } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const h = readHeaders(request);
    if (!h) return refuse(request, reply, 400, 'missing Kick-Event-* headers');
    const ids = { messageId: h.messageId, type: h.type };

    let keys = await opts.keyring.keys();
    if (keys.length === 0) {
      // Loud: with no key every delivery is refused, and Kick unsubscribes an app that keeps failing.
      request.log.error(ids, 'kick webhook refused: no public key to check signatures with (see Admin → Integrations)');
      return refuse(request, reply, 401, 'no webhook public key is configured', ids);
    }
    let valid = verifyKickSignature(keys, h.messageId, h.timestamp, raw, h.signature);
    if (!valid && (await opts.keyring.refresh())) {
      keys = await opts.keyring.keys();
      valid = verifyKickSignature(keys, h.messageId, h.timestamp, raw, h.signature);
    }
    if (!valid) return refuse(request, reply, 401, 'bad signature', ids);

    const now = app.clock.now();
    if (!isFreshTimestamp(h.timestamp, now)) {
      return refuse(request, reply, 401, 'stale or malformed timestamp', { ...ids, timestamp: h.timestamp });
    }

    if (h.type === 'chat.message.sent') return handleChat(request, reply, h, raw, now);

    return handleEvent(request, reply, h, raw, now);
  });

  /** The body as JSON, or the refusal already sent; and whether it is another channel's event. */
  function parseBody(request: FastifyRequest, reply: FastifyReply, h: Headers, raw: Buffer) {
    const ids = { messageId: h.messageId, type: h.type };
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return { refused: refuse(request, reply, 400, 'body is not JSON', ids) };
    }
    const broadcaster = broadcasterIdOf(body);
    if (opts.broadcasterUserId() && broadcaster && broadcaster !== opts.broadcasterUserId()) {
      request.log.info({ ...ids, broadcaster }, 'kick event for another channel ignored');
      return { ignored: true as const };
    }
    return { body };
  }

  async function handleChat(request: FastifyRequest, reply: FastifyReply, h: Headers, raw: Buffer, now: Date) {
    const ids = { messageId: h.messageId, type: h.type };
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(request, reply, 400, 'body is not JSON', ids);
    }
    // Nearly all the traffic: the body is parsed once, and its broadcaster read from that parse.
    const parsed = chatMessageSent.safeParse(body);
    const broadcaster = parsed.success ? (parsed.data.broadcaster.user_id ?? null) : broadcasterIdOf(body);
    if (opts.broadcasterUserId() && broadcaster && broadcaster !== opts.broadcasterUserId()) {
      request.log.info({ ...ids, broadcaster }, 'kick event for another channel ignored');
      return { ok: true };
    }
    if (!parsed.success) return refuse(request, reply, 400, 'malformed chat.message.sent', ids);
    const message = chatMessageFromWebhook(parsed.data, now);
    if (!message) return { ok: true };
    const outcome = await opts.sink.chatMessage(message);
    if (outcome === 'duplicate') {
      request.log.info(ids, 'kick webhook redelivered: already processed');
      return { ok: true, duplicate: true };
    }
    if (outcome === 'in-flight') {
      request.log.info(ids, 'kick webhook redelivered while another process is on it: retry later');
      return reply.status(503).header('retry-after', '5').send({ message: 'Being processed; retry later.' });
    }
    app.integrationStatus.succeeded('kick.webhooks', h.type);
    return { ok: true };
  }

  /**
   * Any other event: schema-checked, then claimed and handled in ONE transaction — the delivery's id
   * in the deliveries table, the type's last-seen time, and every registered handler's writes. A
   * handler that throws rolls the claim back, so Kick's retry is processed (once). A concurrent
   * redelivery waits on the claim's row and then finds it taken.
   */
  async function handleEvent(request: FastifyRequest, reply: FastifyReply, h: Headers, raw: Buffer, now: Date) {
    const ids = { messageId: h.messageId, type: h.type };
    const parsedBody = parseBody(request, reply, h, raw);
    if ('refused' in parsedBody) return parsedBody.refused;
    if ('ignored' in parsedBody) return { ok: true };
    const type = h.type;
    if (!isKickEventType(type)) {
      request.log.info(ids, 'kick event type not handled');
      return { ok: true };
    }
    const parsed = KICK_EVENT_SCHEMAS[type].safeParse(parsedBody.body);
    if (!parsed.success) return refuse(request, reply, 400, `malformed ${type}`, ids);
    const meta: KickEventMeta = {
      messageId: h.messageId.slice(0, 100),
      type,
      version: h.version.slice(0, 20),
      receivedAt: now,
      sentAt: new Date(Date.parse(h.timestamp)),
    };
    const after = new AfterCommit();
    let outcome: 'processed' | 'duplicate';
    try {
      outcome = await app.db.transaction(async (tx) => {
        const claimed = await tx
          .insert(kickWebhookDeliveries)
          .values({ messageId: meta.messageId, eventType: type, receivedAt: now })
          .onConflictDoNothing()
          .returning({ messageId: kickWebhookDeliveries.messageId });
        if (claimed.length === 0) return 'duplicate';
        await tx
          .insert(kickEventLastSeen)
          .values({ eventType: type, lastReceivedAt: now })
          .onConflictDoUpdate({
            target: kickEventLastSeen.eventType,
            set: { lastReceivedAt: sql`GREATEST(${kickEventLastSeen.lastReceivedAt}, excluded.last_received_at)` },
          });
        for (const { name, handler } of opts.handlers.of(type)) {
          try {
            await handler(tx as Tx, parsed.data, meta, after);
          } catch (err) {
            request.log.error({ ...ids, handler: name, err }, 'kick event handler failed: delivery rolled back');
            throw err;
          }
        }
        return 'processed';
      });
    } catch (err) {
      // A handler's own schema refused what the event's schema let through: nothing was recorded.
      if (err instanceof MalformedKickEvent) return refuse(request, reply, 400, err.message, ids);
      app.integrationStatus.failed('kick.webhooks', `${type} could not be processed; Kick will redeliver it`);
      return reply.status(500).send({ message: 'Not processed; retry later.' });
    }
    if (outcome === 'duplicate') {
      request.log.info(ids, 'kick webhook redelivered: already processed');
      return { ok: true, duplicate: true };
    }
    await after.run(request.log);
    app.integrationStatus.succeeded('kick.webhooks', type);
    return { ok: true };
  }
}

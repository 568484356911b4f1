/**
 * The optional Kick chat websocket reader, for deployments without a Kick app: Kick's chat runs on
 * Pusher (protocol 7). Subscribes to `chatrooms.<id>.v2`, turns `App\Events\ChatMessageEvent` into
 * pipeline messages, keeps the connection alive the Pusher way (after `activity_timeout` of
 * silence send `pusher:ping`; no `pusher:pong` within the pong timeout means the link is dead) and
 * reconnects with exponential backoff and jitter.
 *
 * Kick may have moved chat off Pusher (docs/integrations.md#kick-chat-over-pusher), so the reader must never die quietly:
 * a close that means "gone" (Pusher's 4000–4099 "do not reconnect", or the handshake answered 404,
 * 410 or 401) marks the source down with the reason — logged as an error and shown on the
 * Integrations page — and the reader keeps trying, with a long backoff (1 min doubling to 30 min),
 * so it comes back by itself if the endpoint does. Webhooks remain the recommended source.
 */
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { z } from 'zod';
import { cleanChatMessage, type ChatMessage } from './chat-message';
import type { IntegrationStatus } from '../status';
import type { KickSubscriber } from './events';

const frame = z.object({ event: z.string(), channel: z.string().optional(), data: z.unknown().optional() });

const chatMessageEvent = z.object({
  id: z.string().min(1).max(100),
  chatroom_id: z.union([z.number(), z.string()]).optional(),
  content: z.string().max(2000),
  type: z.string().optional(),
  created_at: z.string().nullish(),
  sender: z.object({
    id: z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]).transform(String),
    username: z.string().min(1).max(100),
    slug: z.string().nullish(),
    identity: z
      .object({
        color: z.string().max(20).nullish(),
        badges: z
          .array(z.object({ type: z.string(), text: z.string().nullish(), count: z.number().nullish() }))
          .nullish(),
      })
      .nullish(),
  }),
});

const subscriptionEvent = z.object({ username: z.string().min(1).max(100), months: z.number().nullish() });
const giftedEvent = z.object({ gifted_usernames: z.array(z.string().min(1).max(100)) });

export interface PusherReaderOptions {
  url: string;
  chatroomId: string;
  onMessage(message: ChatMessage): Promise<void>;
  onSubscribers(subscribers: KickSubscriber[]): Promise<void>;
  log: FastifyBaseLogger;
  now?: () => Date;
  backoff?: { initialMs: number; maxMs: number };
  /** Backoff after a "gone" close (the endpoint or app key no longer exists). */
  goneBackoff?: { initialMs: number; maxMs: number };
  /** Where the reader reports up and down, for the Integrations page. */
  status?: IntegrationStatus;
  /** How long to wait for `pusher:pong` after our ping (Pusher's clients use 30 s). */
  pongTimeoutMs?: number;
  /** Ceiling for the server's activity_timeout. */
  maxActivityMs?: number;
}

export type PusherReaderStatus = 'idle' | 'connecting' | 'connected' | 'subscribed' | 'waiting' | 'stopped';

/** A handshake answered with one of these means the endpoint is not there (any more). */
const GONE_HANDSHAKE = /Unexpected server response: (401|403|404|410)\b/;

/** Data of a Pusher frame is usually a JSON string (double-encoded). */
function decodeData(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export function chatMessageFromPusher(data: unknown, now: Date): ChatMessage | null {
  const parsed = chatMessageEvent.safeParse(data);
  if (!parsed.success) return null;
  const m = parsed.data;
  const badges = (m.sender.identity?.badges ?? []).map((b) => b.type);
  const sentAt = m.created_at ? new Date(m.created_at) : now;
  return cleanChatMessage({
    messageId: m.id,
    kickUserId: m.sender.id,
    kickUsername: m.sender.username,
    color: m.sender.identity?.color ?? null,
    isSubscriber: badges.includes('subscriber'),
    badges,
    content: m.content,
    sentAt: Number.isFinite(sentAt.getTime()) ? sentAt : now,
  });
}

export class KickPusherReader {
  status: PusherReaderStatus = 'idle';
  private socket: WebSocket | null = null;
  private attempts = 0;
  private goneAttempts = 0;
  private lastError: string | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private pongTimer: NodeJS.Timeout | null = null;
  private activityMs = 120_000;
  private queue: Promise<void> = Promise.resolve();
  private readonly channel: string;

  constructor(private readonly opts: PusherReaderOptions) {
    this.channel = `chatrooms.${opts.chatroomId}.v2`;
  }

  start(): void {
    if (this.status !== 'idle' && this.status !== 'stopped') return;
    this.connect();
  }

  /** Stops reading and waits for messages already taken to finish. */
  async stop(): Promise<void> {
    this.status = 'stopped';
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.terminate();
    await this.queue;
  }

  private connect(): void {
    this.status = 'connecting';
    const socket = new WebSocket(this.opts.url, { handshakeTimeout: 15_000 });
    this.socket = socket;
    socket.on('message', (raw) => this.onFrame(socket, raw.toString()));
    socket.on('error', (err) => {
      if (socket === this.socket) this.lastError = err.message;
      this.opts.log.warn({ err: err.message }, 'kick chat websocket error');
    });
    socket.on('close', (code) => this.onClose(socket, code));
  }

  private send(socket: WebSocket, event: string, data: unknown): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ event, data }));
  }

  private onFrame(socket: WebSocket, text: string): void {
    if (socket !== this.socket) return;
    this.armIdleTimer(socket);
    let parsed;
    try {
      parsed = frame.safeParse(JSON.parse(text));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const { event } = parsed.data;
    const data = decodeData(parsed.data.data);
    switch (event) {
      case 'pusher:connection_established': {
        const timeout = z.object({ activity_timeout: z.number().positive() }).safeParse(data);
        const maxMs = this.opts.maxActivityMs ?? 120_000;
        this.activityMs = Math.min(timeout.success ? timeout.data.activity_timeout * 1000 : maxMs, maxMs);
        this.status = 'connected';
        this.send(socket, 'pusher:subscribe', { auth: '', channel: this.channel });
        this.armIdleTimer(socket);
        return;
      }
      case 'pusher_internal:subscription_succeeded':
        this.status = 'subscribed';
        this.attempts = 0;
        this.goneAttempts = 0;
        this.opts.status?.succeeded('kick.websocket', this.channel);
        this.opts.log.info({ channel: this.channel }, 'kick chat websocket subscribed');
        return;
      case 'pusher:ping':
        this.send(socket, 'pusher:pong', {});
        return;
      case 'pusher:pong':
        return; // any frame already cleared the pong timer
      case 'pusher:error': {
        const error = z.object({ code: z.number().nullish(), message: z.string().nullish() }).safeParse(data);
        this.opts.log.warn({ error: error.success ? error.data : data }, 'kick chat websocket: pusher error');
        return;
      }
      case 'App\\Events\\ChatMessageEvent': {
        const message = chatMessageFromPusher(data, this.now());
        if (!message) {
          this.opts.log.warn('kick chat websocket: malformed chat message ignored');
          return;
        }
        this.enqueue(() => this.opts.onMessage(message));
        return;
      }
      case 'App\\Events\\SubscriptionEvent': {
        const sub = subscriptionEvent.safeParse(data);
        if (sub.success) {
          this.enqueue(() =>
            this.opts.onSubscribers([{ kickUserId: null, kickUsername: sub.data.username, expiresAt: null }]),
          );
        }
        return;
      }
      case 'App\\Events\\GiftedSubscriptionsEvent': {
        const gifts = giftedEvent.safeParse(data);
        if (gifts.success) {
          const list = gifts.data.gifted_usernames.map((u) => ({ kickUserId: null, kickUsername: u, expiresAt: null }));
          this.enqueue(() => this.opts.onSubscribers(list));
        }
        return;
      }
      default:
        return;
    }
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  /** Messages are handled one at a time, in the order they arrived. */
  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((err: unknown) => {
      this.opts.log.error({ err }, 'kick chat websocket: a message could not be processed');
    });
  }

  private armIdleTimer(socket: WebSocket): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.pongTimer = null;
    this.idleTimer = setTimeout(() => {
      this.send(socket, 'pusher:ping', {});
      this.pongTimer = setTimeout(() => {
        this.opts.log.warn('kick chat websocket: no pong, reconnecting');
        socket.terminate();
      }, this.opts.pongTimeoutMs ?? 30_000);
      this.pongTimer.unref();
    }, this.activityMs);
    this.idleTimer.unref();
  }

  private clearTimers(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.idleTimer = null;
    this.pongTimer = null;
  }

  private onClose(socket: WebSocket, code: number): void {
    if (socket !== this.socket) return;
    this.clearTimers();
    this.socket = null;
    const error = this.lastError;
    this.lastError = null;
    if (this.status === 'stopped') return;
    const gone = (code >= 4000 && code < 4100) || (error !== null && GONE_HANDSHAKE.test(error));
    let delay: number;
    if (gone) {
      const { initialMs, maxMs } = this.opts.goneBackoff ?? { initialMs: 60_000, maxMs: 30 * 60_000 };
      delay = Math.min(maxMs, initialMs * 2 ** this.goneAttempts);
      this.goneAttempts += 1;
      const reason = error ?? `closed with code ${code} ("do not reconnect")`;
      this.opts.log.error(
        { code, error, retryInMs: delay },
        'kick chat websocket is gone (check KICK_PUSHER_URL; Kick may have moved chat off Pusher — use webhooks); trying again later',
      );
      this.opts.status?.failed('kick.websocket', `gone: ${reason}`, new Date(this.now().getTime() + delay));
    } else {
      const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
      const base = code >= 4200 && code < 4300 ? 0 : Math.min(maxMs, initialMs * 2 ** this.attempts);
      delay = Math.round(base * (0.75 + Math.random() * 0.5));
      this.attempts += 1;
      this.opts.log.warn({ code, retryInMs: delay }, 'kick chat websocket closed, reconnecting');
      this.opts.status?.failed(
        'kick.websocket',
        error ? `closed: ${error}` : `closed with code ${code}`,
        new Date(this.now().getTime() + delay),
      );
    }
    this.status = 'waiting';
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.status === 'waiting') this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }
}

/**
 * The hub layer (docs/architecture.md#the-real-time-path,
 * docs/conventions.md#rule-5-emit-after-commit,
 * docs/conventions.md#rule-6-typed-hubs-still-validated): Socket.IO on the app's HTTP server, one
 * namespace per hub, websocket transport only. Every hub gets the same guarantees:
 *
 * - the handshake's `Origin` must be ours, the session cookie names the user, the query is parsed
 *   by the hub's schema, and the hub's `connect` decides the rooms (a client never picks them);
 * - every call's payload is parsed by its schema from packages/common, answered through the
 *   acknowledgement as `{ ok: true, data }` or `{ ok: false, error }`;
 * - frames above 16 KB close the connection; calls spend the budget of the socket's user (of its
 *   address for visitors), shared by all their sockets and, with Redis, every process; sockets per
 *   user and per address are capped; a room's state broadcasts are coalesced (lib/hub-limits.ts);
 *   a socket that keeps sending refused or malformed calls is disconnected;
 * - with REDIS_URL the Redis streams adapter carries broadcasts to sockets on every process.
 *
 * Audiences (docs/architecture.md#the-game-engine): besides a whole room, an event may go to one
 * user (all their sockets on this hub, on every process), to the admins, or to a room with one
 * payload per audience, so a game's hidden information is cut per viewer here on the server. The
 * server decides every socket's audience rooms at the handshake from its session: a signed-in
 * socket is in its user's room, an admin's in the admins' room, and each game room it joins brings
 * the per-user and admin sub-rooms of that room. All of them are plain Socket.IO rooms, so the
 * Redis adapter carries them across processes like any room.
 *
 * Keep-alive 15 s and server timeout 30 s (docs/product.md#live-constants-and-limits) are the
 * engine's ping interval and the interval plus ping timeout: the client learns both in the
 * handshake.
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import { Server, type Namespace, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import { type z } from 'zod';
import {
  HUB_MAX_PAYLOAD_BYTES,
  type CallName,
  type CallOutput,
  type EventName,
  type EventPayload,
  type HubQuery,
  type HubRefusal,
  type HubResult,
  type HubSpec,
} from '@kickback/common/hubs/hub';
import { canModerate, refusalStatus, type AccessLevel } from '@kickback/common/access';
import { messages } from '@kickback/common/messages';
import type { UserRow } from '../db/schema/users';
import { badInputMessage } from '../lib/db-errors';
import { AppError, badRequest, forbidden, unauthorized } from '../lib/errors';
import {
  Coalescer,
  defaultHubLimits,
  HubCallBudget,
  isLoopback,
  SocketBucket,
  SocketCounter,
  type HubLimits,
} from '../lib/hub-limits';
import { findNul, nulMessage } from '../lib/text-guard';
import { clientAddress, trustFunction, type TrustFn } from '../lib/trust-proxy';
import { loadSession } from '../lib/sessions';
import { isAllowedOrigin } from './csrf';
import type { Eviction } from '../lib/session-cache';
import { FanOutAdapter } from './fan-out-adapter';
import { sessionCookieName } from './session';

export const KEEP_ALIVE_MS = 15_000;
export const SERVER_TIMEOUT_MS = 30_000;
/** On shutdown, how long hub calls being handled may take to answer before the sockets close. */
export const CALLS_DRAIN_MS = 5_000;

export interface HubContext<H extends HubSpec> {
  /** The user of the session cookie at the handshake (null for visitors). */
  readonly user: UserRow | null;
  readonly query: HubQuery<H>;
  readonly socketId: string;
  /**
   * The user as of now: re-reads the session, so a sign-out or role change elsewhere applies to
   * the next call. Mutations use this.
   */
  currentUser(): Promise<UserRow | null>;
  /** Puts the socket in a room, and in that room's audience rooms (its user's, the admins'). */
  join(room: string): void;
}

/** One payload per audience of a room: named users (owner, players), admins, everyone else. */
export interface AudienceViews<P> {
  /** Everyone in the room who is neither a named user nor (when `admin` is set) an admin. */
  watcher: P;
  /**
   * Admins and Moderators (they run games) in the room who are not named users; without it they
   * get the watcher's view.
   */
  admin?: P;
  /** Users with their own view (the owner, each player), by user id. */
  users?: ReadonlyMap<string, P>;
}

/** Audience rooms (the separators cannot occur in a game room name chosen by the server). */
export const audienceRooms = {
  user: (userId: string) => `#user:${userId}`,
  /** Admins' and Moderators' sockets: the staff who run games, giveaways and predictions. */
  admins: '#admins',
  /** Every socket opened with one session (sign-out disconnects them). */
  session: (sessionId: string) => `#session:${sessionId}`,
  userIn: (room: string, userId: string) => `${room}#user:${userId}`,
  adminsIn: (room: string) => `${room}#admins`,
};

type CallHandlers<H extends HubSpec> = {
  [C in CallName<H>]: (ctx: HubContext<H>, input: z.output<H['calls'][C]['input']>) => Promise<CallOutput<H, C>>;
};

export interface HubHandlers<H extends HubSpec> {
  /** Runs during the handshake. Throw an AppError to refuse (404 → not_found, 403 → forbidden). */
  connect(ctx: HubContext<H>): Promise<void>;
  calls: CallHandlers<H>;
}

/** One per-audience broadcast as this process sent it. */
export interface BroadcastFigures {
  hub: string;
  /** Sockets in the room on this process (each got one frame). */
  sockets: number;
  /** From the start of the fan-out (right after the commit) to the last frame handed to the kernel. */
  seconds: number;
  /** CPU of this process over the same span (user + system: the socket writes are system time). */
  cpuSeconds: number;
}

/** The hub limits (lib/hub-limits.ts): call budgets per user and per address, socket caps, coalescing. */
export type SocketLimits = HubLimits;
export const defaultSocketLimits = defaultHubLimits;

export interface Realtime {
  readonly io: Server;
  /** Told of every answered hub call (the /metrics counter). */
  observeCalls(observer: (hub: string, call: string, ok: boolean) => void): void;
  /** Told of every room state broadcast this process fans out (the /metrics fan-out figures). */
  observeBroadcasts(observer: (broadcast: BroadcastFigures) => void): void;
  register<H extends HubSpec>(hub: H, handlers: HubHandlers<H>): void;
  /** Broadcasts an event to a room of a hub, on every process. Call it after commit only. */
  emit<H extends HubSpec, E extends EventName<H>>(hub: H, room: string, event: E, payload: EventPayload<H, E>): void;
  /** To every socket of one user on this hub, on every process. After commit only. */
  emitToUser<H extends HubSpec, E extends EventName<H>>(
    hub: H,
    userId: string,
    event: E,
    payload: EventPayload<H, E>,
  ): void;
  /** To every admin's sockets on this hub, on every process. After commit only. */
  emitToAdmins<H extends HubSpec, E extends EventName<H>>(hub: H, event: E, payload: EventPayload<H, E>): void;
  /**
   * To a room, each socket getting its audience's payload: a named user their own, an admin the
   * admins' (when given), everyone else the watchers'. No socket gets two. After commit only.
   */
  emitPerAudience<H extends HubSpec, E extends EventName<H>>(
    hub: H,
    room: string,
    event: E,
    views: AudienceViews<EventPayload<H, E>>,
  ): void;
  /**
   * Closes this process's sockets of a session or of every session of a user (their identity
   * changed elsewhere: a role change announced over PostgreSQL, lib/session-evict-notify.ts).
   */
  disconnectHere(eviction: Eviction): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

const refusalOf = (status: number): HubRefusal =>
  status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not_found' : 'bad_query';

function refusal(message: string, code: HubRefusal): Error {
  const err = new Error(message) as Error & { data: { code: HubRefusal } };
  err.data = { code };
  return err;
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'Invalid payload.';
  const where = first.path.length ? `${first.path.join('.')}: ` : '';
  return `Invalid payload: ${where}${first.message}`;
}

/** Refused or malformed calls of one socket: enough of them in a window disconnect it. */
class Strikes {
  private times: number[] = [];
  constructor(private readonly limits: SocketLimits) {}
  /** Records one; true when the socket has had enough chances. */
  add(): boolean {
    const now = Date.now();
    this.times = this.times.filter((t) => now - t < this.limits.strikeWindowMs);
    this.times.push(now);
    return this.times.length >= this.limits.strikes;
  }
}

/** The client's address under the proxy trust rule (lib/trust-proxy.ts), as request.ip gives it. */
function addressOf(socket: Socket, trust: TrustFn | null): string {
  return (trust ? clientAddress(socket.request, trust) : undefined) ?? socket.handshake.address;
}

export interface RealtimeOptions {
  redis: Redis | null;
  limits?: SocketLimits;
}

export const realtimePlugin = plugin({
  name: 'realtimePlugin',
  dependencies: ['sessionPlugin'],
})(async (app: FastifyInstance, opts: RealtimeOptions) => {
  const limits = opts.limits ?? defaultSocketLimits;
  const budget = new HubCallBudget(limits, opts.redis, app.config.redisPrefix, app.redisStatus);
  const trust = trustFunction(app.config.trustProxy);
  const openSockets = new SocketCounter();
  // Folding a room's states holds one back for a moment; with several processes a state held on one
  // process could then reach clients after a newer one sent by another, so there frames go out as
  // they commit (the per-user and per-address call budgets still bound a flood).
  const coalescer = new Coalescer(opts.redis ? 0 : limits.coalesceMs);
  const cookieName = sessionCookieName(app.config);

  /**
   * The call's declared access (hubs/hub.ts, access.ts): a sign-in for `user` (the handshake's,
   * which sign-out and role changes end by disconnecting), and the role as of this call for
   * `moderator` and `admin`.
   */
  async function authorise<H extends HubSpec>(access: AccessLevel, ctx: HubContext<H>): Promise<void> {
    if (access === 'visitor') return;
    const user = access === 'user' ? ctx.user : await ctx.currentUser();
    const refused = refusalStatus(access, user?.role ?? null);
    if (refused === 401) throw unauthorized();
    if (refused === 403) throw forbidden();
  }
  const io = new Server(app.server, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: HUB_MAX_PAYLOAD_BYTES,
    pingInterval: KEEP_ALIVE_MS,
    pingTimeout: SERVER_TIMEOUT_MS - KEEP_ALIVE_MS,
    connectTimeout: 20_000,
    perMessageDeflate: false,
    allowRequest: (req, callback) => {
      const ok = isAllowedOrigin(req.headers.origin, app.config.publicOrigin);
      if (!ok) app.log.warn({ origin: req.headers.origin }, 'hub handshake refused: origin');
      callback(ok ? null : 'origin', ok);
    },
    // In one process a leaner fan-out (plugins/fan-out-adapter.ts); with Redis the streams adapter.
    ...(opts.redis
      ? {
          adapter: createAdapter(opts.redis, {
            streamName: `${app.config.redisPrefix}socket.io`,
            channelPrefix: `${app.config.redisPrefix}socket.io`,
            sessionKeyPrefix: `${app.config.redisPrefix}sio:session:`,
            onlyPlaintext: true,
            blockTimeInMs: 1000,
          }),
        }
      : { adapter: FanOutAdapter }),
  });
  const namespaces: Namespace[] = [];
  /** Hub calls being handled; shutdown answers them before it closes the sockets. */
  const inFlight = new Set<Promise<void>>();

  const tokenOf = (cookieHeader: string | undefined): string | null => {
    if (!cookieHeader) return null;
    return app.parseCookie(cookieHeader)[cookieName] ?? null;
  };

  let callObserver: ((hub: string, call: string, ok: boolean) => void) | null = null;
  let broadcastObserver: ((broadcast: BroadcastFigures) => void) | null = null;
  const roomOf = (eviction: Eviction) =>
    'sessionId' in eviction ? audienceRooms.session(eviction.sessionId) : audienceRooms.user(eviction.userId);
  const realtime: Realtime = {
    io,
    disconnectHere(eviction) {
      for (const nsp of namespaces) nsp.local.in(roomOf(eviction)).disconnectSockets(true);
    },
    observeCalls(observer) {
      callObserver = observer;
    },
    observeBroadcasts(observer) {
      broadcastObserver = observer;
    },
    register<H extends HubSpec>(hub: H, handlers: HubHandlers<H>) {
      const nsp = io.of(hub.namespace);
      namespaces.push(nsp);
      const contexts = new WeakMap<Socket, { ctx: HubContext<H>; rooms: string[]; holder: string | null }>();

      nsp.use((socket, next) => {
        void (async () => {
          const query = hub.query.safeParse(socket.handshake.query);
          if (!query.success) return next(refusal(describeIssue(query.error), 'bad_query'));
          const token = tokenOf(socket.handshake.headers.cookie);
          const session = token ? await loadSession(app.db, token, app.clock.now()) : null;
          const user = session?.user ?? null;
          // The socket's own audience rooms (and its session's, which sign-out empties), then each
          // game room with its audience sub-rooms.
          const rooms: string[] =
            session && user
              ? [
                  audienceRooms.session(session.id),
                  audienceRooms.user(user.id),
                  ...(canModerate(user.role) ? [audienceRooms.admins] : []),
                ]
              : [];
          const withAudiences = (room: string): string[] =>
            user
              ? [
                  room,
                  audienceRooms.userIn(room, user.id),
                  ...(canModerate(user.role) ? [audienceRooms.adminsIn(room)] : []),
                ]
              : [room];
          let live = false;
          const ctx: HubContext<H> = {
            user,
            query: query.data as HubQuery<H>,
            socketId: socket.id,
            async currentUser() {
              if (!token) return null;
              return (await loadSession(app.db, token, app.clock.now()))?.user ?? null;
            },
            join(room) {
              if (live) void socket.join(withAudiences(room));
              else rooms.push(...withAudiences(room));
            },
          };
          try {
            await handlers.connect(ctx);
          } catch (err) {
            if (err instanceof AppError) return next(refusal(err.message, refusalOf(err.statusCode)));
            throw err;
          }
          // One user's (or one address's visitor) sockets in this process are capped.
          const address = addressOf(socket, trust);
          const holder = user ? `user:${user.id}` : isLoopback(address) ? null : `ip:${address}`;
          if (holder && !openSockets.reserve(holder, user ? limits.socketsPerUser : limits.socketsPerIp)) {
            return next(refusal(messages.tooManyRequests, 'too_many'));
          }
          contexts.set(socket, { ctx, rooms, holder });
          live = true;
          next();
        })().catch((err: unknown) => {
          app.log.error({ err, hub: hub.namespace }, 'hub handshake failed');
          next(refusal(messages.systemError, 'unavailable')); // the client tries again
        });
      });

      nsp.on('connection', (socket) => {
        const entry = contexts.get(socket);
        if (!entry) return socket.disconnect(true);
        const { holder } = entry;
        if (holder) socket.on('disconnect', () => openSockets.release(holder));
        if (entry.rooms.length) void socket.join(entry.rooms);
        const { ctx } = entry;
        // Every call spends the budget of the socket's user, or of its address for a visitor.
        const caller = ctx.user ? { userId: ctx.user.id } : { ip: addressOf(socket, trust) };
        const strikes = new Strikes(limits);
        const bucket = new SocketBucket(limits);
        const strike = () => {
          if (strikes.add()) {
            app.log.warn(
              { hub: hub.namespace, socket: socket.id, user: ctx.user?.id },
              'hub socket disconnected: abuse',
            );
            socket.disconnect(true);
          }
        };

        socket.onAny((event: string, ...args: unknown[]) => {
          if (Object.hasOwn(hub.calls, event)) return;
          strike();
          const ack = args.at(-1);
          if (typeof ack === 'function') ack({ ok: false, error: 'Unknown call.' } satisfies HubResult<never>);
        });

        for (const name of Object.keys(hub.calls) as Array<CallName<H>>) {
          const spec = hub.calls[name]!;
          const handler = handlers.calls[name] as (ctx: HubContext<H>, input: unknown) => Promise<unknown>;
          (socket as Socket).on(name as string, (...args: unknown[]) => {
            const ack = args.at(-1);
            if (typeof ack !== 'function') return strike(); // a call must ask for its answer
            const reply = (result: HubResult<unknown>) => {
              callObserver?.(hub.namespace, name, result.ok);
              (ack as (result: HubResult<unknown>) => void)(result);
            };
            if (args.length > 2) {
              strike();
              return reply({ ok: false, error: 'Invalid payload: one argument at most.' });
            }
            if (!bucket.take()) {
              strike();
              return reply({ ok: false, error: messages.tooManyRequests });
            }
            budget.take(caller).then(
              (allowed) => {
                if (!allowed) {
                  strike();
                  return reply({ ok: false, error: messages.tooManyRequests });
                }
                const payload = args.length === 2 ? args[0] : undefined;
                // Who may call comes first (as on HTTP, before the input is looked at), then the payload.
                const answered = authorise(spec.access, ctx)
                  .then(() => {
                    const nulAt = findNul(payload);
                    if (nulAt !== null) {
                      strike();
                      throw badRequest(nulMessage(nulAt === 'value' ? 'payload' : `payload: ${nulAt}`));
                    }
                    const parsed = spec.input.safeParse(payload);
                    if (!parsed.success) {
                      strike();
                      throw badRequest(describeIssue(parsed.error));
                    }
                    return handler(ctx, parsed.data);
                  })
                  .then(
                    (data) => reply({ ok: true, data }),
                    (err: unknown) => {
                      if (err instanceof AppError) return reply({ ok: false, error: err.message });
                      const badInput = badInputMessage(err);
                      if (badInput) return reply({ ok: false, error: badInput });
                      app.log.error({ err, hub: hub.namespace, call: name }, 'hub call failed');
                      reply({ ok: false, error: messages.systemError });
                    },
                  );
                inFlight.add(answered);
                void answered.finally(() => inFlight.delete(answered));
              },
              (err: unknown) => {
                app.log.error({ err, hub: hub.namespace, call: name }, 'hub call budget unavailable');
                reply({ ok: false, error: messages.systemError });
              },
            );
          });
        }
      });
    },
    emit(hub, room, event, payload) {
      coalescer.flush(`${hub.namespace} ${room} `); // a held state goes first
      io.of(hub.namespace).to(room).emit(event, payload);
    },
    emitToUser(hub, userId, event, payload) {
      io.of(hub.namespace).to(audienceRooms.user(userId)).emit(event, payload);
    },
    emitToAdmins(hub, event, payload) {
      io.of(hub.namespace).to(audienceRooms.admins).emit(event, payload);
    },
    emitPerAudience(hub, room, event, views) {
      // A room's state: the newest supersedes the rest, so a flood is folded (lib/hub-limits.ts).
      coalescer.run(`${hub.namespace} ${room} ${event}`, () => {
        if (!broadcastObserver) return sendPerAudience(hub.namespace, room, event, views);
        const start = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        sendPerAudience(hub.namespace, room, event, views);
        const used = process.cpuUsage(cpu);
        broadcastObserver({
          hub: hub.namespace,
          sockets: io.of(hub.namespace).adapter.rooms.get(room)?.size ?? 0,
          seconds: Number(process.hrtime.bigint() - start) / 1e9,
          cpuSeconds: (used.user + used.system) / 1e6,
        });
      });
    },
  };

  function sendPerAudience(namespace: string, room: string, event: string, views: AudienceViews<unknown>): void {
    const nsp = io.of(namespace);
    const named = [...(views.users?.keys() ?? [])].map((id) => audienceRooms.userIn(room, id));
    const admins = views.admin === undefined ? [] : [audienceRooms.adminsIn(room)];
    nsp
      .to(room)
      .except([...named, ...admins])
      .emit(event, views.watcher);
    if (views.admin !== undefined) nsp.to(admins).except(named).emit(event, views.admin);
    for (const [userId, payload] of views.users ?? []) {
      nsp.to(audienceRooms.userIn(room, userId)).emit(event, payload);
    }
  }

  app.decorate('realtime', realtime);

  // A socket keeps the identity of its handshake, so when that identity changes — sign-out (one
  // session), a role change or an exclusion (every session of the user) — its sockets are closed
  // on every process (the adapter carries `disconnectSockets` through Redis). Clients reconnect
  // and the handshake reads the session afresh.
  app.sessionCache.onEvict((eviction) => {
    for (const nsp of namespaces) nsp.in(roomOf(eviction)).disconnectSockets(true);
  });

  // Shutting down: calls being handled are answered first (up to CALLS_DRAIN_MS), then every
  // connection is dropped (clients see a transport close and reconnect, to another process when
  // there is one, and resync). The adapter stays open until onClose, after the game timers stopped
  // (their preClose comes later), so a deadline fired meanwhile still reaches other processes'
  // sockets. The HTTP server itself is Fastify's to close.
  app.addHook('preClose', async () => {
    const until = Date.now() + CALLS_DRAIN_MS;
    while (inFlight.size > 0 && Date.now() < until) {
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now()))),
      ]);
    }
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled(namespaces.map(async (nsp) => nsp.adapter.close()));
    await Promise.allSettled([io.of('/').adapter.close()]);
  });
});

/**
 * The one typed client for the real-time hubs (docs/architecture.md#the-real-time-path,
 * docs/product.md#live-constants-and-limits). A feature makes a `HubConnection` for a hub
 * definition of packages/common, listens to its events and calls its methods; calls resolve with
 * `data` or reject with the server's `error`.
 *
 * Defaults: reconnect after 0, 2, 10 and 30 s, then stop; request timeout 100 s. The
 * keep-alive (15 s) and server timeout (30 s) are the server's ping interval and ping interval +
 * ping timeout, which the client takes from the handshake. After every (re)connect `onConnected`
 * runs so the feature resyncs (GetGameState); when the connection closes `onClosed` runs so the
 * feature clears its view. Websocket transport only, like the server.
 *
 * socket.io-client loads with the first connection a page makes, not before the page draws
 * (docs/benchmarks.md#first-load-budget-per-page): until it is there, what a feature asks of the
 * connection waits in order, and runs as soon as it is.
 */
import type { io as ioType, Socket } from 'socket.io-client';
import type {
  CallInput,
  CallName,
  CallOutput,
  EventName,
  EventPayload,
  HubQuery,
  HubResult,
  HubSpec,
} from '@kickback/common/hubs/hub';

let io: typeof ioType | null = null;
let loading: Promise<typeof ioType> | null = null;

/** Loads socket.io-client once (the hub connections share it); resolves at once when it is there. */
export function loadSocketClient(): Promise<typeof ioType> {
  loading ??= import('socket.io-client').then((m) => (io = m.io));
  return loading;
}

export const RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;
export const REQUEST_TIMEOUT_MS = 100_000;

/** The delay before reconnect attempt `attempt` (0-based), or null when it is time to stop. */
export function reconnectDelay(attempt: number): number | null {
  return RECONNECT_DELAYS_MS[attempt] ?? null;
}

/**
 * A hub's handle without its definition's schemas, for a bundle that must stay small (the OBS
 * overlays): the client reads only the namespace at run time (the server parses every payload), and
 * the type still comes from the definition, so a wrong namespace does not compile.
 */
export function hubRef<H extends HubSpec>(namespace: H['namespace']): H {
  return { namespace } as unknown as H;
}

export type HubStatus = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export class HubCallError extends Error {
  constructor(
    readonly call: string,
    message: string,
  ) {
    super(message);
    this.name = 'HubCallError';
  }
}

export interface HubListeners {
  /** Connected (again): resync here. */
  onConnected?(info: { reconnected: boolean }): void;
  /** The connection closed (lost, or could not be made): clear the view. */
  onClosed?(info: { willRetry: boolean; everConnected: boolean }): void;
  /** The server refused the handshake for good (unknown game, bad query). */
  onRefused?(info: { message: string; code: string | null }): void;
  onStatus?(status: HubStatus): void;
}

type Args<H extends HubSpec, C extends CallName<H>> =
  undefined extends CallInput<H, C> ? [input?: CallInput<H, C>] : [input: CallInput<H, C>];

export class HubConnection<H extends HubSpec> {
  private socket: Socket | null = null;
  /** What was asked of the socket before socket.io-client loaded, in order. */
  private waiting: Array<(socket: Socket) => void> = [];
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private everConnected = false;
  private stopped = false;

  constructor(
    readonly hub: H,
    query: HubQuery<H>,
    private readonly listeners: HubListeners = {},
    /** Where the hubs live; the page's own origin by default. */
    baseUrl = '',
  ) {
    if (io) this.open(io, query, baseUrl);
    else {
      void loadSocketClient().then((loaded) => {
        this.open(loaded, query, baseUrl);
        for (const run of this.waiting.splice(0)) run(this.socket!);
      });
    }
  }

  /** Runs `run` on the socket now, or once socket.io-client has loaded. */
  private withSocket(run: (socket: Socket) => void): void {
    if (this.socket) run(this.socket);
    else this.waiting.push(run);
  }

  private open(connect: typeof ioType, query: HubQuery<H>, baseUrl: string): void {
    const socket = connect(`${baseUrl}${this.hub.namespace}`, {
      transports: ['websocket'],
      query: query as Record<string, string>,
      // A connection of its own: socket.io-client otherwise shares one per site among the hubs a
      // page opens, with the handshake query of the first one, so a game page opened after a hub
      // without a query would lose its game id ("Game not found").
      forceNew: true,
      autoConnect: false,
      reconnection: false, // the contract's schedule, below
      withCredentials: true,
    });
    this.socket = socket;
    socket.on('connect', () => {
      const reconnected = this.everConnected;
      this.everConnected = true;
      this.attempt = 0;
      this.setStatus('connected');
      this.listeners.onConnected?.({ reconnected });
    });
    socket.on('disconnect', (reason) => {
      if (this.stopped || reason === 'io client disconnect') return;
      this.lost();
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      if (this.stopped) return;
      const code = err.data?.code ?? null;
      if (code === 'not_found' || code === 'bad_query') {
        this.setStatus('closed');
        this.listeners.onRefused?.({ message: err.message, code });
        return;
      }
      this.lost();
    });
  }

  start(): this {
    this.stopped = false;
    this.setStatus('connecting');
    this.withSocket((socket) => socket.connect());
    return this;
  }

  /** Closes the connection for good (page left, signed-in user changed). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.withSocket((socket) => {
      socket.removeAllListeners();
      socket.disconnect();
    });
  }

  /** A manual retry after the schedule ran out. */
  retry(): void {
    if (this.stopped || this.connected) return;
    this.attempt = 0;
    this.setStatus('connecting');
    this.withSocket((socket) => socket.connect());
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  on<E extends EventName<H>>(event: E, handler: (payload: EventPayload<H, E>) => void): () => void {
    const listener = (payload: EventPayload<H, E>) => handler(payload);
    this.withSocket((socket) => socket.on(event as string, listener));
    return () => {
      this.withSocket((socket) => socket.off(event as string, listener));
    };
  }

  async call<C extends CallName<H>>(name: C, ...args: Args<H, C>): Promise<CallOutput<H, C>> {
    const socket = this.socket;
    if (!socket?.connected) throw new HubCallError(name, 'Not connected.');
    let result: HubResult<CallOutput<H, C>>;
    try {
      result = (await socket
        .timeout(REQUEST_TIMEOUT_MS)
        .emitWithAck(name, ...(args.length ? [args[0]] : []))) as HubResult<CallOutput<H, C>>;
    } catch {
      throw new HubCallError(name, 'No answer from the server.');
    }
    if (!result || typeof result !== 'object') throw new HubCallError(name, 'Malformed answer.');
    if (!result.ok) throw new HubCallError(name, result.error);
    return result.data;
  }

  private setStatus(status: HubStatus) {
    this.listeners.onStatus?.(status);
  }

  private lost() {
    if (this.retryTimer) return; // already waiting for the next attempt
    const delay = reconnectDelay(this.attempt);
    this.listeners.onClosed?.({ willRetry: delay !== null, everConnected: this.everConnected });
    if (delay === null) {
      this.setStatus('closed');
      return;
    }
    this.attempt += 1;
    this.setStatus('reconnecting');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.withSocket((socket) => socket.connect());
    }, delay);
  }
}

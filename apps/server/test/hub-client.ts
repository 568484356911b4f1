/**
 * A real socket.io-client for hub tests: connects to a listening app over websocket with a user's
 * cookie, calls with acknowledgement, and records every event so tests wait on what arrived
 * (never on sleeps).
 */
import { io, type Socket } from 'socket.io-client';
import type { HubResult, HubSpec } from '@kickback/common/hubs/hub';
import { ManualClock } from '../src/lib/clock';

export interface Received {
  event: string;
  payload: unknown;
  at: number;
}

export class HubClient {
  readonly socket: Socket;
  readonly received: Received[] = [];
  private waiters: Array<() => void> = [];
  connectError: (Error & { data?: { code?: string } }) | null = null;

  constructor(
    baseUrl: string,
    hub: HubSpec,
    opts: {
      query: Record<string, string>;
      cookie?: string;
      origin?: string;
      reconnection?: boolean;
      headers?: Record<string, string>;
    },
  ) {
    const extraHeaders: Record<string, string> = { ...opts.headers };
    if (opts.cookie) extraHeaders.cookie = opts.cookie;
    if (opts.origin) extraHeaders.origin = opts.origin;
    this.socket = io(`${baseUrl}${hub.namespace}`, {
      transports: ['websocket'],
      query: opts.query,
      extraHeaders,
      forceNew: true,
      reconnection: opts.reconnection ?? false,
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
      // Generous: a hundred sockets connecting at once on a loaded 2-core machine took over 5 s.
      timeout: 20_000,
    });
    this.socket.onAny((event: string, payload: unknown) => {
      this.received.push({ event, payload, at: Date.now() });
      this.notify();
    });
    this.socket.on('connect_error', (err) => {
      this.connectError = err as Error & { data?: { code?: string } };
      this.notify();
    });
    this.socket.on('connect', () => this.notify());
    this.socket.on('disconnect', () => this.notify());
  }

  private notify() {
    const waiters = this.waiters.splice(0);
    for (const w of waiters) w();
  }

  /** Resolves when `check` returns a value (re-checked on every socket event), or fails after `ms`. */
  async until<T>(check: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = check();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  connected(): Promise<this> {
    return this.until(() => (this.socket.connected ? this : this.connectError ? this : null), 'connect', 25_000).then(
      () => {
        if (!this.socket.connected) throw new Error(`connect failed: ${this.connectError?.message}`);
        return this;
      },
    );
  }

  /** Waits for the connection to be refused; returns the error. */
  async refused(): Promise<Error & { data?: { code?: string } }> {
    return this.until(() => this.connectError, 'connect_error');
  }

  /** Calls a hub method; resolves with its `{ ok, … }` answer. */
  call<T = unknown>(name: string, ...payload: unknown[]): Promise<HubResult<T>> {
    // A hang, not slowness (docs/conventions.md#timeouts): twenty calls queued on one row lock,
    // each held 150 ms by a race barrier, outlasted 10 s on a slow machine's PostgreSQL pass.
    return this.socket.timeout(60_000).emitWithAck(name, ...payload) as Promise<HubResult<T>>;
  }

  /** Calls and insists on `ok: true`; returns the data. */
  async ok<T = unknown>(name: string, ...payload: unknown[]): Promise<T> {
    const result = await this.call<T>(name, ...payload);
    if (!result.ok) throw new Error(`${name} failed: ${result.error}`);
    return result.data;
  }

  events<T = unknown>(event: string): T[] {
    return this.received.filter((r) => r.event === event).map((r) => r.payload as T);
  }

  /** Waits for an event whose payload satisfies `match`. */
  waitFor<T = unknown>(event: string, match: (payload: T) => boolean = () => true, ms = 10_000): Promise<T> {
    return this.until(() => this.events<T>(event).find(match), `${event}`, ms);
  }

  close() {
    this.socket.disconnect();
  }
}

/** A clock that follows real time (timers really fire) and can still be shifted by tests. */
export class WallClock extends ManualClock {
  private offset = 0;
  override now(): Date {
    return new Date(Date.now() + this.offset);
  }
  override set(at: Date | string): void {
    this.offset = new Date(at).getTime() - Date.now();
  }
  override advance(ms: number): void {
    this.offset += ms;
  }
}

/** Listens on a free port on loopback; returns the base URL. */
export async function listen(app: { listen(opts: { port: number; host: string }): Promise<string> }, port = 0) {
  return app.listen({ port, host: '127.0.0.1' });
}

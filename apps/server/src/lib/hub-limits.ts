/**
 * What one person may ask of the hubs, however many sockets they open (docs/security.md#limits-and-headers:
 * without it, 100 sockets of one user made 248 writes/s, all accepted):
 *
 * - a call budget per signed-in user, and per address for visitors, shared by all their sockets
 *   and, with Redis, by every process (rate-limiter-flexible; the in-memory limiter stands in while
 *   Redis is unreachable);
 * - a cap on the sockets one user (or one address, for visitors) holds open in this process;
 * - coalescing of a room's state broadcasts: the first change goes out at once, later ones within
 *   the window are folded into one frame carrying the newest state at the window's end, so a
 *   flood of changes cannot become a flood of frames (clients keep the newest version anyway).
 */
import type { Redis } from 'ioredis';
import type { RedisStatus } from './redis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface HubLimits {
  /** Calls one socket may make per second on average, and in a burst (as before the shared budgets). */
  socketCallsPerSecond: number;
  socketBurst: number;
  /** Calls per second a signed-in user may make on average over `windowSeconds`, all sockets together … */
  userCallsPerSecond: number;
  /** … and one address's visitor sockets together. */
  ipCallsPerSecond: number;
  /** The budget's window: a burst may spend it all at once. */
  windowSeconds: number;
  /** Open sockets per signed-in user, and per address for visitors, in one process. */
  socketsPerUser: number;
  socketsPerIp: number;
  /** Refused or malformed calls within `strikeWindowMs` that disconnect a socket. */
  strikes: number;
  strikeWindowMs: number;
  /** State broadcasts of one room are at most one frame per this many milliseconds (0 = off). */
  coalesceMs: number;
}

export const defaultHubLimits: HubLimits = {
  socketCallsPerSecond: 5,
  socketBurst: 20,
  userCallsPerSecond: 20,
  ipCallsPerSecond: 50,
  windowSeconds: 10,
  socketsPerUser: 20,
  socketsPerIp: 200,
  strikes: 20,
  strikeWindowMs: 10_000,
  coalesceMs: 50,
};

/**
 * Loopback peers are not limited per address: without TRUST_PROXY behind a local proxy every
 * visitor would share one address (and be refused together), and local benchmarks connect from
 * there. Behind a proxy, set TRUST_PROXY so visitors are told apart by their forwarded address.
 */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Token bucket of one socket. */
export class SocketBucket {
  private tokens: number;
  private last = Date.now();
  constructor(private readonly limits: HubLimits) {
    this.tokens = limits.socketBurst;
  }
  take(): boolean {
    const now = Date.now();
    const refill = ((now - this.last) / 1000) * this.limits.socketCallsPerSecond;
    this.tokens = Math.min(this.limits.socketBurst, this.tokens + refill);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Whose budget a call spends: the user's when signed in, else the address's. */
export type CallerKey = { userId: string } | { ip: string };

export class HubCallBudget {
  private readonly users: { shared: RateLimiterAbstract; local: RateLimiterAbstract };
  private readonly ips: { shared: RateLimiterAbstract; local: RateLimiterAbstract };

  constructor(
    limits: HubLimits,
    redis: Redis | null,
    prefix: string,
    private readonly redisStatus: RedisStatus | null = null,
  ) {
    const make = (name: string, perSecond: number) => {
      const options = {
        keyPrefix: `${prefix}hub-calls:${name}`,
        points: perSecond * limits.windowSeconds,
        duration: limits.windowSeconds,
      };
      const local = new RateLimiterMemory(options);
      const shared = redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: local }) : local;
      return { shared, local };
    };
    this.users = make('user', limits.userCallsPerSecond);
    this.ips = make('ip', limits.ipCallsPerSecond);
  }

  /** Spends one call; false when the caller's budget is spent. */
  async take(caller: CallerKey): Promise<boolean> {
    if ('ip' in caller && isLoopback(caller.ip)) return true;
    const [pair, key] = 'userId' in caller ? [this.users, caller.userId] : [this.ips, caller.ip];
    // While Redis is away the in-memory budget answers at once (it is the insurance anyway).
    const limiter = this.redisStatus && !this.redisStatus.up ? pair.local : pair.shared;
    try {
      await limiter.consume(key, 1);
      return true;
    } catch (err) {
      if (err instanceof Error) throw err; // a store failure without insurance
      return false; // a RateLimiterRes: spent
    }
  }
}

/** Open sockets per key in this process. */
export class SocketCounter {
  private readonly open = new Map<string, number>();
  /** Takes a place for `key` unless `cap` are taken; true when taken. */
  reserve(key: string, cap: number): boolean {
    const n = this.open.get(key) ?? 0;
    if (n >= cap) return false;
    this.open.set(key, n + 1);
    return true;
  }
  release(key: string): void {
    const n = (this.open.get(key) ?? 1) - 1;
    if (n <= 0) this.open.delete(key);
    else this.open.set(key, n);
  }
  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}

/**
 * Leading edge at once, then at most one trailing run per window with the newest job: for
 * broadcasts whose newest payload supersedes the earlier ones (versioned game state).
 */
export class Coalescer {
  private readonly windows = new Map<string, (() => void) | null>();
  constructor(private readonly windowMs: number) {}

  run(key: string, job: () => void): void {
    if (this.windowMs <= 0) return job();
    if (this.windows.has(key)) {
      this.windows.set(key, job); // the newest wins
      return;
    }
    job();
    this.open(key);
  }

  /**
   * Sends now what is held for keys starting with `prefix`: another event to the same room must
   * not overtake the state it follows.
   */
  flush(prefix: string): void {
    for (const [key, pending] of this.windows) {
      if (pending && key.startsWith(prefix)) {
        this.windows.set(key, null);
        pending();
      }
    }
  }

  private open(key: string): void {
    this.windows.set(key, null);
    setTimeout(() => {
      const pending = this.windows.get(key);
      this.windows.delete(key);
      if (pending) this.run(key, pending);
    }, this.windowMs).unref();
  }
}

/**
 * Fixed-window counters for flood limits (game chat per user, …): in memory for one process, in
 * Redis when REDIS_URL is set so the limit holds across processes (in memory again while Redis is away). `hit` counts one event and says
 * whether it is still within `limit` per `windowMs`.
 */
import type { Redis } from 'ioredis';
import type { RedisStatus } from './redis';

export interface Limiter {
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
}

export class MemoryLimiter implements Limiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly now: () => number = () => Date.now()) {}

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const now = this.now();
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return 1 <= limit;
    }
    window.count += 1;
    return window.count <= limit;
  }
}

export class RedisLimiter implements Limiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const full = `${this.prefix}limit:${key}`;
    // SET … NX starts the window (with its expiry) only when none runs; INCR counts this event.
    const results = await this.redis.multi().set(full, 0, 'PX', windowMs, 'NX').incr(full).exec();
    const [err, count] = results?.[1] ?? [new Error('no reply'), null];
    if (err) throw err;
    return Number(count) <= limit;
  }
}

/** The Redis counters while Redis is up, this process's own while it is away or a command fails. */
export class FallbackLimiter implements Limiter {
  constructor(
    private readonly shared: Limiter,
    private readonly local: Limiter,
    private readonly status: RedisStatus,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    if (!this.status.up) return this.local.hit(key, limit, windowMs);
    try {
      return await this.shared.hit(key, limit, windowMs);
    } catch {
      return this.local.hit(key, limit, windowMs);
    }
  }
}

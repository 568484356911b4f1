/**
 * Request budgets (@fastify/rate-limit): the API and auth per user (or address), webhooks per
 * sending address on a budget of their own; with Redis, several processes share one budget per user,
 * and while Redis is away each process keeps a budget of its own (docs/operations-redis-outage.md).
 *
 * The plugin's store (its own in-memory or Redis store) is made here so that the cached reads' fast
 * path (lib/read-fast-path.ts) takes from the very same budget: `app.rateBudget.takeApi`.
 */
import fastifyRateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import type { RedisStatus } from '../lib/redis';
import { pathStartsWith } from '../lib/request-path';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API budget, for answers given outside the router (the cached reads' fast path). */
    rateBudget: {
      /** Takes one API request from `key`'s budget; `done(false)` when it is spent or unreadable. */
      takeApi(key: string, done: (allowed: boolean) => void): void;
    };
  }
}

const RATE_WINDOW_MS = 60_000;

/**
 * The shared budget in Redis while Redis is up; this process's own budget while it is not (or
 * when a command fails), so an outage neither holds a request up nor lifts the limits.
 */
class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly status: RedisStatus,
  ) {}

  incr(...[key, done, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    if (!this.status.up) return this.local.incr(key, done, timeWindow, max);
    this.shared.incr(
      key,
      (err, result) => (err ? this.local.incr(key, done, timeWindow, max) : done(null, result)),
      timeWindow,
      max,
    );
  }

  child(...args: Parameters<FastifyRateLimitStore['child']>): FastifyRateLimitStore {
    return new FallbackStore(this.shared.child(...args), this.local.child(...args), this.status);
  }
}

export const rateLimitPlugin = plugin({
  name: 'rateLimitPlugin',
  dependencies: ['sessionPlugin'],
})(async (app: FastifyInstance) => {
  const { config, redis, redisStatus } = app;
  const store: FastifyRateLimitStore =
    redis && redisStatus
      ? new FallbackStore(
          new RedisStore(false, false, redis, `${config.redisPrefix}rate-limit:`),
          new LocalStore(false, false),
          redisStatus,
        )
      : new LocalStore(false, false);
  const apiMax = config.rateLimitPerMinute;
  app.decorate('rateBudget', {
    takeApi(key: string, done: (allowed: boolean) => void) {
      store.incr(key, (err, result) => done(!err && result!.current <= apiMax), RATE_WINDOW_MS, apiMax);
    },
  });

  await app.register(fastifyRateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: RATE_WINDOW_MS,
    // The API and auth per user (or address); webhooks per sending address on a budget of their own.
    allowList: (request) =>
      !pathStartsWith(request, '/api/', '/auth/') &&
      !(config.webhookRateLimitPerMinute > 0 && pathStartsWith(request, '/webhooks/')),
    max: (request) => (pathStartsWith(request, '/webhooks/') ? config.webhookRateLimitPerMinute : apiMax),
    keyGenerator: (request) =>
      pathStartsWith(request, '/webhooks/') ? `webhook:${request.ip}` : (request.user?.id ?? request.ip),
    // The budget headers go with a refusal (429, with Retry-After) only: no client of ours reads
    // them on an accepted answer, and three headers on every answer cost a cached read ~2 µs of ~25.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    // The plugin makes its store with `new`; this one hands it the store made above.
    store: class SharedStore implements FastifyRateLimitStore {
      incr(...args: Parameters<FastifyRateLimitStore['incr']>) {
        store.incr(...args);
      }
      child(...args: Parameters<FastifyRateLimitStore['child']>) {
        return store.child(...args);
      }
    },
    // The store falls back to this process's budget; should even that fail, requests go through.
    skipOnError: true,
  });
});

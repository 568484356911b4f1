/**
 * `/metrics` in the Prometheus text format (prom-client): HTTP latency per route, hub calls, open
 * sockets, room broadcast fan-out (time, CPU, frames), Kick webhook deliveries (chat ingest), how late game timers fire, and PostgreSQL pool
 * waits, whether Redis is reachable (with REDIS_URL), features' own figures (the outgoing Kick chat
 * queue, added through `app.metricsRegistry`), plus the process defaults (event-loop lag, memory, CPU).
 *
 * Reachable only from the addresses in METRICS_ALLOW or with `Authorization: Bearer
 * <METRICS_TOKEN>`; with neither configured the endpoint does not exist (404), so a proxy in front
 * cannot expose it by accident.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plugin } from '../lib/plugin';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { routePath } from '../lib/request-path';

export const METRICS_PATH = '/metrics';

function tokenMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Records one answered HTTP request (null when metrics are off); the router's answers are recorded by a hook. */
    httpMetrics: { observe(method: string, route: string, status: number, seconds: number): void } | null;
    /** Where a feature adds its own figures to `/metrics` (null when metrics are off). */
    metricsRegistry: Registry | null;
  }
}

export const metricsPlugin = plugin({
  name: 'metricsPlugin',
  dependencies: ['gamesPlugin', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const { allow, token } = app.config.metrics;
  if (allow.length === 0 && !token) {
    app.decorate('httpMetrics', null);
    app.decorate('metricsRegistry', null);
    return;
  }

  const registry = new Registry();
  app.decorate('metricsRegistry', registry);
  collectDefaultMetrics({ register: registry, prefix: 'kickback_' });

  const http = new Histogram({
    name: 'kickback_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'kickback_webhook_deliveries_total',
    help: 'Webhook deliveries (Kick chat ingest) by route and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const hubCalls = new Counter({
    name: 'kickback_hub_calls_total',
    help: 'Hub calls answered, by hub, call and outcome',
    labelNames: ['hub', 'call', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'kickback_hub_sockets',
    help: 'Open hub connections in this process',
    registers: [registry],
    collect() {
      this.set(app.realtime.io.engine.clientsCount);
    },
  });
  const fanOut = new Histogram({
    name: 'kickback_hub_broadcast_seconds',
    help: 'Room state broadcasts: from the fan-out start (after commit) to the last frame written, by hub',
    labelNames: ['hub'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1],
    registers: [registry],
  });
  const fanOutCpu = new Counter({
    name: 'kickback_hub_broadcast_cpu_seconds_total',
    help: 'CPU time (user + system) this process spent fanning room state broadcasts out, by hub',
    labelNames: ['hub'] as const,
    registers: [registry],
  });
  const fanOutFrames = new Counter({
    name: 'kickback_hub_broadcast_frames_total',
    help: 'Frames written by room state broadcasts (one per socket in the room), by hub',
    labelNames: ['hub'] as const,
    registers: [registry],
  });
  const late = new Histogram({
    name: 'kickback_game_timer_lateness_seconds',
    help: 'How long after its deadline a game timer fired',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const redisStatus = app.redisStatus;
  if (redisStatus) {
    new Gauge({
      name: 'kickback_redis_up',
      help: 'Redis reachable (1) or not (0): while 0 the process runs degraded on in-process fallbacks',
      registers: [registry],
      collect() {
        this.set(redisStatus.up ? 1 : 0);
      },
    });
  }
  new Gauge({
    name: 'kickback_db_pool_waiting',
    help: 'Queries waiting for a PostgreSQL pool connection (0 on PGlite)',
    registers: [registry],
    collect() {
      this.set(app.database.kind === 'postgres' ? (app.database.raw as pg.Pool).waitingCount : 0);
    },
  });
  new Gauge({
    name: 'kickback_db_pool_connections',
    help: 'PostgreSQL pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = app.database.kind === 'postgres' ? (app.database.raw as pg.Pool) : null;
      this.set({ state: 'total' }, pool?.totalCount ?? 0);
      this.set({ state: 'idle' }, pool?.idleCount ?? 0);
    },
  });

  app.realtime.observeCalls((hub, call, ok) => hubCalls.inc({ hub, call, outcome: ok ? 'ok' : 'refused' }));
  app.realtime.observeBroadcasts(({ hub, sockets, seconds, cpuSeconds }) => {
    fanOut.observe({ hub }, seconds);
    fanOutCpu.inc({ hub }, cpuSeconds);
    fanOutFrames.inc({ hub }, sockets);
  });
  app.timers.observeLateness = (ms) => late.observe(Math.max(0, ms) / 1000);

  // Per request: one map lookup for the (method, route, status) series, no label object to check
  // and hash, and a callback hook (no promise).
  const series = new Map<string, { observe(seconds: number): void }>();
  const httpMetrics = {
    observe(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${status} ${route}`;
      let observer = series.get(key);
      if (!observer) {
        observer = http.labels({ method, route, status: String(status) });
        series.set(key, observer);
      }
      observer.observe(seconds);
    },
  };
  app.decorate('httpMetrics', httpMetrics);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== METRICS_PATH) {
      const status = reply.statusCode;
      httpMetrics.observe(request.method, route, status, reply.elapsedTime / 1000);
      if (routePath(request).startsWith('/webhooks/')) webhooks.inc({ route, status: String(status) });
    }
    done();
  });

  app.get(METRICS_PATH, { config: { access: 'public', rateLimit: false } }, async (request, reply) => {
    const allowed = allow.includes(request.ip) || (token !== undefined && tokenMatches(request, token));
    if (!allowed) return reply.status(403).send({ message: request.t('common:forbidden') });
    return reply.type(registry.contentType).send(await registry.metrics());
  });
});

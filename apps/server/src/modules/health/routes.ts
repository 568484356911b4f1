/**
 * `GET /healthz`: 200 when the database answers, 503 otherwise, and 503 `draining` once the
 * process was asked to stop (SIGTERM, main.ts): load balancers take it out of rotation while it
 * still finishes what it has. For load balancers and probes.
 * With REDIS_URL the answer names Redis too: while it is unreachable the process still serves on its
 * in-process fallbacks and answers 200 `degraded` (every process is in the same state, so taking
 * them out of rotation would help no one): docs/operations-redis-outage.md.
 * `?details=1` adds the Integrations overview, for admins only (401 without sign-in, 403 otherwise).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { forbidden, unauthorized } from '../../lib/errors';
import { integrationsOverview } from '../integrations/service';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
    const details = (request.query as Record<string, unknown>).details;
    const wantsDetails = details === '1' || details === 'true';
    if (wantsDetails && !request.user) throw unauthorized();
    if (wantsDetails && request.user?.role !== 'Admin') throw forbidden();
    if (app.lifecycle.draining) {
      return reply.status(503).send({ status: 'draining', database: app.database.kind });
    }
    try {
      await app.db.execute(sql`SELECT 1`);
    } catch (err) {
      request.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
    }
    const redis = app.redisStatus;
    const base = redis
      ? { status: redis.up ? 'ok' : 'degraded', database: app.database.kind, redis: redis.up ? 'ok' : 'unreachable' }
      : { status: 'ok', database: app.database.kind };
    return wantsDetails ? { ...base, integrations: await integrationsOverview(app) } : base;
  });
}

/** `GET /healthz`: 200 when the database answers, 503 otherwise. For load balancers and probes. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await app.db.execute(sql`SELECT 1`);
      return { status: 'ok', database: app.database.kind };
    } catch (err) {
      request.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}

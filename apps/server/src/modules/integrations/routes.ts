/** `GET /api/admin/integrations`: the Integrations page's overview (admins). */
import type { FastifyInstance } from 'fastify';
import { integrationsOverview } from './service';

export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/admin/integrations', { config: { access: 'admin' } }, async () => integrationsOverview(app));
}

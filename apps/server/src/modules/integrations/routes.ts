/** `GET /api/admin/integrations`: the Integrations page's overview (admins). */
import type { FastifyInstance } from 'fastify';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { route } from '../../plugins/endpoints';
import { goLiveChecklist } from './go-live';
import { integrationsOverview } from './service';

export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  route(app, integrationEndpoints.overview, async () => integrationsOverview(app));
  route(app, integrationEndpoints.goLive, async () => goLiveChecklist(app));
}

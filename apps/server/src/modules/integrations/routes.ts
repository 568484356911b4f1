/** Admin → Integrations' overview, Admin → Go live's checklist and its Remove demo data (admins). */
import type { FastifyInstance } from 'fastify';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { demoFinishedEvents, demoRemovalMessage, removeDemoData } from '../demo/service';
import { goLiveChecklist } from './go-live';
import { integrationsOverview } from './service';

export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  route(app, integrationEndpoints.overview, async () => integrationsOverview(app));
  route(app, integrationEndpoints.goLive, async () => goLiveChecklist(app));
  route(app, integrationEndpoints.demoDataPreview, async () => ({ finishedEvents: await demoFinishedEvents(app) }));
  route(app, integrationEndpoints.removeDemoData, async (request) => ({
    message: demoRemovalMessage(await removeDemoData(app, actorOf(currentUser(request)))),
  }));
}

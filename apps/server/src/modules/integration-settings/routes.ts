/** Admin → Settings → Integrations (admins only; docs/features/integration-settings.md). */
import type { FastifyInstance } from 'fastify';
import { integrationSettingsEndpoints } from '@kickback/common/http/integration-settings';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { sendTestDm, sendTestMessage } from './test-actions';
import { CREDENTIALS_READ } from './credentials';
import { saveIntegrationSettings } from './store';
import { integrationSettingsView } from './view';

export async function integrationSettingsRoutes(app: FastifyInstance): Promise<void> {
  route(app, integrationSettingsEndpoints.get, async () => integrationSettingsView(app));

  route(app, integrationSettingsEndpoints.update, async (request) => {
    const admin = currentUser(request);
    const { changed } = await saveIntegrationSettings(
      app.db,
      app.config,
      app.credentials.box,
      actorOf(admin),
      request.body,
    );
    if (changed.length > 0) {
      // After the commit: this process reloads now, the others when they hear it.
      await app.credentials.reload();
      app.reads.invalidate(CREDENTIALS_READ);
      request.log.info({ changed }, 'integration settings updated');
    }
    return { message: request.t('common:settingsUpdated'), ...integrationSettingsView(app) };
  });

  route(app, integrationSettingsEndpoints.testMessage, async () => sendTestMessage(app));
  route(app, integrationSettingsEndpoints.testDm, async (request) => sendTestDm(app, currentUser(request).id));
}

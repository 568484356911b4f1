/** Public site configuration for the web app (branding, footer links, dev sign-in flag, 18+ gate). */
import type { FastifyInstance } from 'fastify';
import { siteEndpoints } from '@kickback/common/http/site';
import { currentUser } from '../../plugins/access';
import { cachedReadRoute } from '../../plugins/cached-reads';
import { route } from '../../plugins/endpoints';
import { confirmAge, SITE_READ, siteConfigNow, updateAgeGate, updateBranding, updateMenu } from './service';
import { claimSite, setupLinkState, setupMessages } from './setup-claim';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  // Fixed for the life of the process except the admin's settings (gate, branding), which invalidate it.
  cachedReadRoute(app, siteEndpoints.config, {
    key: SITE_READ,
    ttlMs: Number.MAX_SAFE_INTEGER,
    cacheControl: 'public, max-age=60',
    build: async () => ({ value: await siteConfigNow(app) }),
  });

  route(app, siteEndpoints.updateAgeGate, async (request) => {
    const ageGate = await updateAgeGate(app, currentUser(request), request.body);
    request.log.info({ enabled: ageGate.enabled }, 'age gate updated');
    return { message: request.t('common:settingsUpdated'), ageGate };
  });

  route(app, siteEndpoints.updateBranding, async (request) => {
    const site = await updateBranding(app, currentUser(request), request.body);
    request.log.info({ siteName: site.siteName }, 'site branding updated');
    return { message: request.t('common:settingsUpdated'), site };
  });

  route(app, siteEndpoints.updateMenu, async (request) => {
    const site = await updateMenu(app, currentUser(request), request.body);
    request.log.info({ shown: site.menu.filter((e) => e.shown).map((e) => e.id) }, 'site menu updated');
    return { message: request.t('common:settingsUpdated'), site };
  });

  route(app, siteEndpoints.claimSite, async (request) => {
    const user = currentUser(request);
    await claimSite(app.db, user, request.body.token);
    app.sessionCache.evict({ userId: user.id });
    request.log.warn({ userId: user.id }, 'site claimed with the setup link: this account is the Admin');
    return { message: setupMessages.claimed };
  });

  route(app, siteEndpoints.checkSetupLink, async (request) => setupLinkState(app.db, request.body.token));

  route(app, siteEndpoints.confirmAge, async (request, reply) => {
    await confirmAge(app.db, currentUser(request).id, app.clock.now());
    reply.header('cache-control', 'no-store');
    return { ageConfirmed: true as const };
  });
}

/**
 * Leaderboard calls (docs/product.md#live-calls): `GET /api/LeaderBoard/now` and `/previous` (site 1), and
 * `/api/LeaderBoard/{royale|csgobig|howl|rustmagic|roobet|cases}/now`, answered from the database
 * through a short cache; `GET /api/LeaderBoard/sites` lists the boards the page offers. Admin:
 * the "Leaderboards" page's overview, settings and "Refresh now".
 */
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import {
  boardEndpoint,
  type BoardEndpoint,
  isSiteId,
  leaderboardEndpoints,
  leaderboardSites,
  type BoardType,
  type SiteId,
} from '@kickback/common/http/leaderboards';
import { usesSimulators } from '../../integrations/partners/registry';
import { partnerSimulators } from '../../integrations/partners/simulator/routes';
import { AppError, notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { cachedReadRoute } from '../../plugins/cached-reads';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { boardKey, LeaderboardService, SITES_READ } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    leaderboards: LeaderboardService;
  }
}

export const leaderboardsModule = plugin({
  name: 'leaderboardsModule',
  dependencies: ['cachedReadsPlugin', 'credentialsPlugin'],
})(async (app: FastifyInstance) => {
  const service = new LeaderboardService(app);
  app.decorate('leaderboards', service);
  if (usesSimulators(app.config.partners)) await app.register(partnerSimulators);
  if (app.config.leaderboards.poller) {
    app.addHook('onReady', async () => service.start());
  }
  app.addHook('onClose', async () => service.stop());

  const ttlMs = app.config.leaderboards.cacheSeconds * 1000;
  const boardRoute = (site: SiteId, type: BoardType, endpoint: BoardEndpoint) =>
    cachedReadRoute(app, endpoint, {
      key: boardKey(site, type),
      ttlMs,
      cacheControl: `public, max-age=${Math.min(app.config.leaderboards.cacheSeconds, 60)}`,
      build: async () => {
        const board = await service.board(site, type);
        if (!board) return null;
        // A running board is never served past its period's end.
        return { value: board, ...(board.countdown ? { validUntil: Date.parse(board.countdown.endDate) } : {}) };
      },
    });
  for (const site of leaderboardSites) {
    for (const type of ['now', 'previous'] as const) {
      const endpoint = boardEndpoint(site.id, type);
      if (endpoint) boardRoute(site.id, type, endpoint);
    }
  }

  cachedReadRoute(app, leaderboardEndpoints.sites, {
    key: SITES_READ,
    ttlMs: 5 * 60_000,
    cacheControl: 'no-cache',
    build: async () => ({ value: { sites: await service.publicSites() } }),
  });

  route(app, leaderboardEndpoints.adminSites, async () => ({ sites: await service.adminOverview() }));

  route(app, leaderboardEndpoints.updateSettings, async (request) => {
    const { site } = request.params;
    if (!isSiteId(site)) throw notFound();
    await service.updateSettings(actorOf(currentUser(request)), site, request.body);
    return { message: request.t('common:settingsUpdated') };
  });

  route(app, leaderboardEndpoints.refresh, async (request) => {
    const { site } = request.params;
    if (!isSiteId(site)) throw notFound();
    if (service.providerMode(site) === 'none') {
      throw new AppError(409, 'This board has no partner API configured.');
    }
    const report = await service.refreshNow(site);
    if (report.error) {
      throw new AppError(
        502,
        `The partner did not answer usefully (${report.error}). The last good standings are kept.`,
      );
    }
    const closed = report.closed ? ` Closed ${report.closed} finished period${report.closed > 1 ? 's' : ''}.` : '';
    return { message: `Refreshed: ${report.players} player${report.players === 1 ? '' : 's'}.${closed}` };
  });
});

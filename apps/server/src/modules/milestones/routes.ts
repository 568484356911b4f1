/**
 * Milestone ladder calls (docs/features/milestone-rewards.md): the ladders with the viewer's
 * progress (public), a claim (signed in), and the admin's ladders, save and numbers. Registers into
 * the leaderboard poller to refresh progress and pay automatically after each standings refresh.
 */
import type { FastifyInstance } from 'fastify';
import { milestoneEndpoints, presetLadder } from '@kickback/common/http/milestones';
import { siteById, siteIds, type SiteId } from '@kickback/common/http/leaderboards';
import { badRequest } from '../../lib/errors';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { claimMilestones, publicLadders } from './claimer';
import { currentCycle, loadLadder, presentAdminLadder, saveLadder } from './ladders';
import { standingsRefreshed } from './progress';
import { ladderStats } from './stats';

/** Sites a ladder can follow: those whose players link a partner id. */
function linkableSite(site: number): SiteId {
  if (!siteById(site)?.linkField)
    throw badRequest('This site has no partner ids to link, so it has no ladder.', 'site');
  return site as SiteId;
}

export const milestonesModule = plugin({
  name: 'milestonesModule',
  dependencies: ['leaderboardsModule', 'chatOutModule'],
})(async (app: FastifyInstance) => {
  app.leaderboards.onStandingsRefreshed(async (refresh) => {
    await standingsRefreshed(app, refresh);
  });

  route(app, milestoneEndpoints.ladders, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ladders: await publicLadders(app, request.user ?? null) };
  });

  route(app, milestoneEndpoints.claim, async (request) =>
    claimMilestones(app, currentUser(request), linkableSite(request.params.site)),
  );

  route(app, milestoneEndpoints.adminLadders, async () => {
    const ladders = [];
    for (const site of siteIds) {
      if (!siteById(site)?.linkField) continue;
      ladders.push(await presentAdminLadder(app.db, site, await loadLadder(app.db, site)));
    }
    return { ladders, preset: [...presetLadder] };
  });

  route(app, milestoneEndpoints.saveLadder, async (request) => {
    const site = linkableSite(request.params.site);
    const saved = await app.db.transaction((tx) =>
      saveLadder(tx, actorOf(currentUser(request)), site, request.body, app.clock.now()),
    );
    return presentAdminLadder(app.db, site, saved);
  });

  route(app, milestoneEndpoints.stats, async (request) => {
    const site = linkableSite(request.params.site);
    const ladder = await loadLadder(app.db, site);
    if (!ladder) return { site, cycleKey: '', tiers: [], cycles: [] };
    const cycle = await currentCycle(app.db, ladder, app.clock.now());
    return ladderStats(app.db, ladder, cycle.key);
  });
});

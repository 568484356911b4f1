/**
 * Community goal routes and hub (docs/features/community-goal.md): the public state
 * (`GET /api/community-goals`, the `/CommunityGoal` hub) and the admin's list and save on
 * Admin → Leaderboards. Registers its standings listener into the leaderboard poller.
 */
import type { FastifyInstance } from 'fastify';
import { adminCommunityGoalEndpoints, communityGoalEndpoints } from '@kickback/common/http/community-goals';
import { communityGoalHub } from '@kickback/common/hubs/community-goal';
import { plugin } from '../../lib/plugin';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { CommunityGoalService, GOAL_ROOM } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    communityGoals: CommunityGoalService;
  }
}

export const communityGoalsModule = plugin({
  name: 'communityGoalsModule',
  dependencies: ['leaderboardsModule', 'chatOutModule', 'realtimePlugin'],
})(async (app: FastifyInstance) => {
  const goals = new CommunityGoalService(app);
  app.decorate('communityGoals', goals);
  app.leaderboards.onStandingsWritten(goals.recordProgress);

  app.realtime.register(communityGoalHub, {
    async connect(ctx) {
      ctx.join(GOAL_ROOM);
    },
    calls: { GetState: () => goals.state() },
  });

  route(app, communityGoalEndpoints.state, () => goals.state());
  route(app, adminCommunityGoalEndpoints.list, () => goals.adminList());
  route(app, adminCommunityGoalEndpoints.save, (request) =>
    goals.save(actorOf(currentUser(request)), request.params.site, request.body),
  );
});

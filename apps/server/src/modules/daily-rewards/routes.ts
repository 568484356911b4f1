/**
 * Daily reward calls (docs/product.md#site-calls): `GET /api/DailyReward/GetMontlyRewardsRoobet` (public:
 * a visitor sees the calendar with no claims), `POST /api/DailyReward/{action}` for the six types
 * (signed in). Admin: the per-type policies.
 */
import type { FastifyInstance } from 'fastify';
import {
  AFFILIATE_REWARD_TYPE,
  dailyRewardEndpoints,
  rewardTypeByAction,
  rewardTypeOf,
} from '@kickback/common/http/daily-rewards';
import { notFound } from '../../lib/errors';
import { said } from '../../lib/i18n';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { claimability, claimDailyReward, monthlyClaims } from './claimer';
import { loadPolicies, presentPolicy, savePolicy } from './policies';

export async function dailyRewardRoutes(app: FastifyInstance): Promise<void> {
  route(app, dailyRewardEndpoints.monthlyRoobet, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return request.user ? monthlyClaims(app, request.user.id, 5) : [];
  });

  route(app, dailyRewardEndpoints.roobetToday, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!request.user)
      return { claimable: false, reason: 'sign_in' as const, message: request.t('common:firstLogInPlease') };
    return claimability(app, request.user, rewardTypeOf(AFFILIATE_REWARD_TYPE), request.locale);
  });

  route(app, dailyRewardEndpoints.claim, async (request) => {
    const info = rewardTypeByAction(request.params.action);
    if (!info) throw notFound(said('daily:unknownReward'));
    return claimDailyReward(app, currentUser(request), info);
  });

  route(app, dailyRewardEndpoints.policies, async () => ({
    policies: (await loadPolicies(app.db)).map(presentPolicy),
  }));

  route(app, dailyRewardEndpoints.savePolicy, async (request) => {
    const saved = await app.db.transaction((tx) =>
      savePolicy(tx, actorOf(currentUser(request)), request.params.type, request.body, app.clock.now()),
    );
    return presentPolicy(saved);
  });
}

/**
 * Daily reward calls (spec part 1 §7): `GET /api/DailyReward/GetMontlyRewardsRoobet` (public:
 * a visitor sees the calendar with no claims), `POST /api/DailyReward/{action}` for the six types
 * (signed in). Admin: the per-type policies.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  claimResponse,
  monthlyRewardsResponse,
  rewardActionParam,
  rewardPoliciesResponse,
  rewardPolicy,
  rewardPolicyInput,
  rewardTypeByAction,
  rewardTypeParam,
} from '@kickback/common/http/daily-rewards';
import { notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { actorOf } from '../audit/service';
import { claimDailyReward, monthlyClaims } from './claimer';
import { loadPolicies, presentPolicy, savePolicy } from './policies';

export async function dailyRewardRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/DailyReward/GetMontlyRewardsRoobet',
    { config: { access: 'public' }, schema: { response: { 200: monthlyRewardsResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return request.user ? monthlyClaims(app, request.user.id, 5) : [];
    },
  );

  r.post(
    '/api/DailyReward/:action',
    {
      config: { access: 'user' },
      schema: { params: rewardActionParam, response: { 200: claimResponse } },
    },
    async (request) => {
      const info = rewardTypeByAction(request.params.action);
      if (!info) throw notFound('Unknown daily reward.');
      return claimDailyReward(app, currentUser(request), info);
    },
  );

  r.get(
    '/api/admin/daily-rewards/policies',
    { config: { access: 'admin' }, schema: { response: { 200: rewardPoliciesResponse } } },
    async () => ({ policies: (await loadPolicies(app.db)).map(presentPolicy) }),
  );

  r.put(
    '/api/admin/daily-rewards/policies/:type',
    {
      config: { access: 'admin' },
      schema: { params: rewardTypeParam, body: rewardPolicyInput, response: { 200: rewardPolicy } },
    },
    async (request) => {
      const saved = await app.db.transaction((tx) =>
        savePolicy(tx, actorOf(currentUser(request)), request.params.type, request.body, app.clock.now()),
      );
      return presentPolicy(saved);
    },
  );
}

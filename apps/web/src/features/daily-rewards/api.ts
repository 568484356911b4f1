/** Daily reward calls (spec part 1 §7) and the admin policies. */
import {
  claimResponse,
  monthlyRewardsResponse,
  rewardPoliciesResponse,
  rewardPolicy,
  rewardTypeOf,
  type RewardPolicyInput,
} from '@kickback/common/http/daily-rewards';
import { api } from '../../lib/api';

export const loadMonthlyRoobet = (signal?: AbortSignal) =>
  api('/api/DailyReward/GetMontlyRewardsRoobet', {
    schema: monthlyRewardsResponse,
    silent: true,
    ...(signal ? { signal } : {}),
  });

export const claimReward = (type: number) =>
  api(`/api/DailyReward/${rewardTypeOf(type).action}`, { method: 'POST', schema: claimResponse });

export const loadPolicies = () => api('/api/admin/daily-rewards/policies', { schema: rewardPoliciesResponse });

export const savePolicy = (type: number, body: RewardPolicyInput) =>
  api(`/api/admin/daily-rewards/policies/${type}`, { method: 'PUT', body, schema: rewardPolicy });

/** Daily reward calls (spec part 1 §7) and the admin policies. */
import { dailyRewardEndpoints, rewardTypeOf, type RewardPolicyInput } from '@kickback/common/http/daily-rewards';
import { api } from '../../lib/api';

export const loadMonthlyRoobet = (signal?: AbortSignal) =>
  api(dailyRewardEndpoints.monthlyRoobet, {
    silent: true,
    ...(signal ? { signal } : {}),
  });

export const claimReward = (type: number) =>
  api(dailyRewardEndpoints.claim, { params: { action: rewardTypeOf(type).action } });

export const loadPolicies = () => api(dailyRewardEndpoints.policies);

export const savePolicy = (type: number, body: RewardPolicyInput) =>
  api(dailyRewardEndpoints.savePolicy, { params: { type }, body });

/** Daily reward calls (spec part 1 §7) and the admin policies. */
import { dailyRewardEndpoints, rewardTypeOf } from '@kickback/common/http/daily-rewards';
import { api } from '../../lib/api';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const loadMonthlyRoobet = (signal?: AbortSignal) =>
  api(dailyRewardEndpoints.monthlyRoobet, {
    silent: true,
    ...(signal ? { signal } : {}),
  });

export const claimReward = (type: number) =>
  api(dailyRewardEndpoints.claim, { params: { action: rewardTypeOf(type).action } });

/** The admin's reward policies; saving one refetches them (and the calendar and today's case). */
export const usePolicies = () => useEndpointQuery(dailyRewardEndpoints.policies);

export const useSavePolicy = () =>
  useEndpointMutation(dailyRewardEndpoints.savePolicy, {
    invalidates: [dailyRewardEndpoints.policies, dailyRewardEndpoints.monthlyRoobet, dailyRewardEndpoints.roobetToday],
  });

/** Daily reward calls (docs/product.md#site-calls) and the admin policies. */
import { useQuery } from '@tanstack/react-query';
import { dailyRewardEndpoints, rewardTypeOf, type MonthlyRewardRecord } from '@kickback/common/http/daily-rewards';
import { callEndpoint } from '../../lib/api';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../lib/query';

/**
 * This month's Roobet claims: the signed-in user's (keyed by who is signed in, so signing in or out
 * reads them again), silent (the calendar shows no claims when they cannot be read).
 */
export const useMonthlyRoobet = (userId: string | null) =>
  useQuery<MonthlyRewardRecord[]>({
    queryKey: [...endpointKey(dailyRewardEndpoints.monthlyRoobet), { userId }],
    queryFn: ({ signal }) => callEndpoint(dailyRewardEndpoints.monthlyRoobet, { signal, silent: true }),
  });

/**
 * Today's Roobet case for a signed-in user: claimable, or why not. Keyed by the user and their linked
 * Roobet name (linking one reads it again), and read again on focus.
 */
export const useRoobetToday = (user: { openId: string; roobetName: string | null } | null) =>
  useQuery({
    queryKey: [...endpointKey(dailyRewardEndpoints.roobetToday), { userId: user?.openId, roobet: user?.roobetName }],
    queryFn: ({ signal }) => callEndpoint(dailyRewardEndpoints.roobetToday, { signal, silent: true }),
    enabled: user !== null,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

/** A claim refetches the month and today's case; a refused one too (it says what changed). */
export const useClaimReward = () =>
  useEndpointMutation(dailyRewardEndpoints.claim, {
    invalidates: [dailyRewardEndpoints.monthlyRoobet, dailyRewardEndpoints.roobetToday],
    alsoOnError: true,
  });

export const claimInput = (type: number) => ({ params: { action: rewardTypeOf(type).action } });

/** The admin's reward policies; saving one refetches them (and the calendar and today's case). */
export const usePolicies = () => useEndpointQuery(dailyRewardEndpoints.policies);

export const useSavePolicy = () =>
  useEndpointMutation(dailyRewardEndpoints.savePolicy, {
    invalidates: [dailyRewardEndpoints.policies, dailyRewardEndpoints.monthlyRoobet, dailyRewardEndpoints.roobetToday],
  });

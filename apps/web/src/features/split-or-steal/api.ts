/**
 * Split or Steal's HTTP calls as server state: the recent games list, and create and cancel
 * invalidating it (the game itself is live state, followed on its hub).
 */
import { splitOrStealEndpoints } from '@kickback/common/http/split-or-steal';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useRecentSplitOrSteal = () => useEndpointQuery(splitOrStealEndpoints.recent);

export const useCreateSplitOrSteal = () =>
  useEndpointMutation(splitOrStealEndpoints.create, { invalidates: [splitOrStealEndpoints.recent] });

export const useCancelSplitOrSteal = () =>
  useEndpointMutation(splitOrStealEndpoints.cancel, { invalidates: [splitOrStealEndpoints.recent] });

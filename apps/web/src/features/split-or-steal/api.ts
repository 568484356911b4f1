/** Split or Steal's HTTP calls as server state: the recent games list, and create invalidating it. */
import { splitOrStealEndpoints } from '@kickback/common/http/split-or-steal';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useRecentSplitOrSteal = () => useEndpointQuery(splitOrStealEndpoints.recent);

export const useCreateSplitOrSteal = () =>
  useEndpointMutation(splitOrStealEndpoints.create, { invalidates: [splitOrStealEndpoints.recent] });

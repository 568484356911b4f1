/**
 * Deal or No Deal's HTTP calls as server state: the recent games list, and create and cancel
 * invalidating it (the game itself is live state, followed on its hub).
 */
import { dealOrNoDealEndpoints } from '@kickback/common/http/deal-or-no-deal';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useRecentDealOrNoDeal = () => useEndpointQuery(dealOrNoDealEndpoints.recent);

export const useCreateDealOrNoDeal = () =>
  useEndpointMutation(dealOrNoDealEndpoints.create, { invalidates: [dealOrNoDealEndpoints.recent] });

export const useCancelDealOrNoDeal = () =>
  useEndpointMutation(dealOrNoDealEndpoints.cancel, { invalidates: [dealOrNoDealEndpoints.recent] });

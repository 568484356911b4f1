/** The ways to earn points (`GET /api/earn`), read afresh on each visit (the server keeps it cached). */
import { earnEndpoints } from '@kickback/common/http/earn';
import { useEndpointQuery } from '../../lib/query';

export function useEarnWays() {
  return useEndpointQuery(earnEndpoints.ways, {}, { staleTime: 0 });
}

/** What is running right now (`GET /api/live/now`), refreshed every few seconds while a page shows it. */
import { liveEndpoints } from '@kickback/common/http/live';
import { useEndpointQuery } from '../../lib/query';

const REFRESH_MS = 10_000;

export function useLiveNow() {
  return useEndpointQuery(liveEndpoints.now, { silent: true }, { refetchInterval: REFRESH_MS, staleTime: 0 });
}

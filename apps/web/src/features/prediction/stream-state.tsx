/** The stream's live state on the Predictions page: read by itself, refreshed every few seconds. */
import { chatEndpoints } from '@kickback/common/http/chat';
import { StreamStateBadge } from '../../components/ui/stream-state-badge';
import { useEndpointQuery } from '../../lib/query';

const REFRESH_MS = 5000;

export function StreamState() {
  const { data } = useEndpointQuery(
    chatEndpoints.liveState,
    { silent: true },
    { refetchInterval: REFRESH_MS, staleTime: 0 },
  );
  return data ? <StreamStateBadge live={data} /> : null;
}

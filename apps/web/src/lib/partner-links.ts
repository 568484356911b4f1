/** The signed-in user's partner links (profile and My activity share them), and a reloadable loader. */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { myPartnerLinkEndpoints } from '@kickback/common/http/partner-links';
import { callEndpoint } from './api';
import { endpointKey } from './query';

/**
 * Reads an endpoint that takes no input through TanStack Query (silently: the page shows what it
 * has); reload() invalidates it, so every page showing it refetches (after a save or a decision).
 */
export function useLoaded<E extends EndpointSpec & { params?: undefined; body?: undefined }>(endpoint: E | null) {
  const client = useQueryClient();
  const query = useQuery<EndpointResponse<E>>({
    queryKey: endpoint ? endpointKey(endpoint) : ['disabled'],
    queryFn: ({ signal }) => callEndpoint(endpoint as E, { signal, silent: true }),
    enabled: endpoint !== null,
  });
  const reload = useCallback(() => {
    if (endpoint) void client.invalidateQueries({ queryKey: endpointKey(endpoint) });
  }, [client, endpoint]);
  return { data: query.data ?? null, reload };
}

export const useMyPartnerLinks = () => useLoaded(myPartnerLinkEndpoints.list);

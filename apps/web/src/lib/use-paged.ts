import { useCallback } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndpointInput, EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { callEndpoint } from './api';
import { endpointKey } from './query';

/** A paged list's endpoint: its query takes `page`. */
type PagedEndpoint = EndpointSpec & { query: EndpointSpec['query'] };

/**
 * Page N of a paged list with its other query fields, through TanStack Query (keyed by endpoint
 * and query; the previous page stays shown while the next loads). reload() invalidates every page
 * of the endpoint, so a change made elsewhere shows too.
 */
export function usePaged<E extends PagedEndpoint>(
  endpoint: E,
  page: number,
  query?: Omit<NonNullable<EndpointInput<E>['query']>, 'page'>,
) {
  const client = useQueryClient();
  const input = { query: { ...(query ?? {}), page } };
  const result = useQuery<EndpointResponse<E>>({
    queryKey: endpointKey(endpoint, input),
    queryFn: ({ signal }) => callEndpoint(endpoint, { ...input, signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const reload = useCallback(
    () => void client.invalidateQueries({ queryKey: endpointKey(endpoint) }),
    [client, endpoint],
  );
  return { data: result.data ?? null, reload };
}

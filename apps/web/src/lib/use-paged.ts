import { useCallback, useEffect, useState } from 'react';
import type { EndpointInput, EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { callEndpoint } from './api';

/** A paged list's endpoint: its query takes `page`. */
type PagedEndpoint = EndpointSpec & { query: EndpointSpec['query'] };

/** Loads page N of a paged list with its other query fields; reload() fetches the current page again. */
export function usePaged<E extends PagedEndpoint>(
  endpoint: E,
  page: number,
  query?: Omit<NonNullable<EndpointInput<E>['query']>, 'page'>,
) {
  const [data, setData] = useState<EndpointResponse<E> | null>(null);
  const [version, setVersion] = useState(0);
  // The query by value: a new object with the same fields is the same page.
  const queryKey = JSON.stringify(query ?? {});
  useEffect(() => {
    const controller = new AbortController();
    const input = { query: { ...(JSON.parse(queryKey) as object), page }, signal: controller.signal, silent: true };
    callEndpoint(endpoint, input)
      .then((d) => setData(d))
      .catch((err: Error) => {
        if (err.name !== 'AbortError') setData((d) => d);
      });
    return () => controller.abort();
  }, [endpoint, queryKey, page, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload };
}

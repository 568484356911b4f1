/** The signed-in user's partner links (profile and My activity share them), and a reloadable loader. */
import { useCallback, useEffect, useState } from 'react';
import type { EndpointResponse, EndpointSpec } from '@kickback/common/http/endpoint';
import { myPartnerLinkEndpoints } from '@kickback/common/http/partner-links';
import { callEndpoint } from './api';

/** Loads an endpoint that takes no input; reload() fetches again (after a save or a decision). */
export function useLoaded<E extends EndpointSpec & { params?: undefined; body?: undefined }>(endpoint: E | null) {
  const [data, setData] = useState<EndpointResponse<E> | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!endpoint) return;
    const controller = new AbortController();
    callEndpoint(endpoint, { signal: controller.signal, silent: true })
      .then((d) => setData(d))
      .catch(() => undefined);
    return () => controller.abort();
  }, [endpoint, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload };
}

export const useMyPartnerLinks = () => useLoaded(myPartnerLinkEndpoints.list);

/** The signed-in user's partner links (profile and My activity share them), and a reloadable loader. */
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { myPartnerLinks } from '@kickback/common/http/partner-links';
import { api } from './api';

/** Loads a path with its schema; reload() fetches again (after a save or a decision). */
export function useLoaded<S extends z.ZodType>(path: string | null, schema: S) {
  const [data, setData] = useState<z.infer<S> | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    api(path, { schema, signal: controller.signal, silent: true })
      .then((d) => setData(d))
      .catch(() => undefined);
    return () => controller.abort();
  }, [path, schema, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload };
}

export const useMyPartnerLinks = () => useLoaded('/api/User/partner-links', myPartnerLinks);

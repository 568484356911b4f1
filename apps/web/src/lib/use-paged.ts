import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { api } from './api';

/** Loads `${path}?page=N` with its schema; reload() fetches the current page again. */
export function usePaged<S extends z.ZodType>(path: string, schema: S, page: number, params = '') {
  const [data, setData] = useState<z.infer<S> | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const sep = path.includes('?') ? '&' : '?';
    api(`${path}${sep}page=${page}${params}`, { schema, signal: controller.signal, silent: true })
      .then((d) => setData(d))
      .catch((err: Error) => {
        if (err.name !== 'AbortError') setData((d: z.infer<S> | null) => d);
      });
    return () => controller.abort();
  }, [path, schema, page, params, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload };
}

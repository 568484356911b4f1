/**
 * The concrete URL of an endpoint call, apart from its schemas (endpoint.ts) so the web's fetch
 * wrapper can fill a path without bringing zod into the first page's script.
 */
/** The concrete path: each `:name` replaced by its (URI-encoded) parameter. */
export function endpointPath(endpoint: { path: string }, params?: Record<string, unknown>): string {
  return endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value as string | number));
  });
}

/** `?a=1&b=x` from a query object (undefined values left out), or '' when none remain. */
export function endpointQuery(query?: Record<string, unknown>): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value as string | number | boolean));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

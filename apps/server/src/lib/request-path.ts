/**
 * The one path every check decides on (CSRF, session, access, rate limit), so that routing and the
 * checks cannot disagree: the router ignores case (contract paths come in mixed case) and decodes
 * percent-escapes, so `/API/…`, `/Api/…` and `/%61pi/…` reach the same handler as `/api/…`. A check
 * that read `request.url` would see a different path from the one the router matched.
 *
 * The path is the pattern of the route the router matched, lower-cased; when no route matched, the
 * URL's own path, decoded, with repeated slashes folded and lower-cased.
 */
import type { FastifyRequest } from 'fastify';

const cache = new WeakMap<FastifyRequest, string>();

export function canonicalPath(url: string): string {
  let path = url.split('?')[0] ?? '/';
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: keep it as it came, the router will not match it either
  }
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}

export function routePath(request: FastifyRequest): string {
  let path = cache.get(request);
  if (path === undefined) {
    const pattern = request.routeOptions.url;
    path = pattern ? pattern.toLowerCase() : canonicalPath(request.url);
    cache.set(request, path);
  }
  return path;
}

/** The path as seen by the checks starts with one of the (lower-case) prefixes. */
export function pathStartsWith(request: FastifyRequest, ...prefixes: string[]): boolean {
  const path = routePath(request);
  return prefixes.some((p) => path.startsWith(p));
}

/**
 * Whether the site has a page at a path, for pages that link to another feature only once it
 * exists (the home page's feature tiles). The app shell provides the route table's paths here, so a
 * page does not import the route table, which imports every page.
 */
import { createContext, use, type ReactNode } from 'react';

const KnownRoutes = createContext<readonly string[]>([]);

export function KnownRoutesProvider({ paths, children }: { paths: readonly string[]; children: ReactNode }) {
  return <KnownRoutes value={paths}>{children}</KnownRoutes>;
}

export function useHasRoute(): (path: string) => boolean {
  const paths = use(KnownRoutes);
  return (path) => paths.some((p) => p.toLowerCase() === path.toLowerCase());
}

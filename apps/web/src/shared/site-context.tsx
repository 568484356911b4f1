/**
 * The public site configuration (branding, footer links, the 18+ gate) as server state: one query,
 * read at start and kept; a change by an admin invalidates it (siteConfigKey), so the site shows it.
 */
import { createContext, use, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SiteConfig } from '@kickback/common/http/site';
import { accentTokens } from '@kickback/common/accent';
import { ApiError, callEndpoint } from '../lib/api';

/** endpointKey(siteEndpoints.config), spelled out: the endpoint's schema stays out of the first load. */
export const siteConfigKey = ['GET', '/api/site'];

/**
 * Every accent-dependent token from the one accent colour (links, hover and focus states, glows,
 * tints, the primary button's states, the accent as text): tokens.css holds the same tokens for the default colour.
 */
export function applyAccent(style: Pick<CSSStyleDeclaration, 'setProperty'>, accentColor: string): void {
  const tokens = accentTokens(accentColor);
  if (!tokens) return;
  style.setProperty('--kb-accent', tokens.accent);
  style.setProperty('--kb-accent-rgb', tokens.rgb);
  style.setProperty('--kb-accent-hover', tokens.hover);
  style.setProperty('--kb-accent-hover-rgb', tokens.hoverRgb);
  style.setProperty('--kb-accent-active', tokens.active);
  style.setProperty('--kb-accent-disabled', tokens.disabled);
  style.setProperty('--kb-accent-text', tokens.text);
  style.setProperty('--kb-accent-text-rgb', tokens.textRgb);
}

const SiteContext = createContext<SiteConfig | null>(null);

export function SiteProvider({ children }: { children: ReactNode }) {
  const config = useQuery<SiteConfig>({
    queryKey: siteConfigKey,
    // The endpoint's schema (and zod with it) loads beside the call, not with the first page. A
    // refetch follows an admin's change: it asks the server past the browser's cached copy.
    queryFn: async ({ signal, client }) =>
      callEndpoint((await import('@kickback/common/http/site')).siteEndpoints.config, {
        signal,
        ...(client.getQueryData(siteConfigKey) ? { cache: 'no-cache' as const } : {}),
      }),
    staleTime: Infinity,
    retry: false,
  });
  const site = config.data ?? null;
  useEffect(() => {
    if (!site) return;
    document.title = site.siteName;
    applyAccent(document.documentElement.style, site.accentColor);
  }, [site]);
  if (config.isError && !site) {
    // A refusal for too many requests is not an outage: the visitor only has to wait.
    if (config.error instanceof ApiError && config.error.status === 429) {
      return (
        <main className="container py-5 text-center">
          <h1 className="h4">Too many requests.</h1>
          <p>Please wait a moment, then refresh.</p>
        </main>
      );
    }
    return (
      <main className="container py-5 text-center">
        <h1 className="h4">The site could not be reached.</h1>
        <p>Please refresh in a moment.</p>
      </main>
    );
  }
  if (!site) return <div className="kb-boot" aria-busy="true" />;
  return <SiteContext value={site}>{children}</SiteContext>;
}

export function useSite(): SiteConfig {
  const site = use(SiteContext);
  if (!site) throw new Error('useSite outside SiteProvider');
  return site;
}

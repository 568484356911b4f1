/** The public site configuration (branding, footer links), loaded once at start. */
import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import type { SiteConfig } from '@kickback/common/http/site';
import { api } from '../lib/api';

const SiteContext = createContext<SiteConfig | null>(null);

export function SiteProvider({ children }: { children: ReactNode }) {
  const [site, setSite] = useState<SiteConfig | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // The endpoint's schema (and zod with it) loads beside the call, not with the first page.
    import('@kickback/common/http/site')
      .then(({ siteEndpoints }) => api(siteEndpoints.config))
      .then((s) => {
        setSite(s);
        document.title = s.siteName;
        document.documentElement.style.setProperty('--kb-accent', s.accentColor);
      })
      .catch(() => setFailed(true));
  }, []);
  if (failed) {
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

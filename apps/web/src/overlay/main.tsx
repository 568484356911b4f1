/**
 * The OBS overlays' own entry (overlay.html, built by vite.overlay.config.ts on Preact's React
 * compatibility layer): no router, no site shell, no Bootstrap — a switch on the path, the overlay's
 * page (loaded on its own), and the toast area for the connection toasts.
 */
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-toastify/dist/ReactToastify.css';
import { overlayAt, type OverlayPath } from '@kickback/common/overlays';
import { isLocale, type Locale } from '@kickback/common/i18n/locales';
import { loadI18n } from '../i18n/i18n';
import { Toasts } from '../app/layout/toasts';
import '../tokens.css';
import './overlay-base.css';

const pages: Record<OverlayPath, ReturnType<typeof lazy>> = {
  '/overlay/giveaway': lazy(() => import('../features/giveaway/overlay-page')),
  '/overlay/raffle': lazy(() => import('../features/raffles/raffle-overlay-page')),
  '/overlay/battle': lazy(() => import('../features/battles/battle-overlay-page')),
  '/overlay/hunt': lazy(() => import('../features/hunt/hunt-overlay-page')),
  '/overlay/calls': lazy(() => import('../features/slot-calls/calls-overlay-page')),
  '/kick/prediction/overlay': lazy(() => import('../features/prediction/prediction-overlay-page')),
  '/overlay/alerts': lazy(() => import('../features/support-rewards/alerts-overlay-page')),
  '/overlay/goal': lazy(() => import('../features/community-goal/goal-overlay-page')),
};

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

const path = overlayAt(window.location.pathname);
const Page = path ? pages[path] : null;

/** The overlays whose texts come from the catalogue (docs/features/languages.md#overlays); the rest are English. */
const translated: ReadonlySet<OverlayPath> = new Set(['/overlay/giveaway', '/kick/prediction/overlay']);

/** An overlay speaks `?lang=` when it names a language of ours, else the site's default language. */
async function overlayLocale(): Promise<Locale> {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (isLocale(asked)) return asked;
  try {
    // Read by hand: the site configuration's schema (and zod with it) stays out of the overlay.
    const site = (await (await fetch('/api/site', { headers: { Accept: 'application/json' } })).json()) as {
      language?: { default?: unknown };
    };
    return isLocale(site.language?.default) ? site.language.default : 'en';
  } catch {
    return 'en';
  }
}

function render() {
  createRoot(root!).render(
    <StrictMode>
      <Suspense fallback={null}>{Page && <Page />}</Suspense>
      <Toasts position="top-right" />
    </StrictMode>,
  );
}

// Only the translated overlays load the language runtime; the others draw at once.
if (path && translated.has(path)) {
  void overlayLocale()
    .then(loadI18n)
    .catch(() => loadI18n('en'))
    .catch(() => undefined)
    .finally(render);
} else render();

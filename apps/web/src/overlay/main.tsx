/**
 * The OBS overlays' own entry (overlay.html, built by vite.overlay.config.ts on Preact's React
 * compatibility layer): no router, no site shell, no Bootstrap — a switch on the path, the overlay's
 * page (loaded on its own), and the toast area for the connection toasts.
 */
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-toastify/dist/ReactToastify.css';
import { overlayAt, type OverlayPath } from '@kickback/common/overlays';
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

createRoot(root).render(
  <StrictMode>
    <Suspense fallback={null}>{Page && <Page />}</Suspense>
    <Toasts position="top-right" />
  </StrictMode>,
);

import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { AgeGate } from '../../features/age-gate/age-gate';
import { useAuth } from '../../shared/auth/auth-context';
import { SigninOutcome } from '../auth/signin-outcome';
import { useProfileModal } from '../../shared/profile-modal-context';
import { useSite } from '../../shared/site-context';
import { DevSignInBanner } from './dev-signin-banner';
import { Footer } from './footer';
import { Header } from './header';
import { Toasts } from './toasts';
import { useTranslation } from '../../i18n/i18n';

// The modals load with their first opening, not with the first page (bundle size).
const LoginModal = lazy(() => import('../auth/login-modal').then((m) => ({ default: m.LoginModal })));
const ProfileModal = lazy(() =>
  import('../../features/profile/profile-modal').then((m) => ({ default: m.ProfileModal })),
);

/** Mounts `Modal` once `show` first turns true and keeps it (so it can animate closing). */
function OnceShown({ show, Modal }: { show: boolean; Modal: ComponentType }) {
  const [shown, setShown] = useState(show);
  if (show && !shown) setShown(true);
  return shown ? (
    <Suspense fallback={null}>
      <Modal />
    </Suspense>
  ) : null;
}

/** The shared layout: header, the page with a 300 ms fade, footer, toasts and the modals. */
export function Layout() {
  const location = useLocation();
  const { loading } = useAuth();
  const profile = useProfileModal();
  const { t } = useTranslation();
  return (
    <AgeGate>
      <div className="kb-shell d-flex flex-column min-vh-100">
        <a className="visually-hidden-focusable kb-skip" href="#main">
          {t('shell.skipToContent')}
        </a>
        <DevSignInBanner />
        <Header />
        <main id="main" className="flex-grow-1">
          <div key={location.pathname} className="kb-page-fade">
            <Suspense fallback={<div className="kb-page-loading" aria-busy="true" />}>
              <Outlet />
            </Suspense>
          </div>
        </main>
        <Footer />
        <OnceShown show={loading} Modal={LoginModal} />
        <OnceShown show={profile.show} Modal={ProfileModal} />
        <SigninOutcome />
        <Toasts />
        {/* A link opens its page at the top (a tile low on the home page used to open /live scrolled past its list); Back restores. */}
        <ScrollRestoration />
      </div>
    </AgeGate>
  );
}

/**
 * Pages outside the layout (the game stage) still get toasts, and a way back to the site (the OBS
 * overlays have their own entry and never show it).
 */
export function BareLayout() {
  const site = useSite();
  const { t } = useTranslation();
  return (
    <AgeGate>
      <DevSignInBanner />
      <nav className="kb-bare-back" aria-label={t('shell.site')}>
        <Link to="/">{t('shell.backTo', { siteName: site.siteName })}</Link>
      </nav>
      <main id="main">
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
      <Toasts position="top-right" />
      <ScrollRestoration />
    </AgeGate>
  );
}

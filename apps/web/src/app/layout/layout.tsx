import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LoginModal } from '../auth/login-modal';
import { ProfileModal } from '../../features/profile/profile-modal';
import { Footer } from './footer';
import { Header } from './header';
import { Toasts } from './toasts';

/** The shared layout: header, the page with a 300 ms fade, footer, toasts and the modals. */
export function Layout() {
  const location = useLocation();
  return (
    <div className="kb-shell d-flex flex-column min-vh-100">
      <a className="visually-hidden-focusable kb-skip" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex-grow-1">
        <div key={location.pathname} className="kb-page-fade">
          <Suspense fallback={<div className="kb-page-loading" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <Footer />
      <LoginModal />
      <ProfileModal />
      <Toasts />
    </div>
  );
}

/** Pages outside the layout (overlays, the game stage) still get toasts. */
export function BareLayout() {
  return (
    <>
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
      <Toasts position="top-right" />
    </>
  );
}

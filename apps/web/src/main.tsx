import './lib/zod-jitless'; // first: before any module that loads zod
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import 'bootstrap/dist/css/bootstrap.min.css';
import 'react-toastify/dist/ReactToastify.css';
import './tokens.css';
import './styles.css';
import { AuthProvider } from './shared/auth/auth-context';
import { KnownRoutesProvider } from './shared/known-routes';
import { router } from './app/router';
import { routes } from './app/routes';
import { SiteProvider } from './shared/site-context';
import { LanguageProvider, LanguageSync } from './shared/language';
import { ProfileModalProvider } from './shared/profile-modal-context';
import { createQueryClient } from './lib/query';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

const queryClient = createQueryClient();

// The i18n runtime starts loading beside the site's configuration (docs/features/languages.md#on-the-site).
void import('./i18n/runtime');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SiteProvider>
        <LanguageProvider>
          <AuthProvider>
            <LanguageSync />
            <ProfileModalProvider>
              <KnownRoutesProvider paths={routes.map((r) => r.path)}>
                <RouterProvider router={router} />
              </KnownRoutesProvider>
            </ProfileModalProvider>
          </AuthProvider>
        </LanguageProvider>
      </SiteProvider>
    </QueryClientProvider>
  </StrictMode>,
);

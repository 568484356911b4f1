import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import 'bootstrap/dist/css/bootstrap.min.css';
import 'react-toastify/dist/ReactToastify.css';
import './styles.css';
import { AuthProvider } from './app/auth/auth-context';
import { router } from './app/router';
import { SiteProvider } from './app/site-context';
import { ProfileModalProvider } from './app/profile-modal-context';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

createRoot(root).render(
  <StrictMode>
    <SiteProvider>
      <AuthProvider>
        <ProfileModalProvider>
          <RouterProvider router={router} />
        </ProfileModalProvider>
      </AuthProvider>
    </SiteProvider>
  </StrictMode>,
);

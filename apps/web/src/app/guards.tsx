import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Role } from '@kickback/common/http/auth';
import { useAuth } from '../shared/auth/auth-context';

/**
 * Restricted pages: render nothing while the user loads, redirect to / without a permitted role.
 * The server checks again on every call; this only keeps people out of pages they cannot use.
 */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { user, initialising } = useAuth();
  if (initialising) return null;
  if (!user || !roles.includes(user.role)) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/**
 * Who may call a route or a hub call, declared where it is defined (http/endpoint.ts, hubs/hub.ts):
 * anyone (`visitor`), a signed-in user (`user`), a Moderator or an Admin (`moderator`), or an Admin
 * only (`admin`). The server answers 401 without sign-in and 403 without the role; the
 * authorisation matrix test calls every route and hub call at every level against these.
 */
import type { Role } from './http/auth';

export const accessLevels = ['visitor', 'user', 'moderator', 'admin'] as const;
export type AccessLevel = (typeof accessLevels)[number];

/** Roles that run games, giveaways and predictions (docs/security.md#roles): Moderator and Admin. */
export function canModerate(role: Role | null | undefined): boolean {
  return role === 'Moderator' || role === 'Admin';
}

/** Whether a caller with `role` (null when not signed in) passes `access`. */
export function allows(access: AccessLevel, role: Role | null | undefined): boolean {
  switch (access) {
    case 'visitor':
      return true;
    case 'user':
      return role != null;
    case 'moderator':
      return canModerate(role);
    case 'admin':
      return role === 'Admin';
  }
}

/** What the server answers a caller `access` refuses: 401 without sign-in, 403 without the role. */
export function refusalStatus(access: AccessLevel, role: Role | null | undefined): 401 | 403 | null {
  if (allows(access, role)) return null;
  return role == null ? 401 : 403;
}

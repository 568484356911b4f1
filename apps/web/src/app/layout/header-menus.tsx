/**
 * The header's dropdown menus (More, Admin, the user's), loaded beside the page rather than before
 * it draws: the dropdown code (with its positioning library) is not needed to draw the bar
 * (docs/benchmarks.md#first-load-budget-per-page). header.tsx shows each title until it is here.
 */
import NavDropdown from 'react-bootstrap/NavDropdown';
import { NavLink } from 'react-router';
import type { Role } from '@kickback/common/http/auth';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { MenuFeature } from '@kickback/common/site-menu';
import { adminMenu, userMenu } from '../routes';

// Opened from the user menu; its code loads on the first open (docs/features/store-limits.md#site-notifications).
const NotificationsDialog = lazy(() => import('../../features/notifications/notifications-dialog'));

export function MoreMenu({ items }: { items: readonly MenuFeature[] }) {
  return (
    <NavDropdown title="More" id="kb-more-menu" className="d-none d-xl-block">
      {items.map((item) => (
        <NavDropdown.Item key={item.id} as={NavLink} to={item.path}>
          {item.label}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}

export function AdminMenu({ role }: { role: Role }) {
  return (
    <NavDropdown title="Admin" id="kb-admin-menu">
      {adminMenu(role).map((r) => (
        <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
          {r.name}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}

export function UserMenu({
  title,
  role,
  onProfile,
  onSignOut,
}: {
  title: ReactNode;
  role: Role;
  onProfile(): void;
  onSignOut(): void;
}) {
  const [notifications, setNotifications] = useState(false);
  return (
    <>
      <NavDropdown align="end" id="kb-user-menu" title={title}>
        <NavDropdown.Item onClick={onProfile}>Profile</NavDropdown.Item>
        {userMenu(role).map((r) => (
          <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
            {r.name}
          </NavDropdown.Item>
        ))}
        <NavDropdown.Item onClick={() => setNotifications(true)}>Notifications</NavDropdown.Item>
        <NavDropdown.Divider />
        <NavDropdown.Item onClick={onSignOut}>Sign out</NavDropdown.Item>
      </NavDropdown>
      {notifications && (
        <Suspense fallback={null}>
          <NotificationsDialog onClose={() => setNotifications(false)} />
        </Suspense>
      )}
    </>
  );
}

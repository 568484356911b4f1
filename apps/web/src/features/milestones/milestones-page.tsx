/**
 * One lazy route component for both milestone pages (docs/features/milestone-rewards.md): the
 * viewer's `/rewards` and the admin's `/admin/milestones` share one entry in the route table's
 * chunk (which every page loads), and each view stays a chunk of its own.
 */
import { lazy } from 'react';
import { useLocation } from 'react-router';

const RewardsPage = lazy(() => import('./rewards-page'));
const AdminMilestonesPage = lazy(() => import('./admin-milestones-page'));

export default function MilestonesPage() {
  const { pathname } = useLocation();
  return pathname.startsWith('/admin/') ? <AdminMilestonesPage /> : <RewardsPage />;
}

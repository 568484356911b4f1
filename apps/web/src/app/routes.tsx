/**
 * The one route table: path, page, menu label, roles. The router, the Admin dropdown, the user
 * dropdown and the guards are built from it; the public menus (header, phone menu, footer) from the
 * admin's list of the site's features (packages/common/src/site-menu.ts), whose every path is here.
 * Features add their routes here.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Role } from '@kickback/common/http/auth';

export interface AppRoute {
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** Label in the Admin or user dropdown; only routes with a name appear there (docs/product.md#site-screens-and-routes). */
  name?: string;
  /** Who may open the page; absent = public. */
  roles?: readonly Role[];
  /**
   * Named routes of signed-in users go to the user dropdown with `menu: 'user'`. Staff pages
   * (roles without User) go to the Admin dropdown, each shown to the roles it lists.
   */
  menu?: 'user';
  /** Rendered outside the shared layout (the Deal or No Deal stage). The OBS overlays have their own entry. */
  bare?: boolean;
}

/** `roles` for admin-only pages (they go to the Admin dropdown). */
export const adminOnly = ['Admin'] as const;
/** `roles` for the pages Moderators use too: running games, giveaways, predictions, Fulfilment (docs/security.md#roles). */
export const staffOnly = ['Moderator', 'Admin'] as const;
/** `roles` for pages of any signed-in user (every role; written out so the shell's script carries no zod). */
export const signedIn: readonly Role[] = ['User', 'Moderator', 'Admin'];

export const routes: AppRoute[] = [
  { path: '/', page: lazy(() => import('../features/home/home-page')) },
  { path: '/linkkick', page: lazy(() => import('../features/profile/link-kick-page')) },
  { path: '/link/discord', page: lazy(() => import('../features/profile/discord-link-page')) },
  { path: '/setup/:token', page: lazy(() => import('../features/setup/claim-site-page')) },
  { path: '/terms', page: lazy(() => import('../features/pages/terms-page')) },
  { path: '/privacy', page: lazy(() => import('../features/pages/privacy-page')) },
  { path: '/game/splitorsteal/:id', page: lazy(() => import('../features/split-or-steal/split-or-steal-page')) },
  {
    path: '/admin/go-live',
    page: lazy(() => import('../features/integrations/go-live-page')),
    name: 'Go live',
    roles: adminOnly,
  },
  {
    path: '/createsplitorsteal',
    page: lazy(() => import('../features/split-or-steal/create-split-or-steal-page')),
    name: 'Create Split Or Steal',
    roles: staffOnly,
  },
  {
    path: '/createdealornodeal',
    page: lazy(() => import('../features/deal-or-no-deal/create-deal-or-no-deal-page')),
    name: 'Create Deal Or No Deal',
    roles: staffOnly,
  },
  {
    path: '/game/dealornodeal/:id',
    page: lazy(() => import('../features/deal-or-no-deal/deal-or-no-deal-page')),
    bare: true,
  },
  {
    path: '/game/dealornodeal/:id/verify',
    page: lazy(() => import('../features/deal-or-no-deal/verify-board-page')),
    bare: true,
  },
  {
    path: '/giveaway',
    page: lazy(() => import('../features/giveaway/giveaway-page')),
    name: 'Giveaway',
    roles: staffOnly,
  },
  { path: '/giveaway/verify/:rollId', page: lazy(() => import('../features/giveaway/verify-page')) },
  {
    path: '/DiscordMessageSender',
    page: lazy(() => import('../features/discord/discord-message-sender-page')),
    name: 'Send Discord Message',
    roles: adminOnly,
  },
  {
    path: '/leaderboard',
    page: lazy(() => import('../features/leaderboard/leaderboard-page')),
  },
  { path: '/store', page: lazy(() => import('../features/store/store-page')) },
  // The public pages' menu entries are the admin's list (packages/common/src/site-menu.ts), not names here.
  { path: '/earn', page: lazy(() => import('../features/earn/earn-page')) },
  { path: '/raffles', page: lazy(() => import('../features/raffles/raffles-page')) },
  { path: '/raffles/:id', page: lazy(() => import('../features/raffles/raffle-page')) },
  { path: '/raffles/:id/verify', page: lazy(() => import('../features/raffles/verify-page')) },
  { path: '/battles', page: lazy(() => import('../features/battles/battles-page')) },
  { path: '/battle/:id', page: lazy(() => import('../features/battles/battle-page')) },
  { path: '/battle/:id/verify', page: lazy(() => import('../features/battles/verify-page')) },
  {
    path: '/admin/battles',
    page: lazy(() => import('../features/battles/admin-battles-page')),
    name: 'Battles',
    roles: adminOnly,
  },
  {
    path: '/admin/raffles',
    page: lazy(() => import('../features/raffles/admin-raffles-page')),
    name: 'Raffles',
    roles: adminOnly,
  },
  {
    path: '/activity',
    page: lazy(() => import('../features/activity/my-activity-page')),
    name: 'My activity',
    roles: signedIn,
    menu: 'user',
  },
  {
    path: '/rewards',
    page: lazy(() => import('../features/milestones/milestones-page')),
    name: 'Milestone rewards',
    roles: signedIn,
    menu: 'user',
  },
  {
    path: '/admin/fulfilment',
    page: lazy(() => import('../features/fulfilment/fulfilment-page')),
    name: 'Fulfilment',
    roles: staffOnly,
  },
  {
    path: '/admin/verification',
    page: lazy(() => import('../features/partner-verification/partner-verification-page')),
    name: 'Verification',
    roles: adminOnly,
  },
  {
    path: '/admin/products',
    page: lazy(() => import('../features/store/admin-products-page')),
    name: 'Products',
    roles: adminOnly,
  },
  {
    path: '/admin/users',
    page: lazy(() => import('../features/admin-users/users-page')),
    name: 'Users',
    roles: adminOnly,
  },
  {
    path: '/dailyrewardroobet',
    page: lazy(() => import('../features/daily-rewards/daily-reward-roobet-page')),
  },
  {
    path: '/DailyRewards',
    page: lazy(() => import('../features/daily-rewards/daily-rewards-page')),
  },
  {
    path: '/Challenges',
    page: lazy(() => import('../features/challenges/challenges-page')),
  },
  {
    path: '/RoobetVip',
    page: lazy(() => import('../features/vip/roobet-vip-page')),
  },
  {
    path: '/ChallengeManagement',
    page: lazy(() => import('../features/challenges/challenge-management-page')),
    name: 'Challenge Management',
    roles: adminOnly,
  },
  {
    path: '/admin/daily-rewards',
    page: lazy(() => import('../features/daily-rewards/admin-daily-rewards-page')),
    name: 'Daily Reward Policies',
    roles: adminOnly,
  },
  {
    path: '/admin/audit',
    page: lazy(() => import('../features/audit/audit-log-page')),
    name: 'Audit Log',
    roles: adminOnly,
  },
  {
    path: '/admin/leaderboards',
    page: lazy(() => import('../features/leaderboard/admin-leaderboards-page')),
    name: 'Leaderboards',
    roles: adminOnly,
  },
  {
    path: '/admin/predictions',
    page: lazy(() => import('../features/prediction/predictions-admin-page')),
    name: 'Predictions',
    roles: staffOnly,
  },
  {
    path: '/admin/hunt',
    page: lazy(() => import('../features/hunt/hunt-admin-page')),
    name: 'Run Bonus Hunt',
    roles: staffOnly,
  },
  { path: '/hunt', page: lazy(() => import('../features/hunt/hunt-page')) },
  { path: '/calls', page: lazy(() => import('../features/slot-calls/calls-page')) },
  { path: '/calls/picks/:id/verify', page: lazy(() => import('../features/slot-calls/verify-page')) },
  {
    path: '/admin/calls',
    page: lazy(() => import('../features/slot-calls/admin-calls-page')),
    name: 'Slot calls',
    roles: staffOnly,
  },
  {
    path: '/admin/commands',
    page: lazy(() => import('../features/chat-commands/admin-commands-page')),
    name: 'Commands',
    roles: staffOnly,
  },
  { path: '/live', page: lazy(() => import('../features/home/live-page')) },
  {
    path: '/admin/integrations',
    page: lazy(() => import('../features/integrations/integrations-page')),
    name: 'Integrations',
    roles: adminOnly,
  },
  {
    path: '/admin/settings',
    page: lazy(() => import('../features/settings/admin-settings-page')),
    name: 'Settings',
    roles: adminOnly,
  },
  {
    path: '/admin/translations',
    page: lazy(() => import('../features/translations/translations-page')),
    name: 'Translations',
    roles: adminOnly,
  },
  {
    path: '/admin/age-gate',
    page: lazy(() => import('../features/age-gate/admin-age-gate-page')),
    name: '18+ Gate',
    roles: adminOnly,
  },
  {
    path: '/admin/staff-prize-limits',
    page: lazy(() => import('../features/staff-prizes/admin-staff-prize-limits-page')),
    name: 'Staff Prize Limits',
    roles: adminOnly,
  },
  {
    path: '/admin/milestones',
    page: lazy(() => import('../features/milestones/milestones-page')),
    name: 'Milestone Ladders',
    roles: adminOnly,
  },
  {
    path: '/admin/support-rewards',
    page: lazy(() => import('../features/support-rewards/admin-support-rewards-page')),
    name: 'Support Rewards',
    roles: adminOnly,
  },
  {
    path: '/admin/fair-earning',
    page: lazy(() => import('../features/fair-earning/admin-fair-earning-page')),
    name: 'Fair Earning',
    roles: adminOnly,
  },
  {
    path: '/admin/chat-simulator',
    page: lazy(() => import('../features/chat/chat-simulator-page')),
    name: 'Chat Simulator',
    roles: staffOnly,
  },
  {
    path: '/admin/moderation',
    page: lazy(() => import('../features/moderation/admin-moderation-page')),
    name: 'Moderation',
    roles: staffOnly,
  },
];

/** A staff page: one only Moderators and Admins (or Admins alone) may open; it goes to the Admin dropdown. */
const isStaffPage = (r: AppRoute): boolean => !!r.roles && !r.roles.includes('User');

/** The Admin dropdown of `role`, in route-table order: the staff pages that role may open. */
export function adminMenu(role: Role | null, list: readonly AppRoute[] = routes): AppRoute[] {
  return list.filter((r) => r.name && isStaffPage(r) && role !== null && r.roles!.includes(role));
}

export function userMenu(role: Role, list: readonly AppRoute[] = routes): AppRoute[] {
  return list.filter((r) => r.name && r.menu === 'user' && (!r.roles || r.roles.includes(role)));
}

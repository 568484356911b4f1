import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { roles } from '@kickback/common/http/auth';
import { overlayPaths } from '@kickback/common/overlays';
import { matchPath } from 'react-router';
import { menuFeatures } from '@kickback/common/site-menu';
import { adminMenu, routes, signedIn, userMenu, type AppRoute } from './routes';

const page = lazy(async () => ({ default: () => null }));
const table: AppRoute[] = [
  { path: '/', page, name: 'Home' },
  { path: '/store', page, name: 'Store' },
  { path: '/hidden', page },
  { path: '/createsplitorsteal', page, name: 'Create Split Or Steal', roles: ['Moderator', 'Admin'] },
  { path: '/admin/products', page, name: 'Products', roles: ['Admin'] },
  { path: '/activity', page, name: 'My activity', roles: ['User', 'Admin'], menu: 'user' },
];

describe('menus from the route table', () => {
  it('puts staff pages in the Admin dropdown, each for the roles it lists', () => {
    expect(adminMenu('Admin', table).map((r) => r.name)).toEqual(['Create Split Or Steal', 'Products']);
    expect(adminMenu('Moderator', table).map((r) => r.name)).toEqual(['Create Split Or Steal']);
    expect(adminMenu('User', table)).toEqual([]);
    expect(adminMenu(null, table)).toEqual([]);
  });

  it('puts user-menu routes in the user dropdown for permitted roles', () => {
    expect(userMenu('User', table).map((r) => r.path)).toEqual(['/activity']);
  });
});

describe('the public menus’ features', () => {
  it('each opens a public page of the route table', () => {
    for (const feature of menuFeatures) {
      const route = routes.find((r) => matchPath(r.path, feature.path));
      expect(route, feature.path).toBeDefined();
      expect(route!.roles, feature.path).toBeUndefined();
    }
  });

  it('keep the contract’s menu labels and routes first, in its order, then Live now, Raffles, Battles, Slot calls', () => {
    expect(menuFeatures.map((f) => [f.label, f.path])).toEqual([
      ['Home', '/'],
      ['Leaderboard', '/leaderboard'],
      ['Store', '/store'],
      ['Daily Rewards', '/DailyRewards'],
      ['Challenges', '/Challenges'],
      ['Roobet VIP', '/RoobetVip'],
      ['Bonus Hunt', '/hunt'],
      ['Live now', '/live'],
      ['Raffles', '/raffles'],
      ['Battles', '/battles'],
      ['Slot calls', '/calls'],
      ['Earn points', '/earn'],
    ]);
  });
});

describe('the economy pages in the real route table', () => {
  it('My activity in the user dropdown, the admin pages in the Admin dropdown', () => {
    expect(userMenu('User').map((r) => [r.path, r.name])).toContainEqual(['/activity', 'My activity']);
    expect(adminMenu('Admin').map((r) => r.path)).toEqual(
      expect.arrayContaining(['/admin/fulfilment', '/admin/products', '/admin/users', '/admin/audit']),
    );
  });
});

describe('Deal or No Deal in the real route table', () => {
  it('puts Create Deal Or No Deal in the Admin dropdown and the game and its verification outside the layout', () => {
    expect(adminMenu('Admin').map((r) => [r.path, r.name])).toContainEqual([
      '/createdealornodeal',
      'Create Deal Or No Deal',
    ]);
    const bare = routes.filter((r) => r.bare).map((r) => r.path);
    expect(bare).toEqual(expect.arrayContaining(['/game/dealornodeal/:id', '/game/dealornodeal/:id/verify']));
  });
});

describe('the bonus hunt in the real route table', () => {
  it('puts Run Bonus Hunt in the Admin dropdown', () => {
    expect(adminMenu('Moderator').map((r) => [r.path, r.name])).toContainEqual(['/admin/hunt', 'Run Bonus Hunt']);
  });
});

describe('signedIn', () => {
  it('lists every role', () => {
    expect([...signedIn].sort()).toEqual([...roles].sort());
  });
});

describe('the OBS overlays', () => {
  it('are not in the site’s route table: they have their own entry (overlay.html)', () => {
    for (const path of overlayPaths) expect(routes.some((r) => r.path.toLowerCase() === path)).toBe(false);
  });
});

describe('the Moderator in the real route table', () => {
  it('sees the pages that run games, giveaways, predictions, the hunt, slot calls, chat commands, Fulfilment, the chat simulator and moderation, and no other', () => {
    expect(adminMenu('Moderator').map((r) => r.name)).toEqual([
      'Create Split Or Steal',
      'Create Deal Or No Deal',
      'Giveaway',
      'Fulfilment',
      'Predictions',
      'Run Bonus Hunt',
      'Slot calls',
      'Commands',
      'Chat Simulator',
      'Moderation',
    ]);
  });

  it('keeps balances, products, roles, policies, settings and exclusions to admins', () => {
    const moderator = adminMenu('Moderator').map((r) => r.path);
    for (const path of [
      '/admin/users',
      '/admin/products',
      '/admin/daily-rewards',
      '/admin/integrations',
      '/admin/audit',
      '/admin/staff-prize-limits',
      '/admin/support-rewards',
      '/admin/fair-earning',
    ]) {
      expect(moderator).not.toContain(path);
      expect(adminMenu('Admin').map((r) => r.path)).toContain(path);
    }
  });

  it('opens the signed-in pages like any user', () => {
    expect(userMenu('Moderator').map((r) => r.path)).toContain('/activity');
  });
});

import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { roles } from '@kickback/common/http/auth';
import { overlayPaths } from '@kickback/common/overlays';
import { adminMenu, mainMenu, routes, signedIn, userMenu, type AppRoute } from './routes';

const page = lazy(async () => ({ default: () => null }));
const table: AppRoute[] = [
  { path: '/', page, name: 'Home' },
  { path: '/store', page, name: 'Store' },
  { path: '/hidden', page },
  { path: '/createsplitorsteal', page, name: 'Create Split Or Steal', roles: ['Moderator', 'Admin'] },
  { path: '/admin/products', page, name: 'Products', roles: ['Admin'] },
  { path: '/activity', page, name: 'My activity', roles: ['User', 'Admin'], menu: 'user' },
  { path: '/members', page, name: 'Members', roles: ['User', 'Admin'] },
];

describe('menus from the route table', () => {
  it('lists named public routes in the main menu, never unnamed or admin-only ones', () => {
    expect(mainMenu('User', table).map((r) => r.path)).toEqual(['/', '/store', '/members']);
  });

  it('shows role-based entries to visitors (they are told to sign in) and to permitted roles', () => {
    expect(mainMenu(null, table).map((r) => r.path)).toContain('/members');
  });

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

describe('the economy pages in the real route table', () => {
  it('Store in the main menu, My activity in the user dropdown, the admin pages in the Admin dropdown', () => {
    expect(mainMenu(null).map((r) => r.name)).toContain('Store');
    expect(userMenu('User').map((r) => [r.path, r.name])).toContainEqual(['/activity', 'My activity']);
    expect(mainMenu('User').map((r) => r.name)).not.toContain('My activity');
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
  it('puts Run Bonus Hunt in the Admin dropdown and Bonus Hunt in the main menu', () => {
    expect(adminMenu('Moderator').map((r) => [r.path, r.name])).toContainEqual(['/admin/hunt', 'Run Bonus Hunt']);
    expect(mainMenu(null).map((r) => [r.path, r.name])).toContainEqual(['/hunt', 'Bonus Hunt']);
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
  it('sees the pages that run games, giveaways, predictions, the hunt, slot calls, Fulfilment and the chat simulator, and no other', () => {
    expect(adminMenu('Moderator').map((r) => r.name)).toEqual([
      'Create Split Or Steal',
      'Create Deal Or No Deal',
      'Giveaway',
      'Fulfilment',
      'Predictions',
      'Run Bonus Hunt',
      'Slot calls',
      'Chat Simulator',
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
    ]) {
      expect(moderator).not.toContain(path);
      expect(adminMenu('Admin').map((r) => r.path)).toContain(path);
    }
  });

  it('opens the signed-in pages like any user', () => {
    expect(userMenu('Moderator').map((r) => r.path)).toContain('/activity');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await t.signIn();
});
afterAll(async () => {
  await t.close();
});

/** Every /api route Fastify registered (HEAD twins of GET routes left out). */
const apiRoutes = () => t.app.routeTable.filter((r) => r.url.toLowerCase().startsWith('/api/') && r.method !== 'HEAD');

/**
 * Who may call what: every /api route with the access its definition declares (the guards as they
 * were before the definitions moved to packages/common). A change here is a change of who may call.
 */
const expectedAccess: Record<string, 'visitor' | 'user' | 'admin'> = {
  'GET /api/admin/chat/messages': 'admin',
  'POST /api/admin/chat/simulate': 'admin',
  'POST /api/admin/chat/live': 'admin',
  'GET /api/site': 'visitor',
  'GET /api/User/ping': 'user',
  'GET /api/user/search': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/LeaderBoard/now': 'visitor',
  'GET /api/LeaderBoard/previous': 'visitor',
  'GET /api/LeaderBoard/royale/now': 'visitor',
  'GET /api/LeaderBoard/csgobig/now': 'visitor',
  'GET /api/LeaderBoard/howl/now': 'visitor',
  'GET /api/LeaderBoard/rustmagic/now': 'visitor',
  'GET /api/LeaderBoard/roobet/now': 'visitor',
  'GET /api/LeaderBoard/cases/now': 'visitor',
  'GET /api/LeaderBoard/sites': 'visitor',
  'GET /api/admin/leaderboards': 'admin',
  'PUT /api/admin/leaderboards/:site': 'admin',
  'POST /api/admin/leaderboards/:site/refresh': 'admin',
  'POST /api/SplitOrStealGame/create': 'admin',
  'GET /api/SplitOrStealGame/recent': 'admin',
  'POST /api/SplitOrStealGame/:gameId/cancel': 'admin',
  'POST /api/DealOrNoDeal/create': 'admin',
  'GET /api/DealOrNoDeal/recent': 'admin',
  'POST /api/DealOrNoDeal/:gameId/cancel': 'admin',
  'GET /api/DealOrNoDeal/:gameId/verification': 'visitor',
  'GET /api/predictions': 'admin',
  'POST /api/predictions': 'admin',
  'POST /api/predictions/:predictionId/lock': 'admin',
  'POST /api/predictions/:predictionId/cancel': 'admin',
  'POST /api/predictions/:predictionId/hide': 'admin',
  'POST /api/predictions/:predictionId/resolve': 'admin',
  'GET /api/giveaway/rolls/:rollId': 'visitor',
  'GET /api/Challenge/getuserchallenges': 'visitor',
  'GET /api/Challenge/getall': 'admin',
  'POST /api/Challenge/create': 'admin',
  'POST /api/Challenge/update': 'admin',
  'GET /api/DailyReward/GetMontlyRewardsRoobet': 'visitor',
  'POST /api/DailyReward/:action': 'user',
  'GET /api/admin/daily-rewards/policies': 'admin',
  'PUT /api/admin/daily-rewards/policies/:type': 'admin',
  'POST /api/User/ids': 'user',
  'GET /api/User/link/kick': 'user',
  'GET /api/User/unlink': 'user',
  'POST /api/User/preferences': 'user',
  'POST /api/Discord/sendmessage': 'admin',
  'GET /api/Discord/broadcasts/:id': 'admin',
  'GET /api/Discord/broadcasts': 'admin',
  'GET /api/Discord/bot': 'admin',
  'GET /api/Product/GetProducts': 'visitor',
  'POST /api/Order/OrderProduct': 'user',
  'GET /api/admin/products': 'admin',
  'POST /api/admin/products': 'admin',
  'PUT /api/admin/products/:id': 'admin',
  'POST /api/admin/products/:id/active': 'admin',
  'GET /api/admin/fulfilment': 'admin',
  'POST /api/admin/fulfilment/:id/deliver': 'admin',
  'POST /api/admin/fulfilment/:id/reject': 'admin',
  'GET /api/User/partner-links': 'user',
  'POST /api/User/partner-links/code': 'user',
  'POST /api/User/partner-links/dispute': 'user',
  'GET /api/admin/partner-links': 'admin',
  'POST /api/admin/partner-links/:id/approve': 'admin',
  'POST /api/admin/partner-links/:id/reject': 'admin',
  'POST /api/admin/partner-links/approve': 'admin',
  'POST /api/admin/partner-links/approve-existing': 'admin',
  'POST /api/admin/partner-disputes/:id/award': 'admin',
  'POST /api/admin/partner-disputes/:id/dismiss': 'admin',
  'POST /api/admin/users/:id/settle-debt': 'admin',
  'GET /api/me/activity': 'user',
  'GET /api/me/orders': 'user',
  'GET /api/me/payouts': 'user',
  'GET /api/me/predictions': 'user',
  'GET /api/admin/users': 'admin',
  'POST /api/admin/users/:id/balance': 'admin',
  'POST /api/admin/users/:id/role': 'admin',
  'POST /api/admin/users/:id/excluded': 'admin',
  'POST /api/admin/integrations/kick-bot/connect': 'admin',
  'DELETE /api/admin/integrations/kick-bot': 'admin',
  'GET /api/admin/integrations': 'admin',
};

describe('every /api route is defined once in packages/common', () => {
  it('has the expected route table: each route with its access level', () => {
    const table = Object.fromEntries(apiRoutes().map((r) => [`${r.method} ${r.url}`, r.config?.endpoint?.access]));
    expect(table).toEqual(expectedAccess);
  });

  it('registers each /api route from its endpoint definition, with its method, path and access', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const undefinedRoutes = routes.filter((r) => !r.config?.endpoint).map((r) => `${r.method} ${r.url}`);
    expect(undefinedRoutes).toEqual([]);
    for (const r of routes) {
      const endpoint = r.config?.endpoint;
      if (!endpoint) continue;
      expect(`${r.method} ${r.url}`).toBe(`${endpoint.method} ${endpoint.path}`);
      const access = { visitor: 'public', user: 'user', admin: 'admin' }[endpoint.access];
      expect(r.config?.access, `${r.method} ${r.url}`).toBe(access);
    }
  });

  it('registers no endpoint twice', () => {
    const keys = apiRoutes().map((r) => `${r.method} ${r.url.toLowerCase()}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("enforces each endpoint's declared access: 401 without sign-in, 403 for a User on admin routes", async () => {
    const checked: string[] = [];
    for (const r of apiRoutes()) {
      const endpoint = r.config?.endpoint;
      if (!endpoint) continue;
      // Any value fills a path parameter: access is checked before the input is validated.
      const url = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '1');
      const method = endpoint.method;
      const anonymous = await t.call({ method, url, ...(method === 'GET' ? {} : { body: {} }) });
      const asUser = await t.call({ method, url, as: user, ...(method === 'GET' ? {} : { body: {} }) });
      const seen = `${method} ${endpoint.path} ${endpoint.access}: ${anonymous.statusCode}/${asUser.statusCode}`;
      if (endpoint.access === 'visitor') {
        expect([401, 403], seen).not.toContain(anonymous.statusCode);
      } else {
        expect(anonymous.statusCode, seen).toBe(401);
        if (endpoint.access === 'admin') expect(asUser.statusCode, seen).toBe(403);
        else expect(asUser.statusCode, seen).not.toBe(403);
      }
      checked.push(seen);
    }
    expect(checked.length).toBeGreaterThan(0);
  });
});

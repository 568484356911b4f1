import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '@kickback/common/access';
import { buildTestApp, type TestApp } from '../../test/app';
import { accessOf } from './endpoints';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every /api route Fastify registered (HEAD twins of GET routes left out). */
const apiRoutes = () => t.app.routeTable.filter((r) => r.url.toLowerCase().startsWith('/api/') && r.method !== 'HEAD');

/**
 * Who may call what: every /api route with the access its definition declares (the guards as they
 * were before the definitions moved to packages/common, and the Moderator's share of them: games,
 * predictions, the chat simulator, Fulfilment without rejecting). A change here is a change of who
 * may call; authorisation-matrix.test.ts calls each route at each level.
 */
const expectedAccess: Record<string, AccessLevel> = {
  'GET /api/admin/chat/messages': 'moderator',
  'POST /api/admin/chat/simulate': 'moderator',
  'POST /api/admin/chat/simulate-event': 'moderator',
  'GET /api/admin/chat/live': 'moderator',
  'POST /api/admin/chat/live': 'moderator',
  'GET /api/site': 'visitor',
  'PUT /api/admin/site/age-gate': 'admin',
  'PUT /api/admin/site/branding': 'admin',
  'PUT /api/admin/site/menu': 'admin',
  'GET /api/admin/site/languages': 'admin',
  'PUT /api/admin/site/languages': 'admin',
  'GET /api/admin/translations': 'admin',
  'PUT /api/me/language': 'user',
  'GET /api/earn': 'visitor',
  'POST /api/User/age-confirmation': 'user',
  'GET /api/User/ping': 'user',
  'GET /api/user/search': 'moderator',
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
  'POST /api/SplitOrStealGame/create': 'moderator',
  'GET /api/SplitOrStealGame/recent': 'moderator',
  'POST /api/SplitOrStealGame/:gameId/cancel': 'moderator',
  'POST /api/DealOrNoDeal/create': 'moderator',
  'GET /api/DealOrNoDeal/recent': 'moderator',
  'POST /api/DealOrNoDeal/:gameId/cancel': 'moderator',
  'GET /api/DealOrNoDeal/:gameId/verification': 'visitor',
  'GET /api/predictions': 'moderator',
  'POST /api/predictions': 'moderator',
  'POST /api/predictions/:predictionId/lock': 'moderator',
  'POST /api/predictions/:predictionId/cancel': 'moderator',
  'POST /api/predictions/:predictionId/hide': 'moderator',
  'POST /api/predictions/:predictionId/resolve': 'moderator',
  'GET /api/giveaway/rolls/:rollId': 'visitor',
  'GET /api/raffles': 'visitor',
  'GET /api/raffles/:id': 'visitor',
  'POST /api/raffles/:id/tickets': 'user',
  'GET /api/raffles/:id/draw': 'visitor',
  'GET /api/me/raffle-tickets': 'user',
  'GET /api/admin/raffles': 'admin',
  'POST /api/admin/raffles': 'admin',
  'PUT /api/admin/raffles/:id': 'admin',
  'POST /api/admin/raffles/:id/open': 'admin',
  'POST /api/admin/raffles/:id/close': 'admin',
  'POST /api/admin/raffles/:id/cancel': 'admin',
  'POST /api/admin/raffles/:id/draw': 'admin',
  'GET /api/battles': 'visitor',
  'GET /api/battles/current': 'visitor',
  'POST /api/battles/:id/enter': 'user',
  'PUT /api/battles/:id/slot': 'user',
  'GET /api/battles/:id/draw': 'visitor',
  'GET /api/admin/battles': 'admin',
  'POST /api/admin/battles': 'admin',
  'POST /api/admin/battles/:id/close': 'admin',
  'POST /api/admin/battles/:id/draw': 'admin',
  'POST /api/admin/battles/:id/cancel': 'admin',
  'PUT /api/admin/battles/:id/slot': 'admin',
  'POST /api/admin/battles/:id/matches/:no/result': 'admin',
  'POST /api/admin/battles/:id/matches/:no/replay': 'admin',
  'POST /api/admin/battles/:id/matches/:no/void': 'admin',
  'GET /api/community-goals': 'visitor',
  'GET /api/admin/community-goals': 'admin',
  'PUT /api/admin/community-goals/:site': 'admin',
  'GET /api/me/streak': 'user',
  'GET /api/admin/stream-streaks/bonuses': 'admin',
  'PUT /api/admin/stream-streaks/bonuses': 'admin',
  'GET /api/slot-calls': 'visitor',
  'GET /api/slot-calls/picks/:id': 'visitor',
  'PUT /api/admin/slot-calls/rules': 'admin',
  'POST /api/admin/slot-calls/open': 'moderator',
  'POST /api/admin/slot-calls/close': 'moderator',
  'POST /api/admin/slot-calls/clear': 'moderator',
  'POST /api/admin/slot-calls/pick': 'moderator',
  'POST /api/admin/slot-calls/:id/resolve': 'moderator',
  'POST /api/admin/slot-calls/:id/hunt': 'moderator',
  'GET /api/admin/slot-calls/catalogue': 'moderator',
  'POST /api/admin/slot-calls/catalogue': 'admin',
  'GET /api/admin/commands': 'moderator',
  'POST /api/admin/commands': 'moderator',
  'PUT /api/admin/commands/:id': 'moderator',
  'DELETE /api/admin/commands/:id': 'moderator',
  'POST /api/admin/commands/preview': 'moderator',
  'PUT /api/admin/commands/builtins/:name': 'moderator',
  'POST /api/admin/commands/timers': 'moderator',
  'PUT /api/admin/commands/timers/:id': 'moderator',
  'DELETE /api/admin/commands/timers/:id': 'moderator',
  'GET /api/hunts': 'visitor',
  'POST /api/admin/hunts': 'moderator',
  'POST /api/admin/hunts/:huntId/bonuses': 'moderator',
  'POST /api/admin/hunts/:huntId/bonuses/:bonusId/open': 'moderator',
  'POST /api/admin/hunts/:huntId/close-guessing': 'moderator',
  'POST /api/admin/hunts/:huntId/finish': 'moderator',
  'GET /api/Challenge/getuserchallenges': 'visitor',
  'GET /api/Challenge/getall': 'admin',
  'POST /api/Challenge/create': 'admin',
  'POST /api/Challenge/update': 'admin',
  'GET /api/DailyReward/GetMontlyRewardsRoobet': 'visitor',
  'GET /api/DailyReward/RoobetToday': 'visitor',
  'POST /api/DailyReward/:action': 'user',
  'GET /api/admin/daily-rewards/policies': 'admin',
  'GET /api/admin/demo-data': 'admin',
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
  'GET /api/admin/products/:id/codes': 'admin',
  'POST /api/admin/products/:id/codes': 'admin',
  'POST /api/store/products/:id/restock-alert': 'user',
  'GET /api/notifications': 'user',
  'POST /api/notifications/read': 'user',
  'POST /api/admin/images': 'admin',
  'GET /api/images/:name': 'visitor',
  'GET /api/admin/fulfilment': 'moderator',
  'POST /api/admin/fulfilment/:id/deliver': 'moderator',
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
  'DELETE /api/admin/users/:id/kick-ban': 'admin',
  'POST /api/admin/integrations/kick-bot/connect': 'admin',
  'DELETE /api/admin/integrations/kick-bot': 'admin',
  'PUT /api/admin/integrations/kick-chat/mode': 'admin',
  'POST /api/admin/integrations/kick-bot-account/connect': 'admin',
  'DELETE /api/admin/integrations/kick-bot-account': 'admin',
  'GET /api/admin/integrations': 'admin',
  'GET /api/admin/go-live': 'admin',
  'GET /api/admin/discord-roles': 'admin',
  'PUT /api/admin/discord-roles': 'admin',
  'POST /api/admin/discord-roles/check': 'admin',
  'POST /api/admin/discord-roles/reconcile': 'admin',
  'POST /api/admin/demo-data/remove': 'admin',
  'GET /api/admin/settings/integrations': 'admin',
  'PUT /api/admin/settings/integrations': 'admin',
  'POST /api/admin/go-live/test-message': 'admin',
  'POST /api/admin/go-live/test-dm': 'admin',
  'GET /api/admin/staff-prize-limits': 'admin',
  'PUT /api/admin/staff-prize-limits': 'admin',
  'GET /api/milestones': 'visitor',
  'POST /api/milestones/:site/claim': 'user',
  'GET /api/admin/milestones': 'admin',
  'PUT /api/admin/milestones/:site': 'admin',
  'GET /api/admin/milestones/:site/stats': 'admin',
  'GET /api/admin/moderation': 'moderator',
  'PUT /api/admin/moderation': 'moderator',
  'GET /api/admin/moderation/log': 'moderator',
  'GET /api/admin/fair-earning': 'admin',
  'PUT /api/admin/fair-earning': 'admin',
  'GET /api/admin/fair-earning/alts': 'admin',
  'GET /api/admin/fair-earning/refusals': 'admin',
  'GET /api/admin/support-rewards/settings': 'admin',
  'PUT /api/admin/support-rewards/settings': 'admin',
  'GET /api/admin/support-rewards': 'admin',
  'GET /api/admin/support-rewards/held': 'admin',
  'POST /api/admin/support-rewards/:id/reverse': 'admin',
  'POST /api/admin/support-rewards/grant': 'admin',
  'POST /api/admin/support-rewards/simulate': 'admin',
  'GET /api/admin/channel-rewards': 'admin',
  'POST /api/admin/channel-rewards': 'admin',
  'DELETE /api/admin/channel-rewards/:id': 'admin',
  'GET /api/live/now': 'visitor',
  'POST /api/setup/claim': 'user',
  'POST /api/setup/check': 'visitor',
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
      const access = accessOf[endpoint.access];
      expect(r.config?.access, `${r.method} ${r.url}`).toBe(access);
    }
  });

  it('registers no endpoint twice', () => {
    const keys = apiRoutes().map((r) => `${r.method} ${r.url.toLowerCase()}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

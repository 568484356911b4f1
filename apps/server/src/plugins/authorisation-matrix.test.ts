/**
 * The authorisation matrix, built from what the app declares rather than from a hand list: every
 * /api route Fastify registered (its endpoint definition's access) and every call of every hub
 * defined in packages/common/src/hubs (each call's access), each made as a visitor, a User, a
 * Moderator and an Admin. A caller the access refuses gets 401 (not signed in) or 403 (no role);
 * one it allows gets anything else (a 400 or 404 for the empty input is fine: it got past the
 * guard). A route or a hub call that declares no access fails here, as does a hub the server
 * registers that no definition describes.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLevels, refusalStatus, type AccessLevel } from '@kickback/common/access';
import type { Role } from '@kickback/common/http/auth';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import type { HubSpec } from '@kickback/common/hubs/hub';
import { messages } from '@kickback/common/messages';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { WARM_UP_TIMEOUT, warmUp } from '../../test/warm';

const hubsDir = fileURLToPath(new URL('../../../../packages/common/src/hubs', import.meta.url));

/** Every hub definition exported from packages/common/src/hubs. */
async function definedHubs(): Promise<HubSpec[]> {
  const hubs: HubSpec[] = [];
  for (const file of readdirSync(hubsDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const exported = (await import(pathToFileURL(path.join(hubsDir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (value && typeof value === 'object' && 'namespace' in value && 'calls' in value) hubs.push(value as HubSpec);
    }
  }
  return hubs;
}

let t: TestApp;
let url: string;
let hubs: HubSpec[];
const callers: Array<{ role: Role | null; as: TestUser | null }> = [];
/** Handshake queries of the hubs that need one (a live public game to point at). */
const queries = new Map<string, Record<string, string>>();

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp({ clock: new WallClock() });
  url = await listen(t.app);
  hubs = await definedHubs();
  const user = await t.signIn({ name: 'Matrix User' });
  const moderator = await t.signIn({ role: 'Moderator', name: 'Matrix Moderator' });
  const admin = await t.signIn({ role: 'Admin', name: 'Matrix Admin' });
  callers.push(
    { role: null, as: null },
    { role: 'User', as: user },
    { role: 'Moderator', as: moderator },
    { role: 'Admin', as: admin },
  );

  const splitOrSteal = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    body: { reward: 1, counterInSeconds: 60, isPrivate: false },
  });
  expect(splitOrSteal.statusCode, splitOrSteal.body).toBe(200);
  queries.set('/SplitOrSteal', { gameid: splitOrSteal.json().gameId as string });
  const dealOrNoDeal = await t.call({
    method: 'POST',
    url: '/api/DealOrNoDeal/create',
    as: admin,
    body: { playerUserId: user.user.id, reward: 0, isPrivate: false, Amounts: [...DEFAULT_AMOUNTS] },
  });
  expect(dealOrNoDeal.statusCode, dealOrNoDeal.body).toBe(200);
  queries.set('/DealOrNoDeal', { gameid: dealOrNoDeal.json().gameId as string });
  const battle = await t.call({
    method: 'POST',
    url: '/api/admin/battles',
    as: admin,
    body: { title: 'Matrix battle', size: 4, registrationMinutes: 30, prize: { kind: 'points', points: 1 } },
  });
  expect(battle.statusCode, battle.body).toBe(200);
  queries.set('/Battle', { gameid: battle.json().id as string });
});

afterAll(async () => {
  await t?.close();
});

const who = (role: Role | null) => role ?? 'visitor';

describe('every /api route, as visitor, User, Moderator and Admin', () => {
  const apiRoutes = () =>
    t.app.routeTable.filter((r) => r.url.toLowerCase().startsWith('/api/') && r.method !== 'HEAD');

  it('declares its access', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const undeclared = routes
      .filter((r) => !accessLevels.includes(r.config?.endpoint?.access as AccessLevel))
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without a declared access level').toEqual([]);
  });

  it('keeps the staff prize limits to Admins (a Moderator must not raise the cap on their own prizes)', () => {
    const limits = apiRoutes()
      .filter((r) => r.url.toLowerCase() === '/api/admin/staff-prize-limits')
      .map((r) => `${r.method} ${r.config?.endpoint?.access}`);
    expect(limits.sort()).toEqual(['GET admin', 'PUT admin']);
  });

  it('answers 401/403 exactly where its access refuses the caller', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of apiRoutes()) {
      const endpoint = r.config!.endpoint!;
      // Any value fills a path parameter: access is checked before the input is validated.
      const target = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '1');
      for (const { role, as } of callers) {
        const res = await t.call({
          method: endpoint.method,
          url: target,
          as,
          ...(endpoint.method === 'GET' ? {} : { body: {} }),
        });
        const expected = refusalStatus(endpoint.access, role);
        const ok = expected === null ? ![401, 403].includes(res.statusCode) : res.statusCode === expected;
        if (!ok || res.statusCode >= 500) {
          wrong.push(
            `${endpoint.method} ${endpoint.path} (${endpoint.access}) as ${who(role)}: ${res.statusCode}, expected ${expected ?? 'allowed'}`,
          );
        }
        checked += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(apiRoutes().length * 4);
  });
});

describe('every hub call in packages/common/src/hubs, as visitor, User, Moderator and Admin', () => {
  it('finds the hubs the server registers, and no registered hub without a definition', () => {
    const registered = [...(t.app.realtime.io as unknown as { _nsps: Map<string, unknown> })._nsps.keys()].filter(
      (n) => n !== '/',
    );
    expect(hubs.length).toBeGreaterThanOrEqual(5);
    expect(registered.sort()).toEqual(hubs.map((h) => h.namespace).sort());
  });

  it('declares the access of every call', () => {
    const undeclared = hubs.flatMap((hub) =>
      Object.entries(hub.calls)
        .filter(([, spec]) => !accessLevels.includes(spec.access))
        .map(([name]) => `${hub.namespace} ${name}`),
    );
    expect(undeclared, 'hub calls without a declared access level').toEqual([]);
  });

  it('refuses a call (sign-in required / forbidden) exactly where its access refuses the caller', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const hub of hubs) {
      const query = hub.query.safeParse({}).success ? {} : queries.get(hub.namespace);
      expect(query, `${hub.namespace} needs a handshake query: add one to this test's beforeAll`).toBeDefined();
      for (const { role, as } of callers) {
        const client = new HubClient(url, hub, { query: query!, ...(as ? { cookie: as.cookie } : {}) });
        try {
          await client.connected();
          for (const [name, spec] of Object.entries(hub.calls)) {
            const result = await client.call(name);
            const error = result.ok ? null : result.error;
            const refused = error === messages.signInRequired ? 401 : error === messages.forbidden ? 403 : null;
            const expected = refusalStatus(spec.access, role);
            if (refused !== expected || error === messages.systemError) {
              wrong.push(
                `${hub.namespace} ${name} (${spec.access}) as ${who(role)}: ${error ?? 'ok'}, expected ${expected ?? 'allowed'}`,
              );
            }
            checked += 1;
          }
        } finally {
          client.close();
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(hubs.reduce((n, h) => n + Object.keys(h.calls).length, 0) * 4);
  });
});

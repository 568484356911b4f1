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

describe('every /api route is defined once in packages/common', () => {
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

/**
 * Running a bonus hunt through the real app: REST changes by a runner, validation, who may call
 * (REST and the hub), live state on `/BonusHunt` after commit, and a restart on the same database.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bonusHuntHub, type HuntView } from '@kickback/common/hubs/hunt';
import type { HuntList } from '@kickback/common/http/hunt';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import { HubClient, listen, WallClock } from '../../../test/hub-client';

let t: TestApp;
let url: string;
let admin: TestUser;
let user: TestUser;
const clients: HubClient[] = [];

beforeAll(async () => {
  t = await buildTestApp({ clock: new WallClock() });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  user = await t.signIn({ name: 'Viewer' });
});
beforeEach(async () => {
  // Each test starts without a running hunt.
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(who: TestUser | null): Promise<HubClient> {
  const c = new HubClient(url, bonusHuntHub, { query: {}, ...(who ? { cookie: who.cookie } : {}) });
  clients.push(c);
  return c.connected();
}

async function post<T = HuntView>(path: string, body: unknown = {}, as: TestUser | null = admin) {
  const res = await t.call({ method: 'POST', url: path, as, body });
  return { status: res.statusCode, body: res.json<T & { message?: string }>() };
}

async function startHunt(body: Record<string, unknown> = {}): Promise<HuntView> {
  const res = await post('/api/admin/hunts', { name: 'Friday hunt', startCost: 1000, guessPrize: 500, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const addBonus = (huntId: string, body: Record<string, unknown>) =>
  post(`/api/admin/hunts/${huntId}/bonuses`, { slot: 'Gates of Olympus', provider: 'Pragmatic', ...body });
const openBonus = (huntId: string, bonusId: string, payout: number) =>
  post(`/api/admin/hunts/${huntId}/bonuses/${bonusId}/open`, { payout });

describe('running a hunt', () => {
  it('computes the figures exactly to the cent as bonuses are added and opened', async () => {
    const hunt = await startHunt({ startCost: 1000.1 });
    await addBonus(hunt.id, { bet: 2.4 });
    await addBonus(hunt.id, { bet: 1, slot: 'Wanted', provider: 'Hacksaw', cost: 0.2 });
    let view = (await addBonus(hunt.id, { bet: 0.3, slot: 'Sugar Rush' })).body;
    expect(view.totalCost).toBe(1000.3);
    expect(view.breakEven).toBe(270.36); // 1000.30 / 3.70 = 270.3513… rounded up
    expect(view.currentBonusId).toBe(view.bonuses[0]!.id);

    view = (await openBonus(hunt.id, view.bonuses[0]!.id, 100.1)).body;
    expect(view.bonuses[0]!.multiplier).toBe(41.71); // 100.10 / 2.40 = 41.7083…
    expect(view.currentBonusId).toBe(view.bonuses[1]!.id);
    view = (await openBonus(hunt.id, view.bonuses[1]!.id, 0)).body;
    view = (await openBonus(hunt.id, view.bonuses[2]!.id, 30.03)).body;
    expect(view).toMatchObject({
      won: 130.13,
      profit: -870.17,
      openedCount: 3,
      breakEven: null,
      best: 100.1,
      worst: 0,
      average: 35.17, // 130.13 / 3.70 = 35.1702…
      currentBonusId: null,
    });
    const finished = await post(`/api/admin/hunts/${hunt.id}/finish`);
    expect(finished.status).toBe(200);
    expect(finished.body.status).toBe('finished');
    const list = (await t.call({ url: '/api/hunts' })).json<HuntList>();
    expect(list.current).toBeNull();
    expect(list.past[0]!.id).toBe(hunt.id);
    expect(list.past[0]!.bonuses.map((b) => b.slot)).toEqual(['Gates of Olympus', 'Wanted', 'Sugar Rush']);
  });

  it('refuses bad input with a clear 400 and changes nothing; unknown ids 404; conflicts 409', async () => {
    const hunt = await startHunt();
    for (const [body, message] of [
      [{ bet: 0 }, 'The bet must be above 0.'],
      [{ bet: 1.001 }, 'The bet has at most 2 decimals.'],
      [{ bet: 1, slot: '  ' }, 'The slot is required.'],
      [{ bet: -1 }, 'The bet must be above 0.'],
    ] as const) {
      const res = await addBonus(hunt.id, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await post('/api/admin/hunts', { name: '', startCost: 1, guessPrize: 0 })).status).toBe(400);
    const view = (await addBonus(hunt.id, { bet: 1 })).body;
    expect(view.bonuses).toHaveLength(1);
    expect((await openBonus(hunt.id, view.bonuses[0]!.id, -5)).status).toBe(400);
    expect((await openBonus(hunt.id, '999999', 5)).status).toBe(404);
    expect((await post(`/api/admin/hunts/${crypto.randomUUID()}/finish`)).status).toBe(404);
    expect((await post(`/api/admin/hunts/${hunt.id}/finish`)).body.message).toBe(
      'Open every bonus before finishing the hunt.',
    );
    expect((await openBonus(hunt.id, view.bonuses[0]!.id, 5)).status).toBe(200);
    expect((await openBonus(hunt.id, view.bonuses[0]!.id, 6)).status).toBe(409);
    const second = await post('/api/admin/hunts', { name: 'Another', startCost: 1, guessPrize: 0 });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('A hunt is already running: finish it first.');
  });
});

describe('who may run a hunt', () => {
  it('visitors get 401 and users 403 on every runner route and on GetGuesses; everyone may watch', async () => {
    const hunt = await startHunt();
    const view = (await addBonus(hunt.id, { bet: 1 })).body;
    const routes = [
      ['/api/admin/hunts', { name: 'x', startCost: 1, guessPrize: 0 }],
      [`/api/admin/hunts/${hunt.id}/bonuses`, { slot: 'x', bet: 1 }],
      [`/api/admin/hunts/${hunt.id}/bonuses/${view.bonuses[0]!.id}/open`, { payout: 1 }],
      [`/api/admin/hunts/${hunt.id}/close-guessing`, {}],
      [`/api/admin/hunts/${hunt.id}/finish`, {}],
    ] as const;
    for (const [path, body] of routes) {
      expect((await post(path, body, null)).status, path).toBe(401);
      expect((await post(path, body, user)).status, path).toBe(403);
    }
    expect((await t.call({ url: '/api/hunts' })).statusCode).toBe(200);
    const visitor = await connect(null);
    const viewer = await connect(user);
    expect(await visitor.call('GetGuesses')).toEqual({ ok: false, error: 'Sign in required.' });
    expect(await viewer.call('GetGuesses')).toEqual({ ok: false, error: 'You do not have permission to do that.' });
    expect((await visitor.ok<HuntView>('GetState')).id).toBe(hunt.id);
    expect(await (await connect(admin)).ok('GetGuesses')).toEqual([]);
    // Nothing changed.
    expect((await visitor.ok<HuntView>('GetState')).bonuses).toHaveLength(1);
  });
});

describe('live state', () => {
  it('every watcher gets the committed state of each change; a refused change sends nothing', async () => {
    const watcher = await connect(null);
    const hunt = await startHunt();
    await watcher.waitFor<HuntView>('ReceiveState', (s) => s.id === hunt.id);
    const added = (await addBonus(hunt.id, { bet: 2 })).body;
    const opened = (await openBonus(hunt.id, added.bonuses[0]!.id, 50)).body;
    const seen = await watcher.waitFor<HuntView>('ReceiveState', (s) => s.version === opened.version);
    expect(seen.bonuses[0]!.payout).toBe(50);
    expect(seen.won).toBe(50);
    const count = watcher.events('ReceiveState').length;
    expect((await openBonus(hunt.id, added.bonuses[0]!.id, 60)).status).toBe(409);
    await post(`/api/admin/hunts/${hunt.id}/finish`);
    const last = await watcher.waitFor<HuntView>('ReceiveState', (s) => s.status === 'finished');
    expect(watcher.events('ReceiveState').length).toBe(count + 1);
    expect(last.won).toBe(50);
  });
});

describe('a restart', () => {
  it('keeps the running hunt, its bonuses and its guessing state', async () => {
    const database = await openTestDatabase();
    const first = await buildTestApp({ database });
    const host = await first.signIn({ role: 'Admin' });
    const start = await first.call({
      method: 'POST',
      url: '/api/admin/hunts',
      as: host,
      body: { name: 'Survivor', startCost: 10, guessPrize: 0 },
    });
    const huntId = start.json<HuntView>().id;
    await first.call({
      method: 'POST',
      url: `/api/admin/hunts/${huntId}/bonuses`,
      as: host,
      body: { slot: 'A', bet: 1 },
    });
    await first.call({ method: 'POST', url: `/api/admin/hunts/${huntId}/close-guessing`, as: host, body: {} });
    const before = (await first.call({ url: '/api/hunts' })).json<HuntList>().current;
    await first.close();
    const second = await buildTestApp({ database });
    try {
      const after = (await second.call({ url: '/api/hunts' })).json<HuntList>().current;
      expect({ ...after, serverTime: '' }).toEqual({ ...before, serverTime: '' });
      expect(after?.guessing.hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await second.close();
      await database.drop();
    }
  });
});

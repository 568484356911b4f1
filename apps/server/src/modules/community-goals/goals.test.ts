/**
 * Community wager goals (docs/features/community-goal.md): the admin sets a site's goal; each poll
 * the leaderboard poller writes moves its progress (the sum of the period's standings), and the
 * first poll that reaches the target records it and announces it in Kick chat — once, also when two
 * writers measure it at once (PostgreSQL).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { ManualClock } from '../../lib/clock';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { FakePartners, partnerEnv } from '../../../test/fake-partners';
import { buildRaceApp, describeRace } from '../../../test/race-database';

let t: TestApp;
let partners: FakePartners;

const announcements = async () =>
  rowsOf<{ body: string }>(await t.database.db.execute(sql`SELECT body FROM chat_out WHERE kind = 'announce'`)).map(
    (r) => r.body,
  );

const save = (as: TestUser, site: number, body: Record<string, unknown>) =>
  t.call({ method: 'PUT', url: `/api/admin/community-goals/${site}`, as, body });

const goal = { title: '$1,000 wagered this week', target: 1000, reward: 'A $50 raffle opens!', active: true };

describe('community goal', () => {
  afterEach(async () => {
    await t?.close();
  });

  it('follows the poller and announces reaching the target once', async () => {
    partners = new FakePartners();
    t = await buildTestApp({
      env: partnerEnv,
      clock: new ManualClock('2026-03-04T12:00:00Z'),
      networkFetch: partners.fetch,
    });
    const admin = await t.signIn({ role: 'Admin', name: 'Goal Admin' });
    expect((await save(admin, 1, goal)).statusCode).toBe(200);

    // Clash reports gem cents.
    partners.clash([
      { id: 1, name: 'Alpha', wagered: 40000 },
      { id: 2, name: 'Beta', wagered: 20000 },
    ]);
    await t.app.leaderboards.runCycle(1);
    let state = (await t.call({ url: '/api/community-goals' })).json();
    expect(state.goals).toEqual([
      expect.objectContaining({ site: 1, siteName: 'Clash.gg', progress: 600, target: 1000, reachedAt: null }),
    ]);
    expect(await announcements()).toEqual([]);

    t.clock.advance(3 * 60_000);
    partners.clash([
      { id: 1, name: 'Alpha', wagered: 70000 },
      { id: 2, name: 'Beta', wagered: 35000 },
    ]);
    await t.app.leaderboards.runCycle(1);
    t.clock.advance(3 * 60_000);
    partners.clash([
      { id: 1, name: 'Alpha', wagered: 90000 },
      { id: 2, name: 'Beta', wagered: 35000 },
    ]);
    await t.app.leaderboards.runCycle(1);
    state = (await t.call({ url: '/api/community-goals' })).json();
    expect(state.goals[0]).toMatchObject({ progress: 1250, reachedAt: '2026-03-04T12:03:00.000Z' });
    expect(await announcements()).toEqual([
      'Community goal reached on Clash.gg: $1,000 wagered this week! A $50 raffle opens!',
    ]);

    // Editing the goal keeps the record of this period; an inactive goal is not shown.
    expect((await save(admin, 1, { ...goal, active: false })).json()[0]).toMatchObject({ active: false });
    expect((await t.call({ url: '/api/community-goals' })).json().goals).toEqual([]);
  });

  it('tells the hub after an admin switches a goal off', async () => {
    t = await buildTestApp({ env: partnerEnv, networkFetch: new FakePartners().fetch });
    const admin = await t.signIn({ role: 'Admin', name: 'Goal Admin' });
    const sent: Array<{ goals: unknown[] }> = [];
    const emit = t.app.realtime.emit.bind(t.app.realtime);
    t.app.realtime.emit = ((hub, room, event, payload) => {
      if (room === 'community-goal') sent.push(payload as { goals: unknown[] });
      return emit(hub, room, event, payload);
    }) as typeof t.app.realtime.emit;
    await t.app.leaderboards.runCycle(1);
    expect((await save(admin, 1, goal)).statusCode).toBe(200);
    await expect.poll(() => sent.at(-1)?.goals.length).toBe(1);
    expect((await save(admin, 1, { ...goal, active: false })).statusCode).toBe(200);
    await expect.poll(() => sent.at(-1)?.goals.length).toBe(0);
  });

  it('refuses bad input and anyone but an admin', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'Goal Admin' });
    const viewer = await t.signIn({ name: 'Viewer' });
    expect((await save(viewer, 1, goal)).statusCode).toBe(403);
    expect((await t.call({ url: '/api/admin/community-goals', as: viewer })).statusCode).toBe(403);
    const zero = await save(admin, 1, { ...goal, target: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('The target must be more than 0.');
    expect((await save(admin, 1, { ...goal, title: ' ' })).body).toContain('Give the goal a title.');
    const unknown = await save(admin, 99, goal);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('There is no such partner site.');
    expect((await t.call({ url: '/api/community-goals' })).statusCode).toBe(200);
  });
});

describeRace('a goal reached by two writers at once', () => {
  beforeAll(async () => {
    partners = new FakePartners();
    t = await buildRaceApp({
      env: partnerEnv,
      clock: new ManualClock('2026-03-05T12:00:00Z'),
      networkFetch: partners.fetch,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets reached_at once and announces once', async () => {
    const admin = await t.signIn({ role: 'Admin', name: 'Race Admin' });
    expect((await save(admin, 1, { ...goal, target: 5000 })).statusCode).toBe(200);
    partners.clash([{ id: 1, name: 'Whale', wagered: 600000 }]);
    await t.app.leaderboards.runCycle(1);
    // Forget the record, then measure again from several writers at once.
    await t.database.db.execute(sql`UPDATE community_goal_periods SET reached_at = NULL`);
    await t.database.db.execute(sql`DELETE FROM chat_out`);
    const [period] = rowsOf<{ id: string | number }>(
      await t.database.db.execute(sql`SELECT id FROM leaderboard_periods WHERE site = 1 AND status = 'open'`),
    );
    await Promise.all(Array.from({ length: 6 }, () => t.app.communityGoals.remeasure(1, Number(period!.id))));
    expect(await announcements()).toHaveLength(1);
  });
});

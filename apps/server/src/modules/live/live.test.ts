/**
 * `GET /api/live/now` through the real app: public, what is running and only that — public games
 * that have not ended (private ones never), the prediction while it takes bets or awaits its result,
 * an active giveaway key, the running hunt, and Kick's stream state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LiveNow } from '@kickback/common/http/live';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { ANSWERS, say } from '../../../test/predictions';
import { makeRaffle } from '../../../test/raffles';

let t: TestApp;
let admin: TestUser;
let player: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  player = await t.signIn({ name: 'Player1' });
  other = await t.signIn({ name: 'Player2' });
});
afterAll(async () => {
  await t.close();
});

async function liveNow(): Promise<LiveNow> {
  const res = await t.call({ url: '/api/live/now', as: null });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<LiveNow>();
}

async function post<T = Record<string, unknown>>(url: string, body: unknown = {}): Promise<T> {
  const res = await t.call({ method: 'POST', url, as: admin, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

describe('GET /api/live/now', () => {
  it('is public and honest when nothing runs', async () => {
    expect(await liveNow()).toEqual({
      streamLive: null,
      games: [],
      prediction: null,
      giveawayOpen: false,
      hunt: null,
      raffles: [],
      slotCalls: null,
    });
  });

  it('lists the public games that have not ended, newest first, never a private one', async () => {
    const sos = await post<{ gameId: string }>('/api/SplitOrStealGame/create', { reward: 100 });
    await post('/api/SplitOrStealGame/create', {
      reward: 50,
      isPrivate: true,
      player1UserId: player.user.id,
      player2UserId: other.user.id,
    });
    t.clock.advance(1_000);
    const dond = await post<{ gameId: string }>('/api/DealOrNoDeal/create', {
      playerUserId: player.user.id,
      Amounts: [...DEFAULT_AMOUNTS],
    });
    await post('/api/DealOrNoDeal/create', {
      playerUserId: player.user.id,
      isPrivate: true,
      Amounts: [...DEFAULT_AMOUNTS],
    });

    const { games } = await liveNow();
    expect(games).toEqual([
      {
        id: dond.gameId,
        kind: 'deal-or-no-deal',
        title: 'Deal or No Deal',
        players: ['Player1'],
        status: 'Waiting for the player',
        link: `/game/dealornodeal/${dond.gameId}`,
        createdAt: expect.any(String),
      },
      {
        id: sos.gameId,
        kind: 'split-or-steal',
        title: 'Split or Steal',
        players: [],
        status: 'Waiting for players',
        link: `/game/splitorsteal/${sos.gameId}`,
        createdAt: expect.any(String),
      },
    ]);

    // Ended games leave the list.
    await post(`/api/SplitOrStealGame/${sos.gameId}/cancel`);
    await post(`/api/DealOrNoDeal/${dond.gameId}/cancel`);
    expect((await liveNow()).games).toEqual([]);
  });

  it('shows the prediction while it takes bets and while it waits for its result, not after', async () => {
    const opened = await post<{ id: string }>('/api/predictions', { question: 'Who wins the duel?', answers: ANSWERS });
    expect((await liveNow()).prediction).toEqual({ question: 'Who wins the duel?', status: 'open' });
    await post(`/api/predictions/${opened.id}/lock`);
    expect((await liveNow()).prediction).toEqual({ question: 'Who wins the duel?', status: 'locked' });
    await post(`/api/predictions/${opened.id}/cancel`);
    expect((await liveNow()).prediction).toBeNull();
  });

  it('says a giveaway is open while a key is active', async () => {
    await t.database.db.execute(
      sql`INSERT INTO giveaway_keys (key_lower, key, is_active, created_at) VALUES ('!join', '!join', true, now())`,
    );
    expect((await liveNow()).giveawayOpen).toBe(true);
    await t.database.db.execute(sql`UPDATE giveaway_keys SET is_active = false`);
    expect((await liveNow()).giveawayOpen).toBe(false);
  });

  it('names the running hunt', async () => {
    const hunt = await post<{ id: string }>('/api/admin/hunts', {
      name: 'Friday hunt',
      startCost: 1000,
      guessPrize: 0,
    });
    expect((await liveNow()).hunt).toEqual({ id: hunt.id, name: 'Friday hunt', guessingOpen: true, link: '/hunt' });
    await post(`/api/admin/hunts/${hunt.id}/close-guessing`);
    expect((await liveNow()).hunt).toMatchObject({ guessingOpen: false });
  });

  it('lists the raffles selling tickets now, closing soonest first; a draft, a closed or a not-yet-open one is not', async () => {
    const now = t.clock.now().getTime();
    const later = await makeRaffle(t, admin, {
      title: 'Knife raffle',
      closesAt: new Date(now + 2 * 3600_000).toISOString(),
    });
    const sooner = await makeRaffle(t, admin, {
      title: 'Gloves raffle',
      closesAt: new Date(now + 3600_000).toISOString(),
    });
    await makeRaffle(t, admin, { title: 'Draft raffle' }, false);
    await makeRaffle(
      t,
      admin,
      {
        title: 'Tomorrow raffle',
        opensAt: new Date(now + 86_400_000).toISOString(),
        closesAt: new Date(now + 2 * 86_400_000).toISOString(),
      },
      true, // opened, but it sells tickets only from tomorrow
    );
    const closed = await makeRaffle(t, admin, { title: 'Closed raffle' });
    await post(`/api/admin/raffles/${closed}/close`);
    expect((await liveNow()).raffles).toEqual([
      {
        id: sooner,
        title: 'Gloves raffle',
        closesAt: new Date(now + 3600_000).toISOString(),
        link: `/raffles/${sooner}`,
      },
      {
        id: later,
        title: 'Knife raffle',
        closesAt: new Date(now + 2 * 3600_000).toISOString(),
        link: `/raffles/${later}`,
      },
    ]);
    await post(`/api/admin/raffles/${sooner}/cancel`);
    await post(`/api/admin/raffles/${later}/cancel`);
    expect((await liveNow()).raffles).toEqual([]);
  });

  it('says slot calls are open, with the queue’s length, only while they are', async () => {
    expect((await liveNow()).slotCalls).toBeNull();
    await post('/api/admin/slot-calls/open');
    expect((await liveNow()).slotCalls).toEqual({ queued: 0, link: '/calls' });
    const res = (await say(t, { kickId: '8800101', kickName: 'caller1' }, '!sr Gates of Olympus')).res;
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await liveNow()).slotCalls).toEqual({ queued: 1, link: '/calls' });
    await post('/api/admin/slot-calls/close');
    expect((await liveNow()).slotCalls).toBeNull();
  });

  it("follows Kick's word on the stream", async () => {
    await post('/api/admin/chat/live', { isLive: true });
    expect((await liveNow()).streamLive).toBe(true);
    await post('/api/admin/chat/live', { isLive: false });
    expect((await liveNow()).streamLive).toBe(false);
  });
});

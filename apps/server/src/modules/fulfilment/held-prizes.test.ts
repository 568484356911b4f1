/**
 * A game's result says a prize is held for an Admin's approval (staff prize limits) instead of
 * "+N points": Split or Steal's players (prizeHeld) and the hunt's guess winner (held), from the
 * pending `staff_prize` Fulfilment item; once approved, the result reads as paid.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { HuntList } from '@kickback/common/http/hunt';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { splitOrStealGames } from '../../db/schema/games';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { linkedChatter, say as sayOnKick } from '../../../test/predictions';
import { presentState } from '../split-or-steal/repository';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let mod: TestUser;
const clients: HubClient[] = [];
let seq = 0;

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  mod = await t.signIn({ role: 'Moderator', name: 'Mod' });
});
beforeEach(async () => {
  await t.database.db.execute(sql`DELETE FROM staff_prize_payouts`);
  await t.database.db.execute(sql`UPDATE staff_prize_limits SET per_event = 10000, per_day = 50000`);
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

const heldFor = (u: TestUser) =>
  t.database.db
    .select()
    .from(fulfilmentItems)
    .where(and(eq(fulfilmentItems.userId, u.user.id), eq(fulfilmentItems.kind, 'staff_prize')));
const approve = (id: number) =>
  t.call({ method: 'POST', url: `/api/admin/fulfilment/${id}/deliver`, as: admin, body: {} });

async function connect(gameId: string, who: TestUser): Promise<HubClient> {
  const client = new HubClient(url, splitOrStealHub, { query: { gameid: gameId }, cookie: who.cookie });
  clients.push(client);
  return client.connected();
}

async function passDeadline(state: SplitOrStealState): Promise<void> {
  clock.set(new Date(new Date(state.phaseEndsAt!).getTime() + 1));
  await t.app.timers.runDue();
}

async function splitOrStealBy(
  as: TestUser,
  reward: number,
): Promise<{ gameId: string; ended: SplitOrStealState; p1: TestUser }> {
  const created = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as,
    body: { counterInSeconds: 5, isPrivate: false, reward },
  });
  expect(created.statusCode, created.body).toBe(200);
  const gameId = created.json().gameId as string;
  const p1 = await t.signIn({ name: `Seat${++seq}` });
  const p2 = await t.signIn({ name: `Seat${++seq}` });
  const a = await connect(gameId, p1);
  const b = await connect(gameId, p2);
  await a.ok('JoinGame', 1);
  const starting = await b.ok<SplitOrStealState>('JoinGame', 2);
  await passDeadline(starting);
  const choosing = await a.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
  await passDeadline(choosing);
  const ended = await a.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
  return { gameId, ended, p1 };
}

const stateOf = async (gameId: string) => {
  const [row] = await t.database.db.select().from(splitOrStealGames).where(eq(splitOrStealGames.id, gameId));
  return presentState(t.database.db, row!);
};

describe('Split or Steal: a held prize is said to be held', () => {
  it('above the limit both players are told their share awaits approval; approved, it reads as paid', async () => {
    const { gameId, ended, p1 } = await splitOrStealBy(mod, 100_000);
    expect(ended.player1).toMatchObject({ winnings: 50_000, prizeHeld: true });
    expect(ended.player2).toMatchObject({ winnings: 50_000, prizeHeld: true });
    const [held] = await heldFor(p1);
    expect((await approve(held!.id)).statusCode).toBe(200);
    const after = await stateOf(gameId);
    expect(after.player1).toMatchObject({ winnings: 50_000, prizeHeld: false });
    expect(after.player2).toMatchObject({ prizeHeld: true });
  });

  it('within the limits the prize is paid, not held', async () => {
    const { ended } = await splitOrStealBy(mod, 100);
    expect(ended.player1).toMatchObject({ winnings: 50, prizeHeld: false });
  });
});

describe('bonus hunt: a held guess prize is said to be held', () => {
  it("a Moderator's prize above the limit: held, not paid; an Admin's: paid", async () => {
    const run = async (as: TestUser, guessPrize: number) => {
      const post = async (path: string, body: unknown = {}) => {
        const res = await t.call({ method: 'POST', url: path, as, body });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<HuntView>();
      };
      let view = await post('/api/admin/hunts', { name: `Held hunt ${++seq}`, startCost: 100, guessPrize });
      view = await post(`/api/admin/hunts/${view.id}/bonuses`, { slot: 'Slot', bet: 1 });
      const guesser = await linkedChatter(t, String(95_000 + ++seq));
      expect((await sayOnKick(t, guesser, '!guess 50')).res.statusCode).toBeLessThan(300);
      await post(`/api/admin/hunts/${view.id}/bonuses/${view.bonuses[0]!.id}/open`, { payout: 50 });
      await post(`/api/admin/hunts/${view.id}/finish`);
      const list = (await t.call({ url: '/api/hunts' })).json<HuntList>();
      return list.past.find((h) => h.id === view.id)!.guessing.winner;
    };
    expect(await run(mod, 20_000)).toMatchObject({ prize: 20_000, paid: false, held: true });
    expect(await run(admin, 20_000)).toMatchObject({ prize: 20_000, paid: true, held: false });
  });
});

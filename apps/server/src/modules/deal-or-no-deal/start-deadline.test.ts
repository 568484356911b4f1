/**
 * The start deadline (docs/features/deal-or-no-deal.md#statuses): a game whose player never presses
 * Start is cancelled START_WAIT_MINUTES after it was created — stored as a durable timer with the
 * game, so it holds across restarts — and leaves Live now; before then it waits as it did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_AMOUNTS, START_WAIT_MINUTES } from '@kickback/common/games/deal-or-no-deal';
import type { LiveNow } from '@kickback/common/http/live';
import { liveGames } from '../../db/schema/games';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
let player: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  player = await t.signIn({ name: 'Olive' });
});
afterAll(async () => {
  await t.close();
});

async function createGame(): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/DealOrNoDeal/create',
    as: admin,
    body: { playerUserId: player.user.id, isPrivate: false, reward: 0, Amounts: [...DEFAULT_AMOUNTS] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().gameId as string;
}

async function statusOf(gameId: string): Promise<number> {
  const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
  return (row!.state as { status: number }).status;
}

const listed = async (gameId: string) =>
  (await t.call({ url: '/api/live/now', as: null })).json<LiveNow>().games.some((g) => g.id === gameId);

describe('a Deal or No Deal game nobody starts', () => {
  it(`waits ${START_WAIT_MINUTES} minutes for its player, then is cancelled and leaves Live now`, async () => {
    const gameId = await createGame();
    t.clock.advance((START_WAIT_MINUTES - 1) * 60_000);
    await t.app.timers.runDue();
    expect(await statusOf(gameId)).toBe(1);
    expect(await listed(gameId)).toBe(true);

    t.clock.advance(60_000);
    expect(await t.app.timers.runDue()).toBe(1);
    expect(await statusOf(gameId)).toBe(7);
    expect(await listed(gameId)).toBe(false);
  });

  it('an admin’s cancel before then stays as it was: the deadline finds nothing to do', async () => {
    const gameId = await createGame();
    const res = await t.call({ method: 'POST', url: `/api/DealOrNoDeal/${gameId}/cancel`, as: admin });
    expect(res.statusCode, res.body).toBe(200);
    const [before] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
    t.clock.advance(START_WAIT_MINUTES * 60_000);
    await t.app.timers.runDue();
    const [after] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
    expect(after!.state).toEqual(before!.state);
  });
});

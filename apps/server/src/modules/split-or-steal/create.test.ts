/** `POST /api/SplitOrStealGame/create`: admin only, validated, audited; what the new game looks like. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { splitOrStealGames } from '../../db/schema/games';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  alice = await t.signIn({ name: 'Alice' });
  bob = await t.signIn({ name: 'Bob' });
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: '/api/SplitOrStealGame/create', as, body });

describe('POST /api/SplitOrStealGame/create', () => {
  it('creates a game with designated players and answers its id; the creation is audited', async () => {
    const res = await create({
      player1UserId: alice.user.id,
      player2UserId: bob.user.id,
      reward: 12.5,
      counterInSeconds: 20,
      isPrivate: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { gameId } = res.json();
    const [row] = await t.database.db.select().from(splitOrStealGames).where(eq(splitOrStealGames.id, gameId));
    expect(row).toMatchObject({
      status: 0,
      version: 1,
      reward: '12.50',
      counterSeconds: 20,
      isPrivate: true,
      designated1UserId: alice.user.id,
      designated2UserId: bob.user.id,
      player1UserId: null,
      createdBy: admin.user.id,
    });
    // Each player holds one Split ball and one Steal ball.
    expect([row!.player1Answer1, row!.player1Answer2].sort()).toEqual([1, 2]);
    expect([row!.player2Answer1, row!.player2Answer2].sort()).toEqual([1, 2]);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, gameId));
    expect(audit).toMatchObject({ action: 'splitorsteal.create', actorLabel: 'Host' });
    expect(audit!.after).toMatchObject({ reward: 12.5, isPrivate: true });
  });

  it('defaults Game Time to 10 seconds and the players to open seats', async () => {
    const res = await create({ reward: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(splitOrStealGames)
      .where(eq(splitOrStealGames.id, res.json().gameId));
    expect(row).toMatchObject({
      counterSeconds: 10,
      isPrivate: false,
      designated1UserId: null,
      designated2UserId: null,
    });
    const empty = await create({ reward: 1, player1UserId: '', player2UserId: null });
    expect(empty.statusCode).toBe(200);
  });

  it.each([
    [{ reward: 0 }, 'reward', 'Enter a reward of at least 0.01.'],
    [{ reward: -3 }, 'reward', 'Enter a reward of at least 0.01.'],
    [{ reward: 1.234 }, 'reward', 'Enter a reward with at most 2 decimals, like 12.50.'],
    [{ reward: '5' }, 'reward', 'Enter a reward in points, like 100.'],
    [{ reward: 1e9 }, 'reward', 'Enter a reward of at most 100,000,000.'],
    [{ reward: 5, counterInSeconds: 4 }, 'counterInSeconds', 'Enter a game time of at least 5 seconds.'],
    [{ reward: 5, counterInSeconds: 301 }, 'counterInSeconds', 'Enter a game time of at most 300 seconds.'],
    [{ reward: 5, counterInSeconds: 2.5 }, 'counterInSeconds', 'Enter the game time in whole seconds.'],
    [{ reward: 5, player1UserId: 'not-a-uuid' }, 'player1UserId', 'Pick the player from the list.'],
    [{ reward: 5, isPrivate: 'yes' }, 'isPrivate', 'Private Game is either on or off.'],
  ])('refuses %o with 400 naming the field in plain words', async (body, path, message) => {
    const before = await t.database.db.select().from(splitOrStealGames);
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, fields: [{ path, message }] });
    expect(await t.database.db.select().from(splitOrStealGames)).toHaveLength(before.length);
  });

  it('refuses one user in both seats, a private game without both players, unknown and excluded users', async () => {
    const same = await create({ reward: 5, player1UserId: alice.user.id, player2UserId: alice.user.id });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Player 1 and Player 2 must be different users.');
    const lonely = await create({ reward: 5, isPrivate: true, player1UserId: alice.user.id });
    expect(lonely.statusCode).toBe(400);
    expect(lonely.json().message).toMatch(/private game needs both players/);
    const ghost = await create({ reward: 5, player2UserId: '00000000-0000-4000-8000-000000000000' });
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().message).toBe('Player 2 was not found.');
    const bot = await t.signIn({ name: 'Bot' });
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, bot.user.id));
    const excluded = await create({ reward: 5, player1UserId: bot.user.id });
    expect(excluded.statusCode).toBe(400);
    expect(excluded.json().message).toBe('Player 1 is an excluded account and cannot play.');
  });

  it('is for admins only', async () => {
    expect((await create({ reward: 5 }, null)).statusCode).toBe(401);
    expect((await create({ reward: 5 }, alice)).statusCode).toBe(403);
  });
});

describe('GET /api/SplitOrStealGame/recent', () => {
  it('lists the latest games newest first with who sits or is reserved in each seat (admins only)', async () => {
    t.clock.advance(60_000);
    const { gameId } = (await create({ reward: 3.5, player2UserId: bob.user.id })).json();
    const res = await t.call({ url: '/api/SplitOrStealGame/recent', as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()[0]).toEqual({
      gameId,
      status: 0,
      reward: 3.5,
      isPrivate: false,
      player1: null,
      player2: 'Bob',
      createdAt: t.clock.now().toISOString(),
    });
    expect(res.json().length).toBeLessThanOrEqual(10);
    expect((await t.call({ url: '/api/SplitOrStealGame/recent', as: alice })).statusCode).toBe(403);
  });
});

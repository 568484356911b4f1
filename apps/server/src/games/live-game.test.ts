/**
 * The live-game kit (./live-game) around the engine's test game, High or Low, made private to its
 * owner and the staff: an unknown game is 404 everywhere, a private one gives a stranger no state,
 * no room and a 403 on acting, no user is 401, and an admin action writes its audit row once, in
 * its transaction (a refused one writes none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { canModerate } from '@kickback/common/access';
import { newHighLow, start } from '@kickback/common/testing/high-low';
import { auditLog } from '../db/schema/audit';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { highLowGame } from '../../test/high-low-game';
import { gameHub, GAME_IS_PRIVATE, GAME_NOT_FOUND, LiveGame, type Person } from './live-game';

const KIND = 'test_high_low_kit';
const MISSING = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let stranger: TestUser;
let kit: ReturnType<typeof register>;

function register(app: Parameters<typeof highLowGame>[0]) {
  const { definition, store } = highLowGame(app, KIND);
  const live = new LiveGame(app, definition, {
    canSee: (game, _row, viewer) => viewer !== null && (viewer.id === game.ownerId || canModerate(viewer.role)),
    recordAudit: (tx, who: Person, entry) =>
      tx
        .insert(auditLog)
        .values({ actorUserId: who.id, actorLabel: 'test', ...entry })
        .then(() => undefined),
  });
  return { live, store };
}

beforeAll(async () => {
  t = await buildTestApp({ routes: (app) => void (kit = register(app)) });
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  owner = await t.signIn({ name: 'Olive' });
  stranger = await t.signIn({ name: 'Sam' });
});
afterAll(async () => {
  await t.close();
});

const newGame = async () =>
  (
    await kit.store.create(
      t.app.db,
      newHighLow({ ownerId: owner.user.id, secret: 8, seconds: 10, prizeCents: 100n }),
      owner.user.id,
      new Date(),
    )
  ).id;

/** A hub call's context as the hub layer gives it, with the rooms it joined. */
function hubContext(gameId: string, user: Person | null) {
  const rooms: string[] = [];
  return {
    rooms,
    ctx: { query: { gameid: gameId }, user, currentUser: async () => user, join: (r: string) => void rooms.push(r) },
  };
}

const now = () => t.app.clock.now().getTime();

describe('the live-game kit', () => {
  it('answers 404 with its message for an unknown game: state, action, handshake', async () => {
    await expect(kit.live.state(MISSING, owner.user)).rejects.toMatchObject({
      statusCode: 404,
      message: GAME_NOT_FOUND,
    });
    await expect(
      kit.live.act(owner.user, MISSING, (g, u) => start(g, { userId: u.id, now: now() })),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(gameHub(kit.live).connect(hubContext(MISSING, owner.user).ctx)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('keeps a private game from a stranger: null state, no room, 403 on acting; 401 without a user', async () => {
    const gameId = await newGame();
    const hub = gameHub(kit.live);
    const theirs = hubContext(gameId, stranger.user);
    await hub.connect(theirs.ctx);
    expect(theirs.rooms).toEqual([]);
    expect(await hub.GetGameState(theirs.ctx)).toBeNull();
    await expect(kit.live.mustSee(gameId, stranger.user)).rejects.toMatchObject({
      statusCode: 403,
      message: GAME_IS_PRIVATE,
    });
    await expect(
      kit.live.act(stranger.user, gameId, (g, u) => start(g, { userId: u.id, now: now() })),
    ).rejects.toMatchObject({
      statusCode: 403,
      message: GAME_IS_PRIVATE,
    });
    await expect(kit.live.act(null, gameId, (g) => start(g, { userId: '', now: now() }))).rejects.toMatchObject({
      statusCode: 401,
    });

    const mine = hubContext(gameId, owner.user);
    await hub.connect(mine.ctx);
    expect(mine.rooms).toEqual([`highlow:${gameId}`]);
    expect(await hub.GetGameState(mine.ctx)).toMatchObject({ id: gameId, status: 1 });
    expect(await kit.live.state(gameId, admin.user)).toMatchObject({ id: gameId }); // staff see it
    expect(await kit.live.act(owner.user, gameId, (g, u) => start(g, { userId: u.id, now: now() }))).toMatchObject({
      status: 2,
    });
  });

  it('writes an admin action’s audit row once, in its transaction; a refused one writes none', async () => {
    const gameId = await newGame();
    const audit = {
      action: 'highlow.start',
      targetType: 'test_game',
      before: (r: { version: number }) => r.version,
      after: (r: { version: number }) => r.version,
    };
    const startIt = (g: Parameters<typeof start>[0]) => start(g, { userId: g.ownerId, now: now() });
    await kit.live.adminAct(admin.user, gameId, startIt, audit);
    await expect(kit.live.adminAct(admin.user, gameId, startIt, audit)).rejects.toMatchObject({ statusCode: 409 });
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, gameId));
    expect(rows.map((r) => [r.action, r.targetType, r.actorUserId, r.before, r.after])).toEqual([
      ['highlow.start', 'test_game', admin.user.id, 1, 2],
    ]);
  });
});

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

function kitOf(app: Parameters<typeof highLowGame>[0], kind: string, fixedVisibilityMs?: number) {
  const { definition, store } = highLowGame(app, kind);
  const live = new LiveGame(app, definition, {
    canSee: (game, _row, viewer) => viewer !== null && (viewer.id === game.ownerId || canModerate(viewer.role)),
    recordAudit: (tx, who: Person, entry) =>
      tx
        .insert(auditLog)
        .values({ actorUserId: who.id, actorLabel: 'test', ...entry })
        .then(() => undefined),
    ...(fixedVisibilityMs === undefined ? {} : { fixedVisibilityMs }),
  });
  // Counts the game reads (the handshakes' and the states').
  let reads = 0;
  const find = live.runner.find.bind(live.runner);
  live.runner.find = (gameId: string) => {
    reads += 1;
    return find(gameId);
  };
  return { live, store, reads: () => reads };
}

function register(app: Parameters<typeof highLowGame>[0]) {
  return { ...kitOf(app, KIND), fixed: kitOf(app, `${KIND}_fixed`, 60_000) };
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

  it('a game whose visibility never changes: handshakes decide from one read, states read afresh; an unknown game is not remembered', async () => {
    const { live, store, reads } = kit.fixed;
    const game = newHighLow({ ownerId: owner.user.id, secret: 8, seconds: 10, prizeCents: 100n });
    const gameId = (await store.create(t.app.db, game, owner.user.id, new Date())).id;
    const hub = gameHub(live);
    const before = reads();
    const mine = hubContext(gameId, owner.user);
    const theirs = hubContext(gameId, stranger.user);
    await Promise.all([
      hub.connect(mine.ctx),
      hub.connect(theirs.ctx),
      hub.connect(hubContext(gameId, admin.user).ctx),
    ]);
    expect(mine.rooms).toEqual([`highlow:${gameId}`]);
    expect(theirs.rooms).toEqual([]); // still decided per viewer
    expect(reads() - before).toBe(1);
    expect(await hub.GetGameState(mine.ctx)).toMatchObject({ id: gameId });
    expect(await hub.GetGameState(mine.ctx)).toMatchObject({ id: gameId });
    expect(reads() - before).toBe(3);

    const unknown = reads();
    for (let i = 0; i < 2; i++) {
      await expect(hub.connect(hubContext(MISSING, owner.user).ctx)).rejects.toMatchObject({ statusCode: 404 });
    }
    expect(reads() - unknown).toBe(2);
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

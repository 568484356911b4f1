/**
 * The Split or Steal hub through the real app listening on a port, with real socket.io-clients:
 * players, spectators, visitors, the ledger, and what the hub refuses.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MAX_GAME_SECONDS, SPLIT, STEAL } from '@kickback/common/games/split-or-steal';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import type { GameChatMessage } from '@kickback/common/hubs/game-chat';
import { auditLog } from '../../db/schema/audit';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { raceBarrier } from '../../../test/race';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const clients: HubClient[] = [];

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  alice = await t.signIn({ name: 'Alice' });
  bob = await t.signIn({ name: 'Bob' });
  carol = await t.signIn({ name: 'Carol' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

async function createGame(body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    // The longest choosing phase: a deadline only passes when a test moves the clock past it
    // (passDeadline), never because a starved machine took seconds between two steps.
    body: { reward: 10.01, counterInSeconds: MAX_GAME_SECONDS, isPrivate: false, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().gameId as string;
}

async function connect(gameId: string, who: TestUser | null, extra: { origin?: string } = {}): Promise<HubClient> {
  const client = new HubClient(url, splitOrStealHub, {
    query: { gameid: gameId },
    ...(who ? { cookie: who.cookie } : {}),
    ...extra,
  });
  clients.push(client);
  return client;
}

/** Moves time past the current phase's deadline and fires what is due (as the in-process timer would). */
async function passDeadline(state: SplitOrStealState): Promise<void> {
  clock.set(new Date(new Date(state.phaseEndsAt!).getTime() + 1));
  await t.app.timers.runDue();
}

const ballHolding = (answers: [number, number], want: number) => (answers[0] === want ? 1 : 2);

async function pointsOf(user: TestUser): Promise<string> {
  return (await t.reload(user.user.id)).points;
}

describe('a full game through the hub', () => {
  it('two players join, a spectator watches, both choose, the stealer is paid exactly once', async () => {
    const gameId = await createGame();
    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    const watcher = await (await connect(gameId, null)).connected();

    const initial = await watcher.ok<SplitOrStealState>('GetGameState');
    expect(initial).toMatchObject({
      id: gameId,
      status: 0,
      version: 1,
      reward: 10.01,
      counterInSeconds: MAX_GAME_SECONDS,
      player1: null,
    });

    const afterP1 = await p1.ok<SplitOrStealState>('JoinGame', 1);
    expect(afterP1).toMatchObject({ status: 2, player1: { userId: alice.user.id, username: 'Alice' } });
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    expect(starting.status).toBe(6);
    expect(new Date(starting.phaseEndsAt!).getTime() - new Date(starting.serverTime).getTime()).toBeLessThanOrEqual(
      3000,
    );
    await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 6);

    await passDeadline(starting);
    const choosing = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    // The choosing phase runs from when the deadline passed (the clock was set there), not from when
    // this state reached the test: the clock keeps ticking, and a starved machine may take seconds.
    const deadlinePassedAt = new Date(starting.phaseEndsAt!).getTime() + 1;
    expect(new Date(choosing.phaseEndsAt!).getTime() - deadlinePassedAt).toBeGreaterThanOrEqual(
      MAX_GAME_SECONDS * 1000 - 1,
    );

    // Each player sees their own balls only; the spectator sees none.
    const aliceBalls = await p1.ok<Record<string, number>>('GetAnswerContext');
    const bobBalls = await p2.ok<Record<string, number>>('GetAnswerContext');
    expect(aliceBalls.player2_Answer1).toBe(0);
    expect(bobBalls.player1_Answer1).toBe(0);
    expect([aliceBalls.player1_Answer1, aliceBalls.player1_Answer2].sort()).toEqual([SPLIT, STEAL]);
    expect(await watcher.ok('GetAnswerContext')).toEqual({
      player1_Answer1: 0,
      player1_Answer2: 0,
      player2_Answer1: 0,
      player2_Answer2: 0,
    });
    expect(choosing.answerContext.player1_Answer1).toBe(0);

    // Alice steals, Bob changes his mind to split.
    const aliceSteal = ballHolding([aliceBalls.player1_Answer1!, aliceBalls.player1_Answer2!], STEAL);
    const bobSplit = ballHolding([bobBalls.player2_Answer1!, bobBalls.player2_Answer2!], SPLIT);
    await p1.ok('UpdateSelection', aliceSteal);
    await p2.ok('UpdateSelection', bobSplit === 1 ? 2 : 1);
    const picked = await p2.ok<SplitOrStealState>('UpdateSelection', bobSplit);
    expect(picked.player1!.selection).toBe(aliceSteal);
    expect(picked.player2!.selection).toBe(bobSplit);
    expect(picked.answerContext.player1_Answer1).toBe(0); // still hidden from everyone's state

    await passDeadline(picked);
    const ended = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
    expect(ended.player1).toMatchObject({ winnings: 10.01, isWinner: true });
    expect(ended.player2).toMatchObject({ winnings: 0, isWinner: false });
    expect(ended.answerContext).toEqual({
      player1_Answer1: aliceBalls.player1_Answer1,
      player1_Answer2: aliceBalls.player1_Answer2,
      player2_Answer1: bobBalls.player2_Answer1,
      player2_Answer2: bobBalls.player2_Answer2,
    });
    await p1.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);

    // Paid once, even when the same deadline is fired again (a second process, a retry).
    await t.database.query(
      `INSERT INTO game_timers (kind, subject_id, version, due_at) VALUES ('split_or_steal', $1, $2, now() - interval '1 second')`,
      [gameId, choosing.version],
    );
    expect(await t.app.timers.runDue()).toBe(1);
    const rows = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'game_win'), eq(ledger.reference, `splitorsteal:${gameId}:1`)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.delta).toBe('10.01');
    expect(await pointsOf(alice)).toBe('10.01');
    expect(await pointsOf(bob)).toBe('0.00');

    // The spectator saw the states in order, none twice, each as it was committed, ending on the
    // result. Changes a few milliseconds apart may reach a room as one frame (the newest state:
    // plugins/realtime.ts coalesces a room's broadcasts), so a quick intermediate state may be skipped.
    const committed = new Map([
      [2, 2],
      [3, 6],
      [4, 3],
      [5, 3],
      [6, 3],
      [7, 3],
      [8, 4],
    ]);
    const seen = watcher.events<SplitOrStealState>('ReceiveGameState').map((s) => [s.version, s.status] as const);
    for (const [version, status] of seen) expect(committed.get(version)).toBe(status);
    const versions = seen.map(([version]) => version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual([8, 4]);
  });

  it('both Split: half each, the odd cent to Player 1; nobody choosing counts as Split', async () => {
    const before = [Number(await pointsOf(alice)), Number(await pointsOf(bob))];
    const gameId = await createGame({ reward: 0.05 });
    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    await p2.ok('JoinGame', 2);
    const starting = await p1.ok<SplitOrStealState>('JoinGame', 1);
    await passDeadline(starting);
    const choosing = await p1.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    await passDeadline(choosing);
    const ended = await p2.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
    expect(ended.player1).toMatchObject({ winnings: 0.03, isWinner: true, selection: null });
    expect(ended.player2).toMatchObject({ winnings: 0.02, isWinner: true, selection: null });
    expect(Number(await pointsOf(alice))).toBeCloseTo(before[0]! + 0.03, 2);
    expect(Number(await pointsOf(bob))).toBeCloseTo(before[1]! + 0.02, 2);
  });

  it('both Steal: nobody is paid', async () => {
    const before = [await pointsOf(alice), await pointsOf(bob)];
    const gameId = await createGame({ reward: 7 });
    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    await p1.ok('JoinGame', 1);
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    await passDeadline(starting);
    await p1.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    const a = await p1.ok<Record<string, number>>('GetAnswerContext');
    const b = await p2.ok<Record<string, number>>('GetAnswerContext');
    await p1.ok('UpdateSelection', ballHolding([a.player1_Answer1!, a.player1_Answer2!], STEAL));
    const last = await p2.ok<SplitOrStealState>(
      'UpdateSelection',
      ballHolding([b.player2_Answer1!, b.player2_Answer2!], STEAL),
    );
    await passDeadline(last);
    const ended = await p1.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
    expect([ended.player1!.winnings, ended.player2!.winnings]).toEqual([0, 0]);
    expect([ended.player1!.isWinner, ended.player2!.isWinner]).toEqual([false, false]);
    expect([await pointsOf(alice), await pointsOf(bob)]).toEqual(before);
  });
});

describe('after commit only', () => {
  it('never broadcasts a state whose transaction rolled back; the deadline is retried and pays once', async () => {
    const gameId = await createGame({ reward: 2 });
    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    const watcher = await (await connect(gameId, null)).connected();
    await p1.ok('JoinGame', 1);
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    await passDeadline(starting);
    const choosing = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);

    // The database refuses the COMMIT of the transaction that ends this game: a deferred
    // constraint trigger runs at commit, after everything the transaction did — the save, the
    // payout and the point where an emit made inside the transaction would already have gone out.
    await t.database.execScript(`
      CREATE FUNCTION fail_game_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'commit refused'; END $$;
      CREATE CONSTRAINT TRIGGER fail_game_end AFTER UPDATE ON split_or_steal_games
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.id = '${gameId}' AND NEW.status = 4) EXECUTE FUNCTION fail_game_end();
    `);
    await passDeadline(choosing);
    expect((await watcher.ok<SplitOrStealState>('GetGameState')).status).toBe(3);
    // A broadcast made after the failed attempt: each client gets events in order, so once it has
    // arrived, any state emitted during that attempt would have arrived before it.
    await p1.ok('SendChatMessage', 'still choosing?');
    await watcher.waitFor<GameChatMessage>('ReceiveChatMessage', (m) => m.message === 'still choosing?');
    await p1.waitFor<GameChatMessage>('ReceiveChatMessage', (m) => m.message === 'still choosing?');
    expect(watcher.events<SplitOrStealState>('ReceiveGameState').some((s) => s.status === 4)).toBe(false);
    expect(p1.events<SplitOrStealState>('ReceiveGameState').some((s) => s.status === 4)).toBe(false);
    const refused = await t.database.db.select().from(ledger).where(eq(ledger.reason, 'game_win'));
    expect(refused.filter((r) => r.reference?.startsWith(`splitorsteal:${gameId}:`))).toHaveLength(0);

    await t.database.execScript('DROP TRIGGER fail_game_end ON split_or_steal_games; DROP FUNCTION fail_game_end();');
    clock.advance(5_000); // the failed deadline is retried 5 s later
    await t.app.timers.runDue();
    const ended = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
    expect([ended.player1!.winnings, ended.player2!.winnings]).toEqual([1, 1]);
    expect(watcher.events<SplitOrStealState>('ReceiveGameState').filter((s) => s.status === 4)).toHaveLength(1);
    const paid = await t.database.db.select().from(ledger).where(eq(ledger.reason, 'game_win'));
    expect(paid.filter((r) => r.reference?.startsWith(`splitorsteal:${gameId}:`))).toHaveLength(2);
  });
});

describe('seats', () => {
  it('two users racing for one slot: exactly one gets it', async () => {
    const racers = [alice, bob, carol, await t.signIn({ name: 'Dave' }), await t.signIn({ name: 'Erin' })];
    // Each JoinGame pauses right after reading the game row, until every racer has read it or the
    // pause ran out: without the row lock, on PostgreSQL, all of them read the seat free and all
    // take it. PGlite runs one transaction at a time whatever the lock, so the pause also checks
    // that the row it read is locked by its own transaction (the lock's mark on the row).
    const race = raceBarrier(racers.length);
    t.app.games.hooks.afterLock = async (tx, kind) => {
      if (kind === 'split_or_steal') await race.arrive(tx);
    };
    try {
      for (let round = 0; round < 3; round++) {
        const gameId = await createGame();
        const sockets = await Promise.all(racers.map(async (r) => (await connect(gameId, r)).connected()));
        race.reset(gameId);
        const results = await Promise.all(sockets.map((s) => s.call<SplitOrStealState>('JoinGame', 1)));
        expect(race.unlockedReads()).toEqual([]);
        const winners = results.filter((r) => r.ok);
        expect(winners).toHaveLength(1);
        expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error))).toEqual(
          Array(racers.length - 1).fill('That seat is taken.'),
        );
        const state = await sockets[0]!.ok<SplitOrStealState>('GetGameState');
        expect(state.version).toBe(2);
        expect(state.status).toBe(2);
        for (const s of sockets) s.close();
      }
    } finally {
      delete t.app.games.hooks.afterLock;
    }
  });

  it('a designated slot is only for its user; an excluded account cannot join', async () => {
    const gameId = await createGame({ player1UserId: alice.user.id });
    const c = await (await connect(gameId, carol)).connected();
    const a = await (await connect(gameId, alice)).connected();
    expect(await c.call('JoinGame', 1)).toEqual({ ok: false, error: 'That seat is reserved for another player.' });
    expect(await a.call('JoinGame', 2)).toEqual({ ok: false, error: 'Your seat is the other one.' });
    const state = await c.ok<SplitOrStealState>('GetGameState');
    expect(state.reservedPlayer1).toMatchObject({ userId: alice.user.id, username: 'Alice' });
    await a.ok('JoinGame', 1);

    const excluded = await t.signIn({ name: 'Bot' });
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, excluded.user.id));
    const x = await (await connect(gameId, excluded)).connected();
    expect(await x.call('JoinGame', 2)).toEqual({ ok: false, error: 'This account cannot take part in games.' });
  });
});

describe('what spectators and visitors cannot do', () => {
  it('a signed-out visitor watches but cannot join or chat; a signed-in spectator cannot select', async () => {
    const gameId = await createGame();
    const visitor = await (await connect(gameId, null)).connected();
    expect(await visitor.call('JoinGame', 1)).toEqual({ ok: false, error: 'Sign in required.' });
    expect(await visitor.call('SendChatMessage', 'hello')).toEqual({ ok: false, error: 'Sign in required.' });
    expect(await visitor.call('UpdateSelection', 1)).toEqual({ ok: false, error: 'Sign in required.' });

    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    const spectator = await (await connect(gameId, carol)).connected();
    await p1.ok('JoinGame', 1);
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    expect(await spectator.call('JoinGame', 1)).toEqual({ ok: false, error: 'The game is not taking players.' });
    expect(await spectator.call('UpdateSelection', 1)).toEqual({ ok: false, error: 'Choosing is not open.' });
    await passDeadline(starting);
    await spectator.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
    expect(await spectator.call('UpdateSelection', 1)).toEqual({ ok: false, error: 'Only the players choose.' });
    const state = await spectator.ok<SplitOrStealState>('GetGameState');
    expect([state.player1!.selection, state.player2!.selection]).toEqual([null, null]);
  });

  it('refuses a wrong Origin, a bad game id and an unknown game at the handshake', async () => {
    const gameId = await createGame();
    expect((await (await connect(gameId, alice, { origin: 'http://evil.example' })).refused()).message).toBeTruthy();
    const bad = await (await connect('nope', null)).refused();
    expect(bad.data?.code).toBe('bad_query');
    const unknown = await (await connect('00000000-0000-4000-8000-000000000000', null)).refused();
    expect(unknown.data?.code).toBe('not_found');
    expect(unknown.message).toBe('Game not found.');
    // The site's own origin is fine.
    await (await connect(gameId, alice, { origin: t.config.publicOrigin })).connected();
  });
});

describe('malformed and oversized payloads', () => {
  it('are refused without disturbing the game', async () => {
    const gameId = await createGame();
    const p1 = await (await connect(gameId, alice)).connected();
    const watcher = await (await connect(gameId, null)).connected();
    const rogue = await (await connect(gameId, carol)).connected();

    expect(await rogue.call('JoinGame', 'one')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Invalid payload/),
    });
    expect(await rogue.call('JoinGame', 3)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Invalid payload/),
    });
    expect(await rogue.call('JoinGame')).toMatchObject({ ok: false, error: expect.stringMatching(/^Invalid payload/) });
    expect(await rogue.call('JoinGame', { slot: 1 })).toMatchObject({ ok: false });
    expect(await rogue.call('JoinGame', 1, 2)).toEqual({ ok: false, error: 'Invalid payload: one argument at most.' });
    expect(await rogue.call('SendChatMessage', 42)).toMatchObject({ ok: false });
    expect(await rogue.call('DropTables')).toEqual({ ok: false, error: 'Unknown call.' });
    rogue.socket.emit('JoinGame', 1); // no acknowledgement asked: ignored
    expect((await rogue.ok<SplitOrStealState>('GetGameState')).version).toBe(1);

    // More than 16 KB in one frame closes that connection only.
    const disconnected = rogue.until(() => !rogue.socket.connected, 'rogue disconnected');
    rogue.socket.emit('SendChatMessage', 'x'.repeat(20 * 1024), () => undefined);
    await disconnected;

    await p1.ok('JoinGame', 1);
    const seen = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.version === 2);
    expect(seen.player1!.userId).toBe(alice.user.id);
    expect(p1.socket.connected && watcher.socket.connected).toBe(true);
  });

  it('a socket that keeps sending refused calls is disconnected', async () => {
    const gameId = await createGame();
    const rogue = await (await connect(gameId, carol)).connected();
    const watcher = await (await connect(gameId, null)).connected();
    const gone = rogue.until(() => !rogue.socket.connected, 'rogue disconnected');
    for (let i = 0; i < 40; i++) rogue.socket.emit('JoinGame', 'junk', () => undefined);
    await gone;
    expect(watcher.socket.connected).toBe(true);
    expect((await watcher.ok<SplitOrStealState>('GetGameState')).version).toBe(1);
  });

  it('answers too-fast callers with a refusal', async () => {
    const gameId = await createGame();
    const c = await (await connect(gameId, carol)).connected();
    const results = await Promise.all(Array.from({ length: 30 }, () => c.call('GetGameState')));
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(20);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error))).toContain(
      'Too many requests. Please slow down.',
    );
  });
});

describe('private games', () => {
  it('are shown only to their players and admins; others get no state and no broadcasts', async () => {
    const gameId = await createGame({ isPrivate: true, player1UserId: alice.user.id, player2UserId: bob.user.id });
    const visitor = await (await connect(gameId, null)).connected();
    const stranger = await (await connect(gameId, carol)).connected();
    const host = await (await connect(gameId, admin)).connected();
    const p1 = await (await connect(gameId, alice)).connected();

    expect(await visitor.ok('GetGameState')).toBeNull();
    expect(await stranger.ok('GetGameState')).toBeNull();
    expect(await stranger.call('GetChatMessages')).toEqual({ ok: false, error: 'Game Is Private' });
    expect(await stranger.call('GetAnswerContext')).toEqual({ ok: false, error: 'Game Is Private' });
    expect(await stranger.call('SendChatMessage', 'hi')).toEqual({ ok: false, error: 'Game Is Private' });
    expect(await stranger.call('JoinGame', 2)).toEqual({ ok: false, error: 'Game Is Private' });
    expect((await host.ok<SplitOrStealState>('GetGameState')).isPrivate).toBe(true);

    await p1.ok('JoinGame', 1);
    await p1.ok('SendChatMessage', 'secret');
    await host.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.version === 2);
    await host.waitFor<GameChatMessage>('ReceiveChatMessage');
    // A later public game's broadcast proves the stranger's socket is alive and would have got one.
    expect(stranger.received).toEqual([]);
    expect(visitor.received).toEqual([]);
  });
});

describe('game chat', () => {
  it('trims, caps at 300 characters, keeps newest first, broadcasts as text, and limits floods', async () => {
    const gameId = await createGame();
    const c = await (await connect(gameId, carol)).connected();
    const watcher = await (await connect(gameId, null)).connected();
    const sent = await c.ok<GameChatMessage>('SendChatMessage', '  <b>hello</b>  ');
    expect(sent).toMatchObject({ userId: carol.user.id, username: 'Carol', message: '<b>hello</b>' });
    const got = await watcher.waitFor<GameChatMessage>('ReceiveChatMessage');
    expect(got.message).toBe('<b>hello</b>');
    expect(await c.call('SendChatMessage', '   ')).toEqual({ ok: false, error: 'Write a message first.' });
    expect(await c.call('SendChatMessage', 'x'.repeat(301))).toEqual({
      ok: false,
      error: 'Messages are at most 300 characters.',
    });
    await c.ok('SendChatMessage', 'y'.repeat(300));
    await c.ok('SendChatMessage', 'third');
    await c.ok('SendChatMessage', 'fourth');
    await c.ok('SendChatMessage', 'fifth');
    expect(await c.call('SendChatMessage', 'sixth')).toEqual({
      ok: false,
      error: 'You are sending messages too fast.',
    });
    const history = await watcher.ok<GameChatMessage[]>('GetChatMessages');
    expect(history.map((m) => m.message.slice(0, 5))).toEqual(['fifth', 'fourt', 'third', 'yyyyy', '<b>he']);
  });

  it('keeps the last 100 messages of a game', async () => {
    const gameId = await createGame();
    const c = await (await connect(gameId, carol)).connected();
    const others = await Promise.all(Array.from({ length: 21 }, (_, i) => t.signIn({ name: `Chatter${i}` })));
    let n = 0;
    for (const o of others) {
      const s = await (await connect(gameId, o)).connected();
      for (let i = 0; i < 5; i++) await s.ok('SendChatMessage', `m${++n}`);
      s.close();
    }
    const history = await c.ok<GameChatMessage[]>('GetChatMessages');
    expect(history).toHaveLength(100);
    expect(history[0]!.message).toBe('m105');
    expect(history[99]!.message).toBe('m6');
  });
});

describe('admin cancel', () => {
  it('cancels from the choosing phase: 5 for everyone, the deadline does nothing, no payout, audited', async () => {
    const gameId = await createGame({ reward: 3 });
    const p1 = await (await connect(gameId, alice)).connected();
    const p2 = await (await connect(gameId, bob)).connected();
    const watcher = await (await connect(gameId, null)).connected();
    await p1.ok('JoinGame', 1);
    const starting = await p2.ok<SplitOrStealState>('JoinGame', 2);
    await passDeadline(starting);
    const choosing = await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);

    expect(
      (await t.call({ method: 'POST', url: `/api/SplitOrStealGame/${gameId}/cancel`, as: alice })).statusCode,
    ).toBe(403);
    expect((await t.call({ method: 'POST', url: `/api/SplitOrStealGame/${gameId}/cancel` })).statusCode).toBe(401);
    const res = await t.call({ method: 'POST', url: `/api/SplitOrStealGame/${gameId}/cancel`, as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe(5);
    await watcher.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 5);

    await passDeadline(choosing);
    expect((await watcher.ok<SplitOrStealState>('GetGameState')).status).toBe(5);
    const wins = await t.database.db
      .select()
      .from(ledger)
      .where(eq(ledger.reference, `splitorsteal:${gameId}:1`));
    expect(wins).toHaveLength(0);
    const again = await t.call({ method: 'POST', url: `/api/SplitOrStealGame/${gameId}/cancel`, as: admin });
    expect(again.statusCode).toBe(409);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, gameId));
    expect(audit.map((a) => a.action).sort()).toEqual(['splitorsteal.cancel', 'splitorsteal.create']);
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/SplitOrStealGame/00000000-0000-4000-8000-000000000000/cancel',
          as: admin,
        })
      ).statusCode,
    ).toBe(404);
  });
});

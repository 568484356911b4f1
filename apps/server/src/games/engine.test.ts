/**
 * The game engine through the real app, with its tiny test game High or Low (test/high-low-game.ts):
 * hidden information cut per audience by the server, one user's sockets and the admins addressed
 * alone, a deadline that pays through the ledger once, a stale deadline that does nothing, actions
 * serialised by the row lock, and nothing emitted for a transaction that did not commit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { HighLowStatus, highLowHub, type HighLowState } from '@kickback/common/testing/high-low';
import { ledger } from '../db/schema/ledger';
import { liveGames } from '../db/schema/games';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { HIGH_LOW_KIND, registerHighLow } from '../../test/high-low-game';
import { raceBarrier } from '../../test/race';

let t: TestApp;
let url: string;
let clock: WallClock;
let game: ReturnType<typeof registerHighLow>;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;
const clients: HubClient[] = [];

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock, routes: (app) => void (game = registerHighLow(app)) });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  owner = await t.signIn({ name: 'Olive' });
  other = await t.signIn({ name: 'Oscar' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  delete t.app.games.hooks.afterLock;
});
afterAll(async () => {
  await t.close();
});

async function connect(gameId: string, who: TestUser | null): Promise<HubClient> {
  const client = new HubClient(url, highLowHub, { query: { gameid: gameId }, ...(who ? { cookie: who.cookie } : {}) });
  clients.push(client);
  return client.connected();
}

const newGame = (secret = 8, prizeCents = 1234n) => game.create(owner.user.id, { secret, seconds: 10, prizeCents });

async function passDeadline(state: HighLowState): Promise<void> {
  clock.set(new Date(new Date(state.phaseEndsAt!).getTime() + 1));
  await t.app.timers.runDue();
}

const wins = async (gameId: string) =>
  (
    await t.database.db
      .select()
      .from(ledger)
      .where(eq(ledger.reference, `highlow:${gameId}`))
  ).map((r) => r.delta);

describe('audiences', () => {
  it('cuts hidden information per viewer, in broadcasts and reads; reveals to all at the deadline', async () => {
    const gameId = await newGame(8);
    const ownerA = await connect(gameId, owner);
    const ownerB = await connect(gameId, owner); // a second tab
    const host = await connect(gameId, admin);
    const visitor = await connect(gameId, null);
    const stranger = await connect(gameId, other);

    await ownerA.ok('Start');
    const picked = await ownerA.ok<HighLowState>('Guess', 'high');
    expect(picked).toMatchObject({ pick: 'high', secret: null, status: HighLowStatus.Guessing });
    // The game's other events of a change go out too, once: here a sound to the whole room.
    for (const c of [ownerA, host, visitor]) expect(await c.waitFor('PlaySound')).toEqual({ name: 'start' });

    const seen = async (c: HubClient) => c.waitFor<HighLowState>('ReceiveGameState', (s) => s.version === 3);
    expect(await seen(ownerA)).toMatchObject({ pick: 'high', secret: null });
    expect(await seen(ownerB)).toMatchObject({ pick: 'high', secret: null });
    expect(await seen(host)).toMatchObject({ pick: null, secret: 8 });
    expect(await seen(visitor)).toMatchObject({ pick: null, secret: null });
    expect(await seen(stranger)).toMatchObject({ pick: null, secret: null });
    // Each socket got exactly one state per version: its own.
    for (const c of [ownerA, ownerB, host, visitor, stranger]) {
      expect(c.events<HighLowState>('ReceiveGameState').map((s) => s.version)).toEqual([2, 3]);
    }
    expect(await visitor.ok<HighLowState>('GetGameState')).toMatchObject({ pick: null, secret: null });
    expect(await host.ok<HighLowState>('GetGameState')).toMatchObject({ pick: null, secret: 8 });
    expect(await ownerB.ok<HighLowState>('GetGameState')).toMatchObject({ pick: 'high', secret: null });

    await passDeadline(picked);
    for (const c of [ownerA, host, visitor, stranger]) {
      expect(await c.waitFor<HighLowState>('ReceiveGameState', (s) => s.version === 4)).toMatchObject({
        status: HighLowStatus.Revealed,
        pick: 'high',
        secret: 8,
        won: '12.34',
      });
    }
    // The win goes to the owner's sockets only, the settlement to the admins only.
    expect(await ownerA.waitFor('YouWon')).toEqual({ gameId, amount: '12.34' });
    expect(await ownerB.waitFor('YouWon')).toEqual({ gameId, amount: '12.34' });
    expect(await host.waitFor('Settled')).toEqual({ gameId, won: '12.34' });
    for (const c of [host, visitor, stranger, ownerA]) await c.ok('GetGameState'); // round trips after the emits
    for (const c of [host, visitor, stranger]) expect(c.events('YouWon')).toEqual([]);
    for (const c of [ownerA, ownerB, host, visitor, stranger]) expect(c.events('PlaySound')).toHaveLength(1);
    for (const c of [ownerA, visitor, stranger]) expect(c.events('Settled')).toEqual([]);
    expect(await wins(gameId)).toEqual(['12.34']);
  });

  it('refuses an action from someone who is not the owner, and changes nothing', async () => {
    const gameId = await newGame();
    const stranger = await connect(gameId, other);
    const visitor = await connect(gameId, null);
    expect(await stranger.call('Start')).toEqual({ ok: false, error: 'Only the owner plays.' });
    expect(await visitor.call('Start')).toEqual({ ok: false, error: 'Sign in required.' });
    expect(await stranger.call('Guess', 'sideways')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Invalid payload/),
    });
    expect((await stranger.ok<HighLowState>('GetGameState')).version).toBe(1);
  });
});

describe('deadlines', () => {
  it('a wrong pick wins nothing; a deadline fired again or with a stale version does nothing', async () => {
    const gameId = await newGame(3);
    const o = await connect(gameId, owner);
    const started = await o.ok<HighLowState>('Start');
    const phaseVersion = started.version;
    await o.ok('Guess', 'high');

    // A deadline for a version the game is not at (an older phase, or a replayed timer).
    await t.database.query(
      `INSERT INTO game_timers (kind, subject_id, version, due_at) VALUES ($1, $2, $3, now() - interval '1 second')`,
      [HIGH_LOW_KIND, gameId, phaseVersion - 1],
    );
    expect(await t.app.timers.runDue()).toBe(1);
    expect((await o.ok<HighLowState>('GetGameState')).status).toBe(HighLowStatus.Guessing);

    const guessing = await o.ok<HighLowState>('GetGameState');
    await passDeadline(guessing);
    const revealed = await o.waitFor<HighLowState>('ReceiveGameState', (s) => s.status === HighLowStatus.Revealed);
    expect(revealed).toMatchObject({ secret: 3, pick: 'high', won: '0.00' });
    expect(await wins(gameId)).toEqual([]);

    // The same deadline again (a second process, a retry): nothing changes.
    await t.database.query(
      `INSERT INTO game_timers (kind, subject_id, version, due_at) VALUES ($1, $2, $3, now() - interval '1 second')`,
      [HIGH_LOW_KIND, gameId, phaseVersion],
    );
    expect(await t.app.timers.runDue()).toBe(1);
    expect((await o.ok<HighLowState>('GetGameState')).version).toBe(revealed.version);
  });
});

describe('one action at a time', () => {
  it('two tabs of the owner starting at once: one starts it, the other is refused', async () => {
    const race = raceBarrier(2);
    t.app.games.hooks.afterLock = async (tx, kind) => {
      if (kind === HIGH_LOW_KIND) await race.arrive(tx);
    };
    const gameId = await newGame();
    race.reset(gameId, 'live_games');
    const tabs = [await connect(gameId, owner), await connect(gameId, owner)];
    const results = await Promise.all(tabs.map((c) => c.call<HighLowState>('Start')));
    expect(race.unlockedReads()).toEqual([]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: 'The game has started.' }]);
    const timers = await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM game_timers WHERE subject_id = $1',
      [gameId],
    );
    expect(timers[0]!.n).toBe(1);
  });
});

describe('after commit only', () => {
  it('emits nothing, to anyone, for a change whose COMMIT failed; the retry pays once', async () => {
    const gameId = await newGame(9);
    const o = await connect(gameId, owner);
    const host = await connect(gameId, admin);
    const visitor = await connect(gameId, null);
    await o.ok('Start');
    const picked = await o.ok<HighLowState>('Guess', 'high');

    // Refused at COMMIT (a deferred constraint trigger): after the save, the payout and the point
    // where an emit made inside the transaction would already have gone out.
    await t.database.execScript(`
      CREATE FUNCTION fail_reveal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'commit refused'; END $$;
      CREATE CONSTRAINT TRIGGER fail_reveal AFTER UPDATE ON live_games
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.id = '${gameId}' AND (NEW.state->>'status')::int = ${HighLowStatus.Revealed}) EXECUTE FUNCTION fail_reveal();
    `);
    await passDeadline(picked);
    // Round trips after the failed attempt: anything it emitted would have arrived before them.
    for (const c of [o, host, visitor])
      expect((await c.ok<HighLowState>('GetGameState')).status).toBe(HighLowStatus.Guessing);
    for (const c of [o, host, visitor]) {
      expect(c.events<HighLowState>('ReceiveGameState').some((s) => s.status === HighLowStatus.Revealed)).toBe(false);
    }
    // (Other tests' games may settle meanwhile: the clock moved past their deadlines too.)
    const about = (c: HubClient, event: string) =>
      c.events<{ gameId: string }>(event).filter((e) => e.gameId === gameId);
    expect(about(o, 'YouWon')).toEqual([]);
    expect(about(host, 'Settled')).toEqual([]);
    expect(await wins(gameId)).toEqual([]);

    await t.database.execScript('DROP TRIGGER fail_reveal ON live_games; DROP FUNCTION fail_reveal();');
    clock.advance(5_000); // a failed deadline is retried 5 s later
    await t.app.timers.runDue();
    await o.waitFor<{ gameId: string }>('YouWon', (e) => e.gameId === gameId);
    await host.waitFor<{ gameId: string }>('Settled', (e) => e.gameId === gameId);
    expect(await wins(gameId)).toEqual(['12.34']);
    const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
    expect(row!.version).toBe(4);
  });
});

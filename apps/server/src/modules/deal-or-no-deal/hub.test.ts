/**
 * Deal or No Deal through the real app listening on a port, with real socket.io-clients: the owner
 * plays whole games while others watch, every frame every client receives is scanned for amounts
 * of shut boxes, strangers are refused, the claim queues the prize once under a race, and the
 * board verifies against its commitment.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { boardText, DEFAULT_AMOUNTS, ROUND_SIZES } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealHub, type CaseOpened, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { toCents } from '@kickback/common/money';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { liveGames } from '../../db/schema/games';
import { buildTestApp, LogCapture, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { raceBarrier } from '../../../test/race';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let olive: TestUser;
let sam: TestUser;
const logs = new LogCapture();
const clients: HubClient[] = [];

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock, logs });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  olive = await t.signIn({ name: 'Olive' });
  sam = await t.signIn({ name: 'Sam' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  delete t.app.games.hooks.afterLock;
});
afterAll(async () => {
  await t.close();
});

async function createGame(body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/DealOrNoDeal/create',
    as: admin,
    body: { playerUserId: olive.user.id, isPrivate: false, reward: 0, Amounts: [...DEFAULT_AMOUNTS], ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().gameId as string;
}

async function connect(gameId: string, who: TestUser | null): Promise<HubClient> {
  const client = new HubClient(url, dealOrNoDealHub, {
    query: { gameid: gameId },
    ...(who ? { cookie: who.cookie } : {}),
  });
  clients.push(client);
  return client.connected();
}

/** The board as stored (cents by box id − 1): what the test knows and clients must not. */
async function storedGame(gameId: string) {
  const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
  const state = row!.state as { board: string[]; seed: string; commitment: string };
  return { board: state.board.map((c) => BigInt(c)), seed: state.seed, commitment: state.commitment };
}

const ended = (status: number) => [0, 5, 6, 7].includes(status);

/**
 * Every frame a client got, and every answer a call got, checked against the true board: a box
 * shows an amount only when it is opened and then the amount it really holds, the seed and the
 * board stay out until the game ended, and a CaseOpened names an amount the box really holds.
 */
function scan(frames: unknown[], board: readonly bigint[], seed: string): string[] {
  const problems: string[] = [];
  const dollars = (c: bigint) => Number(c) / 100;
  for (const frame of frames) {
    const text = JSON.stringify(frame);
    if (frame && typeof frame === 'object' && 'boxesInfo' in frame) {
      const s = frame as DealOrNoDealState;
      if (!ended(s.status) && (text.includes(seed) || s.seed !== null || s.board !== null)) {
        problems.push(`seed or board in status ${s.status}`);
      }
      for (const b of [...s.boxesInfo, s.primaryBox, s.lastOpenedBox]) {
        if (!b) continue;
        if (!b.isOpened && b.amount !== null) problems.push(`shut box ${b.id} shows ${b.amount}`);
        if (b.amount !== null && b.amount !== dollars(board[b.id - 1]!)) problems.push(`box ${b.id} moved`);
      }
    } else if (frame && typeof frame === 'object' && 'boxId' in frame) {
      const o = frame as CaseOpened;
      if (o.amount !== dollars(board[o.boxId - 1]!)) problems.push(`CaseOpened ${o.boxId} wrong`);
    } else if (text.includes(seed)) problems.push('seed in a frame');
  }
  return problems;
}

/**
 * Plays from status 1 with No Deal to the swap offer; returns every answer the owner got. A game
 * is ~32 calls, more than one socket's call budget allows at test speed: the owner's calls take
 * turns over several of their sockets (tabs), as the budget is per socket.
 */
async function playToSwap(tabs: HubClient[], primary: number): Promise<DealOrNoDealState[]> {
  let turn = 0;
  const owner = { ok: <T>(name: string, ...args: unknown[]) => tabs[turn++ % tabs.length]!.ok<T>(name, ...args) };
  const answers: DealOrNoDealState[] = [];
  let s = await owner.ok<DealOrNoDealState>('GetGameState');
  if (s.status === 1) answers.push((s = await owner.ok<DealOrNoDealState>('StartGame')));
  answers.push((s = await owner.ok<DealOrNoDealState>('SelectBox', primary)));
  for (const [round, size] of ROUND_SIZES.entries()) {
    expect(s).toMatchObject({ status: 3, round, remainingBoxCountToOffer: size });
    for (let k = 0; k < size; k++) {
      const next = s.boxesInfo.find((b) => !b.isOpened && b.id !== s.primaryBoxId)!;
      answers.push((s = await owner.ok<DealOrNoDealState>('SelectBox', next.id)));
    }
    expect(s.status).toBe(4);
    expect(s.currentOffer!.amount).toBeGreaterThan(0);
    answers.push((s = await owner.ok<DealOrNoDealState>('AnswerOffer', false)));
  }
  expect(s.status).toBe(8);
  return answers;
}

async function passDeadline(state: DealOrNoDealState): Promise<void> {
  clock.set(new Date(new Date(state.phaseEndsAt!).getTime() + 1));
  await t.app.timers.runDue();
}

describe('create', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    playerUserId: olive.user.id,
    isPrivate: false,
    reward: 0,
    Amounts: [...DEFAULT_AMOUNTS],
    ...over,
  });
  const post = (payload: unknown, as: TestUser | null = admin) =>
    t.call({ method: 'POST', url: '/api/DealOrNoDeal/create', ...(as ? { as } : {}), body: payload });

  it('is for admins only: 401 signed out, 403 for a user', async () => {
    expect((await post(body(), null)).statusCode).toBe(401);
    expect((await post(body(), sam)).statusCode).toBe(403);
  });

  it('refuses boards that are not 24 positive amounts with ≤ 2 decimals under the ceiling, with a clear message', async () => {
    const before = await t.database.db.select().from(liveGames);
    const bad: Array<[unknown[], RegExp]> = [
      [DEFAULT_AMOUNTS.slice(1), /exactly 24/],
      [[...DEFAULT_AMOUNTS, 1], /exactly 24/],
      [[0, ...DEFAULT_AMOUNTS.slice(1)], /greater than 0/],
      [[-1, ...DEFAULT_AMOUNTS.slice(1)], /greater than 0/],
      [[0.001, ...DEFAULT_AMOUNTS.slice(1)], /2 decimals/],
      [[10_000.01, ...DEFAULT_AMOUNTS.slice(1)], /at most 10,000/],
      [['5', ...DEFAULT_AMOUNTS.slice(1)], /Enter the amount in dollars/],
    ];
    for (const [Amounts, message] of bad) {
      const res = await post(body({ Amounts }));
      expect(res.statusCode, JSON.stringify(Amounts.slice(0, 2))).toBe(400);
      expect(res.body).toMatch(message);
    }
    const first = await post(body({ Amounts: [0, ...DEFAULT_AMOUNTS.slice(1)] }));
    expect(first.json()).toEqual({
      message: 'Enter an amount greater than 0.',
      fields: [{ path: 'Amounts.0', message: 'Enter an amount greater than 0.' }],
    });
    expect((await post(body({ playerUserId: 'nope' }))).json()).toMatchObject({
      fields: [{ path: 'playerUserId', message: 'Pick the player from the list.' }],
    });
    expect((await post(body({ reward: 1.234 }))).statusCode).toBe(400);
    expect(await t.database.db.select().from(liveGames)).toHaveLength(before.length);
  });

  it('answers 404 for a player who does not exist', async () => {
    const res = await post(body({ playerUserId: '00000000-0000-4000-8000-000000000000' }));
    expect(res.statusCode).toBe(404);
    expect(res.json().message ?? res.body).toMatch(/Player was not found/);
  });

  it('deals the amounts given into the 24 boxes and publishes SHA-256(seed ‖ board)', async () => {
    const amounts = DEFAULT_AMOUNTS.map((a, i) => (i === 23 ? 10_000 : a));
    const gameId = await createGame({ Amounts: amounts });
    const stored = await storedGame(gameId);
    expect([...stored.board].sort((a, b) => Number(a - b))).toEqual(amounts.map((a) => toCents(a)));
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from(stored.seed, 'hex'), Buffer.from(boardText(stored.board), 'ascii')]))
      .digest('hex');
    expect(stored.commitment).toBe(expected);
    const watcher = await connect(gameId, null);
    const state = await watcher.ok<DealOrNoDealState>('GetGameState');
    expect(state).toMatchObject({ status: 1, commitment: expected, seed: null, board: null, version: 1 });
    expect(state.user).toMatchObject({ userId: olive.user.id, username: 'Olive' });
    expect(state.amounts.map((a) => a.value)).toEqual([...amounts].sort((a, b) => a - b));
  });
});

describe('a whole game through the hub', () => {
  it('the owner plays to a swap, a win and a claim while a spectator and a visitor watch; no frame shows a shut box', async () => {
    const gameId = await createGame();
    const tabs = await Promise.all([1, 2, 3].map(() => connect(gameId, olive)));
    const owner = tabs[0]!;
    const spectator = await connect(gameId, sam);
    const visitor = await connect(gameId, null);
    const host = await connect(gameId, admin);

    const answers = await playToSwap(tabs, 7);
    // The spectator saw the same states as they happened.
    await spectator.waitFor<DealOrNoDealState>('GameStateChange', (s) => s.status === 8);
    const won = await owner.ok<DealOrNoDealState>('answerSwapOffer', true);
    answers.push(won);
    expect(won).toMatchObject({ status: 6, ending: 'swap' });
    expect(won.primaryBoxId).not.toBe(7);
    const { board, seed, commitment } = await storedGame(gameId);
    expect(won.winningAmount).toBe(Number(board[won.primaryBoxId! - 1]!) / 100);
    expect(won.seed).toBe(seed);
    expect(won.boxesInfo.every((b) => b.isOpened && b.amount !== null)).toBe(true);

    await passDeadline(won);
    const finished = await visitor.waitFor<DealOrNoDealState>('GameStateChange', (s) => s.status === 0);
    expect(finished.winningAmount).toBe(won.winningAmount);
    const claimed = await owner.ok<DealOrNoDealState>('Claim');
    expect(claimed.status).toBe(5);
    await spectator.waitFor<DealOrNoDealState>('GameStateChange', (s) => s.status === 5);

    // The prize is in the fulfilment queue once, in dollars, and in the owner's My activity.
    const items = await t.database.db
      .select()
      .from(fulfilmentItems)
      .where(and(eq(fulfilmentItems.kind, 'deal_or_no_deal'), eq(fulfilmentItems.reference, `game:${gameId}`)));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ userId: olive.user.id, unit: 'USD', status: 'pending' });
    expect(Number(items[0]!.amount)).toBe(won.winningAmount);
    const payouts = (await t.call({ method: 'GET', url: '/api/me/payouts', as: olive })).json();
    expect(payouts.items).toContainEqual(
      expect.objectContaining({ kind: 'deal_or_no_deal', amount: won.winningAmount, status: 'pending' }),
    );

    // Every frame of every client, and every answer, against the true board.
    for (const c of [...tabs, spectator, visitor, host]) {
      const states = c.events<DealOrNoDealState>('GameStateChange');
      expect(states.map((s) => s.status)).toContain(4);
      expect(
        scan(
          c.received.map((r) => r.payload),
          board,
          seed,
        ),
      ).toEqual([]);
    }
    expect(scan(answers, board, seed)).toEqual([]);
    // 22 openings announced, each once, to the watchers too.
    expect(visitor.events<CaseOpened>('CaseOpened')).toHaveLength(22);
    // No log line carries the seed or the board in box order.
    const logged = JSON.stringify(logs.lines);
    expect(logged).not.toContain(seed);
    expect(logged).not.toContain(boardText(board));

    // The board verifies: the public endpoint gives what the page hashes.
    const v = (await t.call({ method: 'GET', url: `/api/DealOrNoDeal/${gameId}/verification` })).json();
    expect(v).toMatchObject({ status: 5, commitment, seed });
    const recomputed = createHash('sha256')
      .update(
        Buffer.concat([
          Buffer.from(v.seed as string, 'hex'),
          Buffer.from((v.board as number[]).map((n) => n.toFixed(2)).join(','), 'ascii'),
        ]),
      )
      .digest('hex');
    expect(recomputed).toBe(commitment);
  });

  it('announces the show: ThemeMusic on start, a case sound per opening, the banker and music on an offer, StopSound on the answer, DealMusic on a Deal', async () => {
    const gameId = await createGame();
    const owner = await connect(gameId, olive);
    const visitor = await connect(gameId, null);
    await owner.ok('StartGame');
    await visitor.waitFor<string>('PlaySound', (s) => s === 'ThemeMusic');
    await owner.ok('SelectBox', 1);
    let s = await owner.ok<DealOrNoDealState>('GetGameState');
    for (let k = 0; k < 6; k++) {
      const next = s.boxesInfo.find((b) => !b.isOpened && b.id !== s.primaryBoxId)!;
      s = await owner.ok<DealOrNoDealState>('SelectBox', next.id);
    }
    expect(s.status).toBe(4);
    await visitor.waitFor<string>('PlaySound', (x) => x === 'ThinkingMusic');
    const sounds = visitor.events<string>('PlaySound');
    expect(sounds.filter((x) => x === 'BigCaseOpened' || x === 'SmallCaseOpened')).toHaveLength(6);
    expect(sounds.slice(-2)).toEqual(['BankerCalling', 'ThinkingMusic']);
    const dealt = await owner.ok<DealOrNoDealState>('AnswerOffer', true);
    expect(dealt).toMatchObject({ status: 6, ending: 'deal', winningAmount: s.currentOffer!.amount });
    await visitor.until(() => visitor.received.some((r) => r.event === 'StopSound'), 'StopSound');
    await visitor.waitFor<string>('PlaySound', (x) => x === 'DealMusic');
  });
});

describe('who may act', () => {
  it("refuses a spectator's and a visitor's calls, and changes nothing", async () => {
    const gameId = await createGame();
    const owner = await connect(gameId, olive);
    const spectator = await connect(gameId, sam);
    const visitor = await connect(gameId, null);
    const host = await connect(gameId, admin);
    for (const [c, message] of [
      [spectator, /Only the player/],
      [host, /Only the player/],
      [visitor, /sign in/i],
    ] as const) {
      for (const [call, arg] of [
        ['StartGame', undefined],
        ['SelectBox', 3],
        ['AnswerOffer', true],
        ['answerSwapOffer', true],
        ['Claim', undefined],
      ] as const) {
        const result = arg === undefined ? await c.call(call) : await c.call(call, arg);
        expect(result, `${call}`).toMatchObject({ ok: false });
        expect(!result.ok && result.error).toMatch(message);
      }
    }
    const state = await owner.ok<DealOrNoDealState>('GetGameState');
    expect(state).toMatchObject({ status: 1, version: 1 });
    expect(owner.events('GameStateChange')).toHaveLength(0);
  });

  it('refuses the primary box, an opened box, a box before the start and one outside 1–24', async () => {
    const gameId = await createGame();
    const owner = await connect(gameId, olive);
    expect(await owner.call('SelectBox', 5)).toEqual({ ok: false, error: 'The game has not started yet.' });
    await owner.ok('StartGame');
    await owner.ok('SelectBox', 5);
    expect(await owner.call('SelectBox', 5)).toEqual({ ok: false, error: 'That is your own box.' });
    await owner.ok('SelectBox', 6);
    expect(await owner.call('SelectBox', 6)).toEqual({ ok: false, error: 'That box is already open.' });
    expect(await owner.call('SelectBox', 25)).toMatchObject({ ok: false });
    expect(await owner.call('AnswerOffer', true)).toEqual({ ok: false, error: 'There is no offer to answer.' });
    expect(await owner.call('Claim')).toEqual({ ok: false, error: 'The game cannot be claimed.' });
    const state = await owner.ok<DealOrNoDealState>('GetGameState');
    expect(state).toMatchObject({ status: 3, remainingBoxCountToOffer: 5, version: 4 });
  });

  it('hides a private game from everyone but its player and admins', async () => {
    const gameId = await createGame({ isPrivate: true });
    expect(await (await connect(gameId, null)).ok('GetGameState')).toBeNull();
    const spectator = await connect(gameId, sam);
    expect(await spectator.ok('GetGameState')).toBeNull();
    expect(await spectator.call('SelectBox', 1)).toEqual({ ok: false, error: 'Game Is Private' });
    expect(await (await connect(gameId, olive)).ok('GetGameState')).toMatchObject({ isPrivate: true });
    expect(await (await connect(gameId, admin)).ok('GetGameState')).toMatchObject({ isPrivate: true });
    const v = await t.call({ method: 'GET', url: `/api/DealOrNoDeal/${gameId}/verification` });
    expect(v.statusCode).toBe(403);
  });

  it('answers an unknown game with 404 at the handshake and on REST', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    const c = new HubClient(url, dealOrNoDealHub, { query: { gameid: unknown } });
    clients.push(c);
    expect((await c.refused()).data?.code).toBe('not_found');
    expect((await t.call({ method: 'GET', url: `/api/DealOrNoDeal/${unknown}/verification` })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: `/api/DealOrNoDeal/${unknown}/cancel`, as: admin })).statusCode).toBe(
      404,
    );
  });
});

describe('admin cancel', () => {
  it('cancels a game that has not ended (7, every box open), refuses after, and is admin only', async () => {
    const gameId = await createGame();
    const watcher = await connect(gameId, null);
    const cancel = (as: TestUser) => t.call({ method: 'POST', url: `/api/DealOrNoDeal/${gameId}/cancel`, as });
    expect((await cancel(olive)).statusCode).toBe(403);
    const res = await cancel(admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 7 });
    await watcher.waitFor<DealOrNoDealState>('GameStateChange', (s) => s.status === 7 && s.seed !== null);
    expect((await cancel(admin)).statusCode).toBe(409);
  });

  it('lists recent games for admins with status, player and prize', async () => {
    const gameId = await createGame();
    const res = await t.call({ method: 'GET', url: '/api/DealOrNoDeal/recent', as: admin });
    expect(res.json()[0]).toMatchObject({ gameId, status: 1, player: 'Olive', prize: null });
    expect((await t.call({ method: 'GET', url: '/api/DealOrNoDeal/recent', as: sam })).statusCode).toBe(403);
  });
});

describe('the claim', () => {
  it('queues the prize exactly once under 20 concurrent claims, each behind the row lock', async () => {
    const gameId = await createGame();
    const tabs = await Promise.all([1, 2, 3].map(() => connect(gameId, olive)));
    const owner = tabs[0]!;
    await playToSwap(tabs, 24);
    const won = await owner.ok<DealOrNoDealState>('answerSwapOffer', false);
    await passDeadline(won);
    await owner.waitFor<DealOrNoDealState>('GameStateChange', (s) => s.status === 0);

    const racers = 20;
    const barrier = raceBarrier(racers);
    barrier.reset(gameId, 'live_games');
    t.app.games.hooks.afterLock = (tx) => barrier.arrive(tx);
    const sockets = await Promise.all(Array.from({ length: 4 }, () => connect(gameId, olive)));
    const results = await Promise.all(Array.from({ length: racers }, (_, i) => sockets[i % 4]!.call('Claim')));
    delete t.app.games.hooks.afterLock;

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.error)).toEqual(
      Array.from({ length: racers - 1 }, () => 'The game cannot be claimed.'),
    );
    expect(barrier.unlockedReads()).toEqual([]);
    const items = await t.database.db
      .select()
      .from(fulfilmentItems)
      .where(eq(fulfilmentItems.reference, `game:${gameId}`));
    expect(items).toHaveLength(1);
    expect(Number(items[0]!.amount)).toBe(won.winningAmount);
  });
});

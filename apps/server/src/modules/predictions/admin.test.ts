/**
 * The admin side of predictions: open (one live at a time, validation), lock, resolve with the
 * pari-mutuel payout, cancel with refunds, hide; each exactly once under concurrent calls; the
 * auto-lock deadline; who may call; the ledger invariant after all of it.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { predictionHub, type PredictionState } from '@kickback/common/hubs/prediction';
import { ledger } from '../../db/schema/ledger';
import { predictionSettlements } from '../../db/schema/predictions';
import { buildTestApp, type TestApp } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { raceBarrier } from '../../../test/race';
import { HubClient, listen } from '../../../test/hub-client';
import { ANSWERS, escrow, linkedChatter, openPrediction, say } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { describeRace } from '../../../test/race-database';

let t: TestApp;
const clients: HubClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const points = async (userId: string) => (await t.reload(userId)).points;
const post = (url: string, as: Parameters<TestApp['call']>[0]['as'], body?: unknown) =>
  t.call({ method: 'POST', url, as, ...(body !== undefined ? { body } : {}) });

describe('prediction admin', () => {
  it('resolves pari-mutuel: winners get stake + their share of the losers’ pool, rounded down, remainder recorded', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const a = await linkedChatter(t, '7001', { points: '1000' });
    const b = await linkedChatter(t, '7002', { points: '1000' });
    const c = await linkedChatter(t, '7003', { points: '1000' });
    const { id } = await openPrediction(t, admin);
    await say(t, a, '!bet 1 1');
    await say(t, b, '!bet 1 2');
    await say(t, c, '!bet 2 1');
    const res = await post(`/api/predictions/${id}/resolve`, admin, { answerId: 1 });
    expect(res.statusCode).toBe(200);
    const state = res.json<PredictionState>();
    expect(state).toMatchObject({ state: 2, resultAnswerId: 1, resultAnswer: 'Yes' });
    // Losers' pool 1.00 split 1:2 → 0.33 and 0.66, rounded down; 0.01 remains.
    expect(state.winnersResult).toEqual([
      { username: 'fan7002', points: 0.66 },
      { username: 'fan7001', points: 0.33 },
    ]);
    expect(state.losersResult).toEqual([{ username: 'fan7003', points: 1 }]);
    expect(await points(a.user.id)).toBe('1000.33');
    expect(await points(b.user.id)).toBe('1000.66');
    expect(await points(c.user.id)).toBe('999.00');
    const [settled] = await t.database.db
      .select()
      .from(predictionSettlements)
      .where(eq(predictionSettlements.predictionId, id));
    expect(settled).toMatchObject({ outcome: 'resolved', pool: '4.00', paid: '3.99', remainder: '0.01' });
    const wins = await t.database.db.select().from(ledger).where(eq(ledger.reason, 'prediction_win'));
    expect(wins.map((w) => [w.userId, w.delta]).sort()).toEqual(
      [
        [a.user.id, '1.33'],
        [b.user.id, '2.66'],
      ].sort(),
    );
    expect(await ledgerMismatches(t)).toEqual([]);

    // The admin list shows the pools and how it ended.
    const list = await t.call({ url: '/api/predictions', as: admin });
    expect(list.json()[0]).toMatchObject({
      id,
      status: 2,
      resultAnswerId: 1,
      pool: 4,
      paid: 3.99,
      remainder: 0.01,
      answers: [
        { id: 1, participantCount: 2, points: 3 },
        { id: 2, participantCount: 1, points: 1 },
        { id: 3, participantCount: 0, points: 0 },
      ],
    });

    // Hidden: the overlay sees 0; it cannot be hidden twice; a new prediction may open.
    expect((await post(`/api/predictions/${id}/hide`, admin)).json().state).toBe(0);
    expect((await post(`/api/predictions/${id}/hide`, admin)).statusCode).toBe(409);
    expect((await t.app.predictions.state()).state).toBe(0);
    await openPrediction(t, admin, { question: 'Next?' });
  });

  it('nobody on the winning answer: everyone is refunded', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const a = await linkedChatter(t, '7101', { points: '100' });
    const { id } = await openPrediction(t, admin);
    await say(t, a, '!bet 1 40');
    const state = (await post(`/api/predictions/${id}/resolve`, admin, { answerId: 3 })).json<PredictionState>();
    expect(state).toMatchObject({ state: 2, winnersResult: [], losersResult: [] });
    expect(await points(a.user.id)).toBe('100.00');
    const refunds = await t.database.db.select().from(ledger).where(eq(ledger.reason, 'prediction_refund'));
    expect(refunds.map((r) => r.delta)).toEqual(['40.00']);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a cancel gives every stake back', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const a = await linkedChatter(t, '7301', { points: '100' });
    const b = await linkedChatter(t, '7302', { points: '100' });
    const { id } = await openPrediction(t, admin);
    await say(t, a, '!bet 1 12.34');
    await say(t, b, '!bet 2 100');
    expect((await post(`/api/predictions/${id}/lock`, admin)).json().state).toBe(3);
    expect((await post(`/api/predictions/${id}/lock`, admin)).statusCode).toBe(409);
    const state = (await post(`/api/predictions/${id}/cancel`, admin)).json<PredictionState>();
    expect(state.state).toBe(4);
    expect(await points(a.user.id)).toBe('100.00');
    expect(await points(b.user.id)).toBe('100.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('one live prediction at a time; bad input 400; unknown id 404; a User 403; a visitor 401', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const user = await t.signIn();
    const { id } = await openPrediction(t, admin);
    const second = await post('/api/predictions', admin, { question: 'Two?', answers: ANSWERS });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: 'A prediction is already live: resolve or cancel it first.' });

    const bad = [
      { question: '', answers: ANSWERS },
      { question: 'q', answers: ANSWERS.slice(0, 1) },
      { question: 'q', answers: Array.from({ length: 11 }, () => ANSWERS[0]) },
      { question: 'q', answers: [{ text: 'a', color: 'red' }, ANSWERS[1]] },
      { question: 'q', answers: ANSWERS, minBet: 0 },
      { question: 'q', answers: ANSWERS, minBet: 20, maxBet: 10 },
      { question: 'q', answers: ANSWERS, maxBet: 1.234 },
      { question: 'q', answers: ANSWERS, autoLockAt: 'soon' },
    ];
    for (const body of bad) {
      const res = await post('/api/predictions', admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    await post(`/api/predictions/${id}/cancel`, admin);
    const past = await post('/api/predictions', admin, {
      question: 'q',
      answers: ANSWERS,
      autoLockAt: new Date(t.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ message: 'autoLockAt must be in the future.' });

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await post(`/api/predictions/${unknown}/lock`, admin)).statusCode).toBe(404);
    expect((await post(`/api/predictions/${unknown}/resolve`, admin, { answerId: 1 })).statusCode).toBe(404);
    expect((await post(`/api/predictions/not-an-id/lock`, admin)).statusCode).toBe(400);
    const { id: open } = await openPrediction(t, admin);
    expect((await post(`/api/predictions/${open}/resolve`, admin, { answerId: 9 })).statusCode).toBe(400);
    expect((await post(`/api/predictions/${open}/hide`, admin)).statusCode).toBe(409);

    for (const [as, code] of [
      [user, 403],
      [null, 401],
    ] as const) {
      expect((await t.call({ url: '/api/predictions', as })).statusCode).toBe(code);
      expect((await post('/api/predictions', as, { question: 'q', answers: ANSWERS })).statusCode).toBe(code);
      for (const action of ['lock', 'cancel', 'hide']) {
        expect((await post(`/api/predictions/${open}/${action}`, as)).statusCode).toBe(code);
      }
      expect((await post(`/api/predictions/${open}/resolve`, as, { answerId: 1 })).statusCode).toBe(code);
    }
    expect((await t.app.predictions.state()).state).toBe(1);
  });

  it('the auto-lock fires at its stored deadline; a bet after it is refused', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '7401', { points: '100' });
    const lockAt = new Date(t.clock.now().getTime() + 60_000);
    const { id } = await openPrediction(t, admin, { autoLockAt: lockAt.toISOString() });
    await say(t, fan, '!bet 1 10');
    t.clock.advance(59_000);
    expect(await t.app.timers.runDue()).toBe(0);
    expect((await t.app.predictions.state()).state).toBe(1);
    t.clock.advance(1_000);
    expect(await t.app.timers.runDue()).toBe(1);
    const state = await t.app.predictions.state();
    expect(state).toMatchObject({ id, state: 3, phaseEndsAt: null });
    await say(t, fan, '!bet 1 10');
    expect(await points(fan.user.id)).toBe('90.00');
  });

  it('the hub is public: GetState for a visitor, and coalesced ReceiveState as bets arrive', async () => {
    t = await buildTestApp();
    const url = await listen(t.app);
    const admin = await t.signIn({ role: 'Admin' });
    const overlay = new HubClient(url, predictionHub, { query: {} });
    clients.push(overlay);
    await overlay.connected();
    expect((await overlay.ok<PredictionState>('GetState')).state).toBe(0);
    const { id } = await openPrediction(t, admin);
    const opened = await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.id === id && s.state === 1);
    expect(opened.content).toBe('Will the streamer win?');

    const fans = [];
    for (let i = 0; i < 10; i++) fans.push(await linkedChatter(t, String(7500 + i), { points: '100' }));
    const before = overlay.events('ReceiveState').length;
    await Promise.all(fans.map((f, i) => say(t, f, `!bet ${1 + (i % 2)} 5`)));
    const counted = await overlay.waitFor<PredictionState>('ReceiveState', (s) =>
      s.answers.every((a, i) => a.participantCount === (i < 2 ? 5 : 0)),
    );
    expect(counted.version).toBeGreaterThan(opened.version);
    // Ten bets, far fewer frames: they were coalesced.
    expect(overlay.events('ReceiveState').length - before).toBeLessThan(10);

    await post(`/api/predictions/${id}/resolve`, admin, { answerId: 2 });
    const result = await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.state === 2);
    expect(result.winnersResult).toHaveLength(5);
    expect(result.losersResult).toHaveLength(5);
  });
});

describeRace('predictions: resolve, cancel and lock at once', () => {
  it('cancel refunds every stake; resolve, cancel and lock race and exactly one settles', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fans = [];
    for (let i = 0; i < 6; i++) fans.push(await linkedChatter(t, String(7200 + i), { points: '100' }));
    const { id } = await openPrediction(t, admin);
    for (const [i, fan] of fans.entries()) await say(t, fan, `!bet ${1 + (i % 2)} ${10 + i}`);
    // Each racer, right after reading the row, waits for the others: without the row lock all
    // would read it open; with it they queue (and on PGlite the lock's mark on the row shows).
    const barrier = raceBarrier(4);
    barrier.reset(id, 'live_games');
    t.app.games.hooks.afterLock = (tx, kind) => (kind === 'prediction' ? barrier.arrive(tx) : Promise.resolve());
    const calls = await Promise.all([
      post(`/api/predictions/${id}/cancel`, admin),
      post(`/api/predictions/${id}/resolve`, admin, { answerId: 1 }),
      post(`/api/predictions/${id}/cancel`, admin),
      post(`/api/predictions/${id}/resolve`, admin, { answerId: 2 }),
    ]);
    t.app.games.hooks.afterLock = undefined;
    expect(barrier.unlockedReads()).toEqual([]);
    const codes = calls.map((c) => c.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    expect(calls.find((c) => c.statusCode === 409)!.json()).toEqual({ message: 'The prediction is already settled.' });
    expect(await t.database.db.select().from(predictionSettlements)).toHaveLength(1);
    const credits = await t.database.db
      .select()
      .from(ledger)
      .where(eq(ledger.reference, `prediction:${id}`));
    const paidOut = credits.filter((c) => c.reason !== 'prediction_bet');
    expect(paidOut.length).toBeGreaterThan(0);
    expect(paidOut.length).toBeLessThanOrEqual(6);
    const total = paidOut.reduce((s, c) => s + Math.round(Number(c.delta) * 100), 0);
    // Cancel pays back all 75.00; a resolve pays 75.00 less at most a hundredth per winner.
    expect(total).toBeGreaterThanOrEqual(7500 - 3);
    expect(total).toBeLessThanOrEqual(7500);
    expect(await escrow(t)).toMatchObject({ stakes: '0.00' });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

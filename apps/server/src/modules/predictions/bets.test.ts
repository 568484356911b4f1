/**
 * `!bet` through the real webhook route with signed deliveries: bets escrowed through the ledger,
 * every refusal changing nothing, a redelivered message betting once, many concurrent bets never
 * overspending, and the ledger invariant after all of it.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ledger } from '../../db/schema/ledger';
import { predictionBets } from '../../db/schema/predictions';
import { buildTestApp, type TestApp } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { postDelivery, signedDelivery } from '../../../test/kick';
import { escrow, linkedChatter, openPrediction, repliesTo, say } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const points = async (userId: string) => (await t.reload(userId)).points;
const betsOf = (predictionId: string) =>
  t.database.db.select().from(predictionBets).where(eq(predictionBets.predictionId, predictionId));

describe('!bet from chat', () => {
  it('escrows a linked chatter’s points, adds to the same answer, answers in chat, and the state counts it', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '5001', { points: '2000' });
    const { id } = await openPrediction(t, admin);

    const first = await say(t, fan, '!bet 1 500');
    expect(first.res.statusCode).toBe(200);
    expect(await points(fan.user.id)).toBe('1500.00');
    expect(await repliesTo(t, first.messageId)).toEqual([
      '@kick5001 bet taken: 500 points on option 1. Balance: 1.5k.',
    ]);
    const again = await say(t, fan, '!bet 1 0.25k');
    expect(await repliesTo(t, again.messageId)).toEqual([
      '@kick5001 bet taken: 750 points on option 1. Balance: 1.2k.',
    ]);
    expect(await points(fan.user.id)).toBe('1250.00');
    const [bet] = await betsOf(id);
    expect(bet).toMatchObject({ answerId: 1, stake: '750.00', bets: 2, payout: null });

    const state = await t.app.predictions.state();
    expect(state.state).toBe(1);
    expect(state.answers.map((a) => [a.id, a.participantCount, a.points])).toEqual([
      [1, 1, 750],
      [2, 0, 0],
      [3, 0, 0],
    ]);
    const entries = await t.database.db
      .select({ delta: ledger.delta, reference: ledger.reference, memo: ledger.memo })
      .from(ledger)
      .where(and(eq(ledger.userId, fan.user.id), eq(ledger.reason, 'prediction_bet')));
    expect(entries).toEqual([
      { delta: '-500.00', reference: `prediction:${id}`, memo: 'Will the streamer win?' },
      { delta: '-250.00', reference: `prediction:${id}`, memo: 'Will the streamer win?' },
    ]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses every other case with a reply, and changes nothing', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '5101', { points: '1000' });
    const banned = await linkedChatter(t, '5102', { points: '1000', excluded: true });
    const stranger = { kickId: '5103', kickName: 'kick5103' };
    const { id } = await openPrediction(t, admin, { minBet: 10, maxBet: 600 });
    await say(t, fan, '!bet 2 100'); // the one accepted bet

    const refused: Array<[{ kickId: string; kickName: string }, string, string]> = [
      [fan, '!bet 1 100', 'you already bet on option 2: one answer per prediction.'],
      [fan, '!bet 4 100', 'there is no such option; use !bet [OPTION] [POINTS], for example !bet 1 500.'],
      [fan, '!bet 2 0', 'bet a positive number of points.'],
      [fan, '!bet 2 -50', 'bet a positive number of points.'],
      [fan, '!bet 2 lots', 'use !bet [OPTION] [POINTS], for example !bet 1 500.'],
      [fan, '!bet 2 1.001', 'use !bet [OPTION] [POINTS], for example !bet 1 500.'],
      [fan, '!bet 2', 'use !bet [OPTION] [POINTS], for example !bet 1 500.'],
      [fan, '!bet 2 5', 'the minimum bet is 10 points.'],
      [fan, '!bet 2 501', 'the maximum stake is 600 points per prediction.'],
      [fan, '!bet 2 1k', 'the maximum stake is 600 points per prediction.'],
      [banned, '!bet 1 100', 'this account cannot take part in predictions.'],
      [
        stranger,
        '!bet 1 100',
        'link your Kick account on Kickback first (type !verify with the code from your profile).',
      ],
    ];
    for (const [who, text, answer] of refused) {
      const { res, messageId } = await say(t, who, text);
      expect(res.statusCode, text).toBe(200);
      expect(await repliesTo(t, messageId), text).toEqual([`@${who.kickName} ${answer}`]);
    }

    // Over the balance (within the maximum): a poorer fan.
    const poor = await linkedChatter(t, '5104', { points: '50' });
    const over = await say(t, poor, '!bet 1 50.01');
    expect(await repliesTo(t, over.messageId)).toEqual(['@kick5104 not enough points (balance: 50).']);

    // Closed: after the lock nothing is taken.
    expect((await t.call({ method: 'POST', url: `/api/predictions/${id}/lock`, as: admin })).statusCode).toBe(200);
    const closed = await say(t, fan, '!bet 2 100');
    expect(await repliesTo(t, closed.messageId)).toEqual(['@kick5101 no prediction is taking bets right now.']);

    expect(await points(fan.user.id)).toBe('900.00');
    expect(await points(banned.user.id)).toBe('1000.00');
    expect(await points(poor.user.id)).toBe('50.00');
    expect((await betsOf(id)).map((b) => [b.userId, b.answerId, b.stake])).toEqual([[fan.user.id, 2, '100.00']]);
    expect(await escrow(t)).toEqual({ stakes: '100.00', ledgerNet: '100.00', bets: 1 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('with no prediction open, a bet is refused', async () => {
    t = await buildTestApp();
    const fan = await linkedChatter(t, '5201', { points: '100' });
    const { messageId } = await say(t, fan, '!bet 1 10');
    expect(await repliesTo(t, messageId)).toEqual(['@kick5201 no prediction is taking bets right now.']);
    expect(await points(fan.user.id)).toBe('100.00');
  });

  it('a redelivered message bets once (same delivery, or a new delivery of the same chat message)', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '5301', { points: '1000' });
    const { id } = await openPrediction(t, admin);
    const { payload } = await say(t, fan, '!bet 3 200');
    const redelivered = await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }));
    expect(redelivered.statusCode).toBe(200);
    const delivery = signedDelivery(payload, { at: t.clock.now() });
    await postDelivery(t, delivery);
    // Kick redelivers at least once: the same delivery again is acknowledged (2xx) and does nothing.
    const again = await postDelivery(t, delivery);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await points(fan.user.id)).toBe('800.00');
    expect((await betsOf(id)).map((b) => [b.stake, b.bets])).toEqual([['200.00', 1]]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('500 concurrent bets from 100 chatters never overspend: no negative balance, escrow = sum of stakes', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const fans = [];
    for (let i = 0; i < 100; i++) fans.push(await linkedChatter(t, String(6000 + i), { points: '100' }));
    await openPrediction(t, admin);
    // Each fan sends 5 bets of 30 on their own answer: only 3 fit in 100 points.
    const sends = fans.flatMap((fan, i) => Array.from({ length: 5 }, () => say(t, fan, `!bet ${1 + (i % 3)} 30`)));
    const results = await Promise.all(sends);
    expect(results.every((r) => r.res.statusCode === 200)).toBe(true);
    // Every refusal is the ledger's clean "not enough points", never a failing handler.
    const answers = (await Promise.all(results.map((r) => repliesTo(t, r.messageId)))).map(
      (r) =>
        r
          .join()
          .replace(/^@kick\d+ /, '')
          .split(':')[0],
    );
    expect(answers.filter((a) => a === 'bet taken')).toHaveLength(300);
    expect(answers.filter((a) => a === 'not enough points (balance')).toHaveLength(200);
    for (const fan of fans) expect(await points(fan.user.id)).toBe('10.00');
    expect(await escrow(t)).toEqual({ stakes: '9000.00', ledgerNet: '9000.00', bets: 300 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

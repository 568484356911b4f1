/** My activity's predictions: every bettor sees the result — won, lost, refunded or cancelled. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { linkedChatter, openPrediction, say } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const mine = async (who: TestUser) => {
  const res = await t.call({ url: '/api/me/predictions', as: who });
  expect(res.statusCode).toBe(200);
  return res.json<{ items: Array<Record<string, unknown>>; total: number }>();
};

describe('GET /api/me/predictions', () => {
  it('shows each bettor the result: the winner paid, the loser lost the stake, a cancelled one refunded', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const winner = await linkedChatter(t, '8101', { points: '1000' });
    const loser = await linkedChatter(t, '8102', { points: '1000' });
    const first = await openPrediction(t, admin, { question: 'First blood?' });
    await say(t, winner, '!bet 1 100');
    await say(t, loser, '!bet 2 50');
    expect((await mine(loser)).items).toEqual([
      expect.objectContaining({
        id: first.id,
        question: 'First blood?',
        answer: 'No',
        stake: 50,
        result: 'open',
        payout: null,
      }),
    ]);

    const act = (path: string, body?: unknown) =>
      t.call({ method: 'POST', url: `/api/predictions/${first.id}/${path}`, as: admin, body: body ?? {} });
    expect((await act('lock')).statusCode).toBe(200);
    expect((await act('resolve', { answerId: 1 })).statusCode).toBe(200);
    expect((await mine(loser)).items).toEqual([
      expect.objectContaining({ answer: 'No', stake: 50, result: 'lost', payout: 0, settledAt: expect.any(String) }),
    ]);
    expect((await mine(winner)).items).toEqual([
      expect.objectContaining({ answer: 'Yes', stake: 100, result: 'won', payout: 150 }),
    ]);

    t.clock.advance(60_000);
    const second = await openPrediction(t, admin, { question: 'Second round?' });
    await say(t, loser, '!bet 3 20');
    expect(
      (await t.call({ method: 'POST', url: `/api/predictions/${second.id}/cancel`, as: admin, body: {} })).statusCode,
    ).toBe(200);
    const page = await mine(loser);
    expect(page.total).toBe(2);
    expect(page.items.map((i) => [i.question, i.result, i.payout])).toEqual([
      ['Second round?', 'cancelled', 20],
      ['First blood?', 'lost', 0],
    ]);
    // Only one's own bets, and only signed in.
    expect((await mine(admin)).items).toEqual([]);
    expect((await t.call({ url: '/api/me/predictions' })).statusCode).toBe(401);
  });
});

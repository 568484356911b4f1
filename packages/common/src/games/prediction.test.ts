import { describe, expect, it } from 'vitest';
import {
  abbreviatePoints,
  cancel,
  checkBet,
  hide,
  lock,
  newPrediction,
  onDeadline,
  parseBet,
  payPool,
  refundAll,
  resolve,
  visibleStatus,
  type PredictionGame,
  type Stake,
} from './prediction';

const T0 = 1_000_000;
const answers = [
  { id: 1, text: 'Yes', color: '#22c55e' },
  { id: 2, text: 'No', color: '#ef4444' },
  { id: 3, text: 'Maybe', color: '#3b82f6' },
];
const open = (over: Partial<PredictionGame> = {}): PredictionGame => ({
  ...newPrediction({ question: 'Win?', answers, autoLockAt: null, minBetCents: null, maxBetCents: null, now: T0 }),
  ...over,
});
const game = (o: { ok: boolean }) => {
  if (!('game' in o)) throw new Error('refused');
  return (o as { game: PredictionGame }).game;
};

/** A small seeded generator, so the property runs are the same every time. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('pari-mutuel payout', () => {
  it('pays each winner the stake plus the losers pool in proportion, rounded down, remainder kept', () => {
    const stakes: Stake[] = [
      { userId: 'a', answerId: 1, cents: 100n },
      { userId: 'b', answerId: 1, cents: 200n },
      { userId: 'c', answerId: 2, cents: 100n },
    ];
    const r = payPool(stakes, 1);
    // losers 100 split 1:2 → 33.33… and 66.66…: floored to 33 and 66, 1 hundredth left.
    expect(r.payouts.map((p) => [p.userId, p.payoutCents])).toEqual([
      ['a', 133n],
      ['b', 266n],
      ['c', 0n],
    ]);
    expect(r).toMatchObject({ poolCents: 400n, paidCents: 399n, remainderCents: 1n, refunded: false });
  });

  it('a single winner takes the whole pool', () => {
    const r = payPool(
      [
        { userId: 'a', answerId: 2, cents: 5_000n },
        { userId: 'b', answerId: 1, cents: 777n },
        { userId: 'c', answerId: 3, cents: 1n },
      ],
      2,
    );
    expect(r.payouts.find((p) => p.userId === 'a')!.payoutCents).toBe(5_778n);
    expect(r.remainderCents).toBe(0n);
  });

  it('nobody on the winning answer: everyone is refunded', () => {
    const stakes = [
      { userId: 'a', answerId: 1, cents: 100n },
      { userId: 'b', answerId: 2, cents: 250n },
    ];
    const r = payPool(stakes, 3);
    expect(r.refunded).toBe(true);
    expect(r.payouts.map((p) => p.payoutCents)).toEqual([100n, 250n]);
    expect(r.remainderCents).toBe(0n);
  });

  it('everyone on one side: the winners get exactly their stakes back', () => {
    const r = payPool(
      [
        { userId: 'a', answerId: 1, cents: 100n },
        { userId: 'b', answerId: 1, cents: 3n },
      ],
      1,
    );
    expect(r.payouts.map((p) => p.payoutCents)).toEqual([100n, 3n]);
    expect(r).toMatchObject({ refunded: false, remainderCents: 0n, paidCents: 103n });
  });

  it('everyone on the losing side: nobody is paid… so everyone is refunded', () => {
    const r = payPool([{ userId: 'a', answerId: 2, cents: 100n }], 1);
    expect(r.refunded).toBe(true);
    expect(r.paidCents).toBe(100n);
  });

  it('an empty pool pays nothing', () => {
    expect(payPool([], 1)).toMatchObject({ poolCents: 0n, paidCents: 0n, remainderCents: 0n });
  });

  it('cancel refunds every stake', () => {
    const stakes = [
      { userId: 'a', answerId: 1, cents: 1n },
      { userId: 'b', answerId: 2, cents: 99_999n },
    ];
    expect(refundAll(stakes).payouts.map((p) => p.payoutCents)).toEqual([1n, 99_999n]);
  });

  it('over random pools: payouts + remainder = pool, no winner below stake, always rounded down', () => {
    const next = rng(15);
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(next() * 40);
      const stakes: Stake[] = Array.from({ length: n }, (_, i) => ({
        userId: `u${i}`,
        answerId: 1 + Math.floor(next() * 3),
        cents: 1n + BigInt(Math.floor(next() * 1_000_000)),
      }));
      const winning = 1 + Math.floor(next() * 3);
      const r = payPool(stakes, winning);
      const pool = stakes.reduce((s, b) => s + b.cents, 0n);
      expect(r.paidCents + r.remainderCents).toBe(pool);
      expect(r.payouts.reduce((s, p) => s + p.payoutCents, 0n)).toBe(r.paidCents);
      const winners = stakes.filter((s) => s.answerId === winning);
      const winnersPool = winners.reduce((s, b) => s + b.cents, 0n);
      if (winnersPool === 0n) {
        expect(r.refunded).toBe(true);
        continue;
      }
      expect(r.remainderCents).toBeGreaterThanOrEqual(0n);
      expect(r.remainderCents).toBeLessThan(BigInt(winners.length));
      for (const p of r.payouts) {
        if (p.answerId !== winning) {
          expect(p.payoutCents).toBe(0n);
          continue;
        }
        expect(p.payoutCents).toBeGreaterThanOrEqual(p.stakeCents);
        // Rounded down: the exact share (payout − stake) × winnersPool ≤ losers × stake < (share + 1) × winnersPool.
        const exact = (pool - winnersPool) * p.stakeCents;
        const share = p.payoutCents - p.stakeCents;
        expect(share * winnersPool <= exact && exact < (share + 1n) * winnersPool).toBe(true);
      }
    }
  });
});

describe('transitions', () => {
  it('lock, resolve, hide; a settled prediction does not lock, resolve or cancel again', () => {
    const locked = game(lock(open()));
    expect(locked.status).toBe(3);
    const resolved = resolve(locked, 2);
    expect(resolved).toMatchObject({ ok: true, settlement: { kind: 'resolve', answerId: 2 } });
    const done = game(resolved);
    expect(done).toMatchObject({ status: 2, resultAnswerId: 2 });
    expect(resolve(done, 1)).toEqual({ ok: false, error: 'not_open' });
    expect(cancel(done)).toEqual({ ok: false, error: 'not_open' });
    expect(lock(done)).toEqual({ ok: false, error: 'not_open' });
    const hidden = game(hide(done));
    expect(visibleStatus(hidden)).toBe(0);
    expect(hide(hidden)).toEqual({ ok: false, error: 'already_hidden' });
  });

  it('resolve refuses an answer that is not there; hide refuses an open prediction', () => {
    expect(resolve(open(), 4)).toEqual({ ok: false, error: 'unknown_answer' });
    expect(hide(open())).toEqual({ ok: false, error: 'not_settled' });
  });

  it('cancel from active or locked refunds', () => {
    expect(cancel(open())).toMatchObject({ ok: true, settlement: { kind: 'refund' }, game: { status: 4 } });
    expect(cancel(game(lock(open())))).toMatchObject({ ok: true, game: { status: 4 } });
  });

  it('the auto-lock locks at its deadline, and is a no-op once the prediction moved on', () => {
    const g = newPrediction({
      question: 'q',
      answers,
      autoLockAt: T0 + 60_000,
      minBetCents: null,
      maxBetCents: null,
      now: T0,
    });
    expect(onDeadline(g, { version: 1, now: T0 + 1 })).toEqual({ ok: false, error: 'not_due' });
    expect(onDeadline(g, { version: 1, now: T0 + 60_000 })).toMatchObject({ ok: true, game: { status: 3 } });
    const cancelled = game(cancel(g));
    expect(onDeadline(cancelled, { version: 1, now: T0 + 60_000 })).toEqual({ ok: false, error: 'stale_deadline' });
  });
});

describe('bets', () => {
  const g = open({ minBetCents: 1_000n, maxBetCents: 50_000n });
  it('takes a bet on an open answer and adds to the same answer within the maximum', () => {
    expect(checkBet(g, { answerId: 1, cents: 1_000n }, null)).toBeNull();
    expect(checkBet(g, { answerId: 1, cents: 1_000n }, { answerId: 1, stakeCents: 49_000n })).toBeNull();
  });
  it('refuses every other case', () => {
    expect(checkBet(g, { answerId: 2, cents: 1_000n }, { answerId: 1, stakeCents: 1_000n })).toBe('other_answer');
    expect(checkBet(g, { answerId: 4, cents: 1_000n }, null)).toBe('unknown_answer');
    expect(checkBet(g, { answerId: 1, cents: 0n }, null)).toBe('not_positive');
    expect(checkBet(g, { answerId: 1, cents: 999n }, null)).toBe('below_min');
    expect(checkBet(g, { answerId: 1, cents: 2_000n }, { answerId: 1, stakeCents: 49_000n })).toBe('above_max');
    expect(checkBet(game(lock(g)), { answerId: 1, cents: 1_000n }, null)).toBe('not_active');
  });
});

describe('!bet syntax', () => {
  it('reads option and points, with the k abbreviation', () => {
    expect(parseBet('!bet 1 500')).toEqual({ ok: true, option: 1, cents: 50_000n });
    expect(parseBet('  !BET   2   12.5 ')).toEqual({ ok: true, option: 2, cents: 1_250n });
    expect(parseBet('!bet 1 1.5k')).toEqual({ ok: true, option: 1, cents: 150_000n });
    expect(parseBet('!bet 1 2K')).toEqual({ ok: true, option: 1, cents: 200_000n });
    expect(parseBet('!bet 1 0.00001k')).toEqual({ ok: true, option: 1, cents: 1n });
  });
  it('is not a bet at all without !bet', () => {
    expect(parseBet('hello !bet 1 5')).toBeNull();
    expect(parseBet('!bets 1 5')).toBeNull();
  });
  it('refuses malformed and non-positive amounts', () => {
    for (const text of [
      '!bet',
      '!bet 1',
      '!bet 1 5 6',
      '!bet x 5',
      '!bet 1 five',
      '!bet 1 1,000',
      '!bet 1 0.001',
      '!bet 1 1.000001k',
      '!bet 1 5kk',
      '!bet 1 1e3',
    ]) {
      expect(parseBet(text), text).toEqual({ ok: false, error: 'malformed' });
    }
    for (const text of ['!bet 1 0', '!bet 1 -5', '!bet 1 0k', '!bet 1 +5']) {
      expect(parseBet(text), text).toEqual({ ok: false, error: 'not_positive' });
    }
  });
});

describe('amounts over 1000 abbreviated with k and one decimal', () => {
  it('abbreviates, rounding down', () => {
    expect(abbreviatePoints(1000)).toBe('1000');
    expect(abbreviatePoints(1001)).toBe('1.0k');
    expect(abbreviatePoints(1550)).toBe('1.5k');
    expect(abbreviatePoints(12_345.67)).toBe('12.3k');
    expect(abbreviatePoints(-2500)).toBe('-2.5k');
    expect(abbreviatePoints(999.5)).toBe('999.5');
    expect(abbreviatePoints(12.25)).toBe('12.25');
  });
});

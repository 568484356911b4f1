import { describe, expect, it } from 'vitest';
import {
  bracketOf,
  cancel,
  close,
  currentMatch,
  enter,
  multiplierText,
  newBattle,
  onDeadline,
  record,
  replay,
  seat,
  setSlot,
  snapshotOf,
  voidMatch,
  winnerOf,
  decidedBy,
  type BattleGame,
  type BracketSize,
  type Outcome,
} from './battle';

const ok = (o: Outcome): BattleGame => {
  if (!o.ok) throw new Error(`refused: ${o.error}`);
  return o.game;
};
const error = (o: Outcome) => (o.ok ? 'ok' : o.error);

function battle(size: BracketSize = 8, endsAt = 1000) {
  return newBattle({
    title: 'Friday battle',
    size,
    rules: { siteId: null, minWager: null, subsOnly: false },
    prize: { kind: 'points', points: '500.00' },
    seed: 'seed',
    seedHash: 'hash',
    registrationEndsAt: endsAt,
  });
}

function withEntrants(n: number, size: BracketSize = 8): BattleGame {
  let g = battle(size);
  for (let i = 1; i <= n; i++) g = ok(enter(g, { userId: `u${i}`, username: `user${i}`, now: 0 }));
  return g;
}

/** Closed and seated in entry order (u1, u2, …), or the given order. */
function playing(n: number, size: BracketSize = 8, order?: string[]): BattleGame {
  const closed = ok(close(withEntrants(n, size)));
  const field = order ?? closed.entrants.slice(0, size).map((e) => e.userId);
  return ok(seat(closed, { snapshotHash: 'h', now: 5, order: field }));
}

const buy = (cost: string, win: string) => ({ cost, win });

describe('registration', () => {
  it('takes each user once, in entry order, until the deadline', () => {
    let g = withEntrants(2);
    expect(g.entrants.map((e) => [e.userId, e.seq])).toEqual([
      ['u1', 1],
      ['u2', 2],
    ]);
    expect(error(enter(g, { userId: 'u1', username: 'user1', now: 0 }))).toBe('already_entered');
    expect(error(enter(g, { userId: 'u3', username: 'user3', now: 1000 }))).toBe('registration_over');
    g = ok(close(g));
    expect(g.status).toBe('closed');
    expect(g.snapshot).toBe(snapshotOf(g.entrants));
    expect(error(enter(g, { userId: 'u3', username: 'user3', now: 0 }))).toBe('not_registration');
  });

  it('closes at the deadline of its own version only, and cancels with fewer than two entrants', () => {
    const g = withEntrants(2);
    expect(error(onDeadline(g, { version: 1, now: 999 }))).toBe('not_due');
    expect(error(onDeadline(g, { version: 0, now: 2000 }))).toBe('stale_deadline');
    const closed = onDeadline(g, { version: 1, now: 1000 });
    expect(closed.ok && closed.game.status).toBe('closed');
    expect(closed.ok && closed.settlement).toEqual({ kind: 'closed' });
    const lonely = ok(close(withEntrants(1)));
    expect(lonely.status).toBe('cancelled');
  });

  it('lets an entrant set a slot; a non-entrant may not', () => {
    const g = ok(setSlot(withEntrants(2), 'u1', 'Gates of Olympus'));
    expect(g.entrants[0]!.slot).toBe('Gates of Olympus');
    expect(error(setSlot(g, 'nobody', 'Sugar Rush'))).toBe('not_entrant');
    const same = setSlot(g, 'u1', 'Gates of Olympus');
    expect(same.ok && same.game).toBe(g);
  });
});

describe('the draw seats the bracket', () => {
  it('refuses a draw that is not the field of the frozen list', () => {
    const closed = ok(close(withEntrants(9)));
    expect(error(seat(closed, { snapshotHash: 'h', now: 5, order: ['u1', 'u2'] }))).toBe('bad_draw');
    expect(
      error(seat(closed, { snapshotHash: 'h', now: 5, order: ['u1', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'] })),
    ).toBe('bad_draw');
    expect(
      error(seat(closed, { snapshotHash: 'h', now: 5, order: ['x', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'] })),
    ).toBe('bad_draw');
    const g = ok(seat(closed, { snapshotHash: 'h', now: 5, order: ['u9', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'] }));
    expect(g.status).toBe('playing');
    // First half on the left of each match, the rest on the right.
    expect(g.seats).toEqual(['u9', 'u5', 'u2', 'u6', 'u3', 'u7', 'u4', 'u8']);
    expect(error(seat(g, { snapshotHash: 'h', now: 5, order: g.drawn! }))).toBe('not_closed');
  });

  it('gives byes to a short field and plays on past them', () => {
    const g = playing(5);
    const m = bracketOf(g);
    expect(m.slice(0, 4).map((x) => x.state)).toEqual(['ready', 'bye', 'bye', 'bye']);
    expect(m[1]!.winner).toBe('u2');
    expect(currentMatch(g)!.no).toBe(0);
  });
});

describe('matches', () => {
  it('advances the higher multiplier, exactly, and pays the winner of the final once', () => {
    let g = playing(4, 4);
    // u1 vs u3, u2 vs u4 (first half left, second half right).
    expect(currentMatch(g)).toMatchObject({ no: 0, a: 'u1', b: 'u3' });
    g = ok(record(g, { matchNo: 0, a: buy('100', '333.33'), b: buy('300', '999.98') }));
    // 3.3333× against 3.33326…×: u1 by a hair.
    expect(bracketOf(g)[0]!.winner).toBe('u1');
    g = ok(record(g, { matchNo: 1, a: buy('50', '0'), b: buy('50', '10') }));
    expect(currentMatch(g)).toMatchObject({ no: 2, a: 'u1', b: 'u4' });
    const final = record(g, { matchNo: 2, a: buy('20', '40'), b: buy('20', '41') });
    expect(final.ok && final.game.status).toBe('finished');
    expect(final.ok && final.game.winnerId).toBe('u4');
    expect(final.ok && final.settlement).toEqual({ kind: 'finished', winnerId: 'u4' });
    expect(error(record(ok(final), { matchNo: 2, a: buy('1', '1'), b: buy('1', '2') }))).toBe('not_playing');
  });

  it('breaks ties by the higher win, then the earlier entry', () => {
    expect(winnerOf(buy('10', '20'), buy('20', '40'), 1, 2)).toBe('b');
    expect(winnerOf(buy('10', '20'), buy('10', '20'), 2, 1)).toBe('b');
    expect(winnerOf(buy('10', '0'), buy('20', '0'), 1, 2)).toBe('a');
    expect(multiplierText(buy('3', '10'))).toBe('3.33');
  });

  it('says what decided a match: the exact multipliers (even when they round alike), else the win, else the entry', () => {
    expect(decidedBy(buy('10', '400'), buy('10', '300'))).toBe('multiplier');
    // 40.00× each when rounded, but 40.004 against 40.001: the multiplier still decides.
    expect(multiplierText(buy('1000', '40004'))).toBe(multiplierText(buy('1000', '40001')));
    expect(decidedBy(buy('1000', '40004'), buy('1000', '40001'))).toBe('multiplier');
    expect(decidedBy(buy('100', '4000'), buy('50', '2000'))).toBe('win');
    expect(decidedBy(buy('100', '4000'), buy('100', '4000'))).toBe('entry');
  });

  it('refuses results for a match not in play and absurd amounts, changing nothing', () => {
    const g = playing(8);
    expect(error(record(g, { matchNo: 1, a: buy('1', '1'), b: buy('1', '1') }))).toBe('not_in_play');
    expect(error(record(g, { matchNo: 99, a: buy('1', '1'), b: buy('1', '1') }))).toBe('not_in_play');
    expect(error(record(g, { matchNo: 0, a: buy('0', '1'), b: buy('1', '1') }))).toBe('bad_result');
    expect(error(record(g, { matchNo: 0, a: buy('-5', '1'), b: buy('1', '1') }))).toBe('bad_result');
    expect(error(record(g, { matchNo: 0, a: buy('1', '-1'), b: buy('1', '1') }))).toBe('bad_result');
    expect(error(record(g, { matchNo: 0, a: buy('1', '99999999999'), b: buy('1', '1') }))).toBe('bad_result');
    expect(error(record(g, { matchNo: 0, a: buy('1', 'abc'), b: buy('1', '1') }))).toBe('bad_result');
    expect(error(record(withEntrants(2), { matchNo: 0, a: buy('1', '1'), b: buy('1', '1') }))).toBe('not_playing');
  });

  it('keeps the slots a match was played with', () => {
    let g = ok(setSlot(playing(4, 4), 'u1', 'Sugar Rush'));
    g = ok(record(g, { matchNo: 0, a: buy('1', '2'), b: buy('1', '1') }));
    expect(g.outcomes[0]).toMatchObject({ slotA: 'Sugar Rush', slotB: null });
    expect(error(setSlot(g, 'u1', 'Other'))).toBe('slot_locked');
    expect(ok(setSlot(g, 'u2', 'Other')).entrants[1]!.slot).toBe('Other');
  });

  it('replays a match until the match it feeds is recorded', () => {
    let g = playing(4, 4);
    g = ok(record(g, { matchNo: 0, a: buy('1', '2'), b: buy('1', '1') }));
    expect(error(replay(g, 1))).toBe('not_replayable');
    g = ok(replay(g, 0));
    expect(currentMatch(g)!.no).toBe(0);
    g = ok(record(g, { matchNo: 0, a: buy('1', '1'), b: buy('1', '2') }));
    g = ok(record(g, { matchNo: 1, a: buy('1', '2'), b: buy('1', '1') }));
    expect(currentMatch(g)).toMatchObject({ no: 2, a: 'u3', b: 'u2' });
    expect(error(replay(g, 5))).toBe('not_replayable');
    expect(ok(replay(g, 1)).outcomes[1]).toBeNull();
    g = ok(record(g, { matchNo: 2, a: buy('1', '2'), b: buy('1', '1') }));
    expect(error(replay(g, 0))).toBe('already_over');
  });

  it('voids a match: nobody goes on from it, the other side walks over', () => {
    let g = playing(4, 4);
    g = ok(voidMatch(g, 0, 'no-show'));
    expect(bracketOf(g)[0]!.state).toBe('void');
    expect(error(voidMatch(g, 2, 'x'))).toBe('not_in_play');
    const last = record(g, { matchNo: 1, a: buy('1', '2'), b: buy('1', '1') });
    // The final is a walkover for the winner of match 1: the battle is over and paid.
    expect(last.ok && last.game.status).toBe('finished');
    expect(last.ok && last.settlement).toEqual({ kind: 'finished', winnerId: 'u2' });
    expect(error(replay(ok(last), 1))).toBe('already_over');
  });

  it('a voided final pays nobody', () => {
    let g = playing(2, 4);
    expect(currentMatch(g)!.no).toBe(2);
    const o = voidMatch(g, 2, 'stream crashed');
    expect(o.ok && o.game.status).toBe('finished');
    expect(o.ok && o.settlement).toEqual({ kind: 'finished', winnerId: null });
    g = ok(o);
    expect(g.winnerId).toBeNull();
  });

  it('plays a full 32 bracket to a single winner', () => {
    let g = playing(32, 32);
    for (let n = 0; n < 31; n++) {
      const m = currentMatch(g)!;
      expect(m.no).toBe(n);
      g = ok(record(g, { matchNo: m.no, a: buy('10', String(n + 1)), b: buy('10', '0') }));
    }
    expect(g.status).toBe('finished');
    expect(g.winnerId).toBe('u1');
  });

  it('cancels anything not over', () => {
    expect(ok(cancel(withEntrants(3), 'test')).status).toBe('cancelled');
    expect(error(cancel(ok(cancel(withEntrants(3), 'x')), 'y'))).toBe('already_over');
  });
});

import { describe, expect, it } from 'vitest';
import {
  answerContextFor,
  cancel,
  canJoin,
  choiceOf,
  dealAnswers,
  isFinal,
  join,
  newGame,
  onDeadline,
  select,
  settle,
  SPLIT,
  SplitOrStealStatus as S,
  statusText,
  STEAL,
  type Answer,
  type Ball,
  type Outcome,
  type Pair,
  type Slot,
  type SplitOrStealGame,
} from './split-or-steal';

const A = 'user-a';
const B = 'user-b';
const C = 'user-c';
const T0 = 1_000_000;
const allStatuses = [0, 1, 2, 3, 4, 5, 6] as const;

function game(over: Partial<SplitOrStealGame> = {}): SplitOrStealGame {
  return {
    ...newGame({
      rewardCents: 1000n,
      counterInSeconds: 10,
      designated: [null, null],
      answers: dealAnswers(false, false),
    }),
    ...over,
  };
}

function ok(outcome: Outcome): Extract<Outcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error}`);
  return outcome;
}

/** A game in the choosing phase with A in slot 1 and B in slot 2. */
function choosing(over: Partial<SplitOrStealGame> = {}): SplitOrStealGame {
  const started = ok(join(ok(join(game(over), { slot: 1, userId: A, now: T0 })).game, { slot: 2, userId: B, now: T0 }));
  return ok(onDeadline(started.game, { version: started.game.phaseVersion!, now: T0 + 3000 })).game;
}

describe('newGame', () => {
  it('starts waiting for both players at version 1 with nothing chosen', () => {
    const g = game();
    expect(g).toMatchObject({
      status: S.WaitingForPlayers,
      version: 1,
      players: [null, null],
      selections: [null, null],
    });
    expect(g.winnings).toEqual([null, null]);
    expect(g.phaseEndsAt).toBeNull();
  });

  it.each([
    [{ rewardCents: 0n }, /reward/],
    [{ rewardCents: -5n }, /reward/],
    [{ counterInSeconds: 4 }, /Game time/],
    [{ counterInSeconds: 301 }, /Game time/],
    [{ counterInSeconds: 7.5 }, /Game time/],
    [{ designated: [A, A] as const }, /both slots/],
  ])('refuses %o', (over, message) => {
    expect(() =>
      newGame({
        rewardCents: 100n,
        counterInSeconds: 10,
        designated: [null, null],
        answers: dealAnswers(false, true),
        ...over,
      }),
    ).toThrow(message);
  });

  it('deals one Split and one Steal to each player, in the order the coin says', () => {
    expect(dealAnswers(false, false)).toEqual([
      [SPLIT, STEAL],
      [SPLIT, STEAL],
    ]);
    expect(dealAnswers(true, false)).toEqual([
      [STEAL, SPLIT],
      [SPLIT, STEAL],
    ]);
    expect(dealAnswers(false, true)).toEqual([
      [SPLIT, STEAL],
      [STEAL, SPLIT],
    ]);
  });
});

describe('join', () => {
  it('fills the seats: 0 → 2 (waiting for Player 2) → 6 with a 3-second deadline', () => {
    const one = ok(join(game(), { slot: 1, userId: A, now: T0 }));
    expect(one.game).toMatchObject({ status: S.WaitingForPlayer2, version: 2, players: [A, null] });
    expect(one.deadline).toBeNull();
    const two = ok(join(one.game, { slot: 2, userId: B, now: T0 + 500 }));
    expect(two.game).toMatchObject({
      status: S.Starting,
      version: 3,
      players: [A, B],
      phaseEndsAt: T0 + 3500,
      phaseVersion: 3,
    });
    expect(two.deadline).toBe(T0 + 3500);
  });

  it('fills the seats the other way: 0 → 1 (waiting for Player 1) → 6', () => {
    const one = ok(join(game(), { slot: 2, userId: B, now: T0 }));
    expect(one.game.status).toBe(S.WaitingForPlayer1);
    expect(ok(join(one.game, { slot: 1, userId: A, now: T0 })).game.status).toBe(S.Starting);
  });

  it('is allowed only while seats are filling (0, 1, 2)', () => {
    for (const status of allStatuses) {
      const g = game({ status });
      const result = join(g, { slot: 1, userId: A, now: T0 });
      expect(result.ok, `status ${status}`).toBe(status <= 2);
      if (!result.ok) expect(result.error).toBe('not_joinable');
    }
  });

  it('refuses a taken slot, a second seat for the same user, and reserved slots to others', () => {
    const seated = ok(join(game(), { slot: 1, userId: A, now: T0 })).game;
    expect(join(seated, { slot: 1, userId: B, now: T0 })).toEqual({ ok: false, error: 'slot_taken' });
    expect(join(seated, { slot: 2, userId: A, now: T0 })).toEqual({ ok: false, error: 'already_seated' });

    const reserved = game({ designated: [A, B] });
    expect(join(reserved, { slot: 1, userId: C, now: T0 })).toEqual({ ok: false, error: 'slot_reserved' });
    expect(join(reserved, { slot: 2, userId: A, now: T0 })).toEqual({ ok: false, error: 'slot_reserved' });
    expect(ok(join(reserved, { slot: 1, userId: A, now: T0 })).game.players).toEqual([A, null]);
  });

  it('keeps a designated user to their own slot even when the other one is open', () => {
    const g = game({ designated: [A, null] });
    expect(join(g, { slot: 2, userId: A, now: T0 })).toEqual({ ok: false, error: 'reserved_elsewhere' });
    expect(ok(join(g, { slot: 2, userId: C, now: T0 })).game.players).toEqual([null, C]);
    expect(join(g, { slot: 1, userId: C, now: T0 })).toEqual({ ok: false, error: 'slot_reserved' });
  });

  it('canJoin answers every combination of designation, seat and user consistently with join', () => {
    const designations: Pair<string | null>[] = [
      [null, null],
      [A, null],
      [null, A],
      [A, B],
      [B, A],
      [B, null],
    ];
    const seatings: Pair<string | null>[] = [
      [null, null],
      [A, null],
      [null, A],
      [B, null],
      [null, B],
      [C, null],
    ];
    for (const designated of designations) {
      for (const players of seatings) {
        const status = !players[0] && !players[1] ? 0 : !players[0] ? 1 : 2;
        const g = game({ designated, players, status });
        for (const slot of [1, 2] as Slot[]) {
          for (const user of [A, B, C]) {
            const why = canJoin(g, slot, user);
            const result = join(g, { slot, userId: user, now: T0 });
            expect(result.ok).toBe(why === null);
            if (!result.ok) expect(result.error).toBe(why);
            // Reasons in order: taken, already seated, reserved for someone else, reserved elsewhere.
            const expected = players[slot - 1]
              ? 'slot_taken'
              : players.includes(user)
                ? 'already_seated'
                : designated[slot - 1] && designated[slot - 1] !== user
                  ? 'slot_reserved'
                  : designated[slot === 1 ? 1 : 0] === user
                    ? 'reserved_elsewhere'
                    : null;
            expect(why, JSON.stringify({ designated, players, slot, user })).toBe(expected);
          }
        }
      }
    }
  });
});

describe('the timed phases', () => {
  it('6 → 3 at the start deadline, choosing for counterInSeconds from the moment it fires', () => {
    const start = ok(
      join(ok(join(game({ counterInSeconds: 15 }), { slot: 1, userId: A, now: T0 })).game, {
        slot: 2,
        userId: B,
        now: T0,
      }),
    );
    expect(onDeadline(start.game, { version: start.game.phaseVersion!, now: T0 + 2999 })).toEqual({
      ok: false,
      error: 'not_due',
    });
    const fired = ok(onDeadline(start.game, { version: start.game.phaseVersion!, now: T0 + 3040 }));
    expect(fired.game).toMatchObject({
      status: S.Choosing,
      phaseEndsAt: T0 + 3040 + 15_000,
      version: start.game.version + 1,
      phaseVersion: start.game.version + 1,
    });
    expect(fired.deadline).toBe(T0 + 18_040);
    expect(fired.settlement).toBeNull();
  });

  it('3 → 4 at the choosing deadline, with the winnings settled', () => {
    const g = choosing();
    expect(g.phaseVersion).toBe(g.version);
    const ended = ok(onDeadline(g, { version: g.phaseVersion!, now: g.phaseEndsAt! }));
    expect(ended.game.status).toBe(S.Ended);
    expect(ended.game.phaseEndsAt).toBeNull();
    expect(ended.deadline).toBeNull();
    expect(ended.settlement).toEqual({ choices: [SPLIT, SPLIT], winnings: [500n, 500n] });
    expect(ended.game.winnings).toEqual([500n, 500n]);
  });

  it('keeps the phase deadline valid while players change their picks (the version moves, the phase does not)', () => {
    const g = choosing();
    const picked = ok(
      select(ok(select(g, { userId: A, ball: 2, now: T0 + 4000 })).game, { userId: B, ball: 1, now: T0 + 4000 }),
    ).game;
    expect(picked.version).toBe(g.version + 2);
    expect(picked.phaseVersion).toBe(g.phaseVersion);
    expect(ok(onDeadline(picked, { version: g.phaseVersion!, now: g.phaseEndsAt! })).game.status).toBe(S.Ended);
  });

  it('ignores a deadline of an earlier phase (the game moved on) and fires nothing in other statuses', () => {
    const g = choosing();
    expect(onDeadline(g, { version: g.phaseVersion! - 1, now: g.phaseEndsAt! })).toEqual({
      ok: false,
      error: 'stale_deadline',
    });
    for (const status of [0, 1, 2, 4, 5] as const) {
      const other = { ...g, status };
      expect(onDeadline(other, { version: other.phaseVersion!, now: g.phaseEndsAt! + 1 }).ok, `status ${status}`).toBe(
        false,
      );
    }
    const cancelled = ok(cancel(g)).game;
    expect(cancelled.phaseVersion).toBeNull();
    for (const version of [g.version, cancelled.version]) {
      expect(onDeadline(cancelled, { version, now: g.phaseEndsAt! })).toEqual({ ok: false, error: 'stale_deadline' });
    }
    const ended = ok(onDeadline(g, { version: g.phaseVersion!, now: g.phaseEndsAt! })).game;
    expect(onDeadline(ended, { version: g.phaseVersion!, now: g.phaseEndsAt! + 5 })).toEqual({
      ok: false,
      error: 'stale_deadline',
    });
  });
});

describe('select', () => {
  it('lets a player pick and change their ball until the deadline, bumping the version', () => {
    const g = choosing();
    const picked = ok(select(g, { userId: A, ball: 2, now: T0 + 4000 })).game;
    expect(picked.selections).toEqual([2, null]);
    expect(picked.version).toBe(g.version + 1);
    const changedMind = ok(select(picked, { userId: A, ball: 1, now: T0 + 5000 })).game;
    expect(changedMind.selections).toEqual([1, null]);
    const same = ok(select(changedMind, { userId: A, ball: 1, now: T0 + 5000 }));
    expect(same.game).toBe(changedMind); // nothing changed: no new version
  });

  it('only for seated players, only in status 3, only before the deadline', () => {
    const g = choosing();
    expect(select(g, { userId: C, ball: 1, now: T0 + 4000 })).toEqual({ ok: false, error: 'not_a_player' });
    expect(select(g, { userId: B, ball: 1, now: g.phaseEndsAt! })).toEqual({ ok: false, error: 'choosing_over' });
    for (const status of allStatuses.filter((s) => s !== 3)) {
      expect(select({ ...g, status }, { userId: A, ball: 1, now: T0 + 4000 })).toEqual({
        ok: false,
        error: 'not_choosing',
      });
    }
  });

  it('changes only the chooser’s own side', () => {
    const g = choosing();
    const b = ok(select(g, { userId: B, ball: 2, now: T0 + 4000 })).game;
    expect(b.selections).toEqual([null, 2]);
  });
});

describe('payouts: every combination of deal and selection', () => {
  const deals: Array<[boolean, boolean]> = [
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ];
  const picks: Array<Ball | null> = [null, 1, 2];
  const rewards: Array<[bigint, Pair<bigint>]> = [
    [1000n, [500n, 500n]],
    [1001n, [501n, 500n]], // the odd cent goes to Player 1
    [1n, [1n, 0n]],
    [99_999_999_99n, [49_999_999_99n + 1n, 49_999_999_99n]],
  ];

  for (const [flip1, flip2] of deals) {
    for (const pick1 of picks) {
      for (const pick2 of picks) {
        it(`deal ${Number(flip1)}${Number(flip2)}, picks ${pick1 ?? '-'} / ${pick2 ?? '-'}`, () => {
          for (const [reward, splitShares] of rewards) {
            let g = choosing({ answers: dealAnswers(flip1, flip2), rewardCents: reward });
            if (pick1) g = ok(select(g, { userId: A, ball: pick1, now: T0 + 4000 })).game;
            if (pick2) g = ok(select(g, { userId: B, ball: pick2, now: T0 + 4000 })).game;
            const ballContent = (flip: boolean, pick: Ball | null): Answer =>
              pick === null ? SPLIT : (pick === 1) === !flip ? SPLIT : STEAL;
            const c1 = ballContent(flip1, pick1);
            const c2 = ballContent(flip2, pick2);
            expect(choiceOf(g, 1)).toBe(c1);
            expect(choiceOf(g, 2)).toBe(c2);
            const expected: Pair<bigint> =
              c1 === SPLIT && c2 === SPLIT
                ? splitShares
                : c1 === STEAL && c2 === SPLIT
                  ? [reward, 0n]
                  : c1 === SPLIT && c2 === STEAL
                    ? [0n, reward]
                    : [0n, 0n];
            const ended = ok(onDeadline(g, { version: g.phaseVersion!, now: g.phaseEndsAt! + 10 }));
            expect(ended.settlement).toEqual({ choices: [c1, c2], winnings: expected });
            expect(ended.game.winnings).toEqual(expected);
            expect(expected[0] + expected[1]).toBe(c1 === STEAL && c2 === STEAL ? 0n : reward);
          }
        });
      }
    }
  }

  it('settle pays exactly the reward on split, all to a lone stealer, nothing on double steal', () => {
    expect(settle(1000n, [SPLIT, SPLIT])).toEqual([500n, 500n]);
    expect(settle(333n, [SPLIT, SPLIT])).toEqual([167n, 166n]);
    expect(settle(1000n, [STEAL, SPLIT])).toEqual([1000n, 0n]);
    expect(settle(1000n, [SPLIT, STEAL])).toEqual([0n, 1000n]);
    expect(settle(1000n, [STEAL, STEAL])).toEqual([0n, 0n]);
  });
});

describe('cancel', () => {
  it('moves every non-final status to 5 and clears the deadline', () => {
    for (const status of allStatuses) {
      const g = game({ status, phaseEndsAt: status === 3 || status === 6 ? T0 : null });
      const result = cancel(g);
      expect(result.ok, `status ${status}`).toBe(!isFinal(status));
      if (result.ok) {
        expect(result.game).toMatchObject({
          status: S.Cancelled,
          phaseEndsAt: null,
          phaseVersion: null,
          version: g.version + 1,
        });
        expect(result.settlement).toBeNull();
      } else {
        expect(result.error).toBe('already_final');
      }
    }
  });
});

describe('answerContextFor', () => {
  const g = choosing({ answers: dealAnswers(true, false) });

  it('shows a seated player only their own balls before the end', () => {
    expect(answerContextFor(g, A)).toEqual({
      player1_Answer1: STEAL,
      player1_Answer2: SPLIT,
      player2_Answer1: 0,
      player2_Answer2: 0,
    });
    expect(answerContextFor(g, B)).toEqual({
      player1_Answer1: 0,
      player1_Answer2: 0,
      player2_Answer1: SPLIT,
      player2_Answer2: STEAL,
    });
  });

  it('shows spectators and signed-out visitors nothing before the end, in every status', () => {
    for (const status of allStatuses.filter((s) => s !== 4)) {
      for (const viewer of [C, null]) {
        expect(answerContextFor({ ...g, status }, viewer)).toEqual({
          player1_Answer1: 0,
          player1_Answer2: 0,
          player2_Answer1: 0,
          player2_Answer2: 0,
        });
      }
    }
  });

  it('reveals every ball to everyone in status 4', () => {
    const ended = ok(onDeadline(g, { version: g.phaseVersion!, now: g.phaseEndsAt! })).game;
    for (const viewer of [A, B, C, null]) {
      expect(answerContextFor(ended, viewer)).toEqual({
        player1_Answer1: STEAL,
        player1_Answer2: SPLIT,
        player2_Answer1: SPLIT,
        player2_Answer2: STEAL,
      });
    }
  });
});

describe('statusText', () => {
  it('has the contract texts for 6 and unknown codes', () => {
    expect(statusText(6)).toBe('Game is starting in 3 seconds');
    expect(statusText(7)).toBe('Game status is unknown');
    expect(statusText(-1)).toBe('Game status is unknown');
    expect(statusText(5)).toMatch(/cancelled/i);
    expect(statusText(2, { player2: 'Bob' })).toBe('Waiting for Bob to join');
  });
});

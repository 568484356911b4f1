import { createHash, randomInt, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  answerOffer,
  answerSwapOffer,
  bankOffer,
  BOX_COUNT,
  boardCommitment,
  boardText,
  cancel,
  claim,
  commitmentBytes,
  cuesOf,
  deal,
  DealOrNoDealStatus as S,
  DEFAULT_AMOUNTS,
  START_WAIT_MINUTES,
  isEnded,
  newGame,
  OFFER_FACTOR_PERCENT,
  onDeadline,
  ROUND_SIZES,
  selectBox,
  start,
  statusText,
  unopenedBoxIds,
  viewOf,
  WIN_SCREEN_SECONDS,
  type DealOrNoDealGame,
  type Outcome,
} from './deal-or-no-deal';
import { toCents } from '../money';

const T0 = 1_000_000;
const OWNER = 'owner-1';
const OTHER = 'someone-else';
const SEED = 'ab'.repeat(32);
const allStatuses = [0, 1, 2, 3, 4, 5, 6, 7, 8] as const;
const defaultBoard = DEFAULT_AMOUNTS.map((a) => toCents(a));
/** Box i + 1 holds the i-th default amount: easy to reason about. */
const identity = Array.from({ length: BOX_COUNT }, (_, i) => i);

function ok(outcome: Outcome): Extract<Outcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error}`);
  return outcome;
}
function refusal(outcome: Outcome): string {
  if (outcome.ok) throw new Error('accepted');
  return outcome.error;
}

const sum = (xs: readonly bigint[]) => xs.reduce((a, b) => a + b, 0n);

function fresh(board: readonly bigint[] = defaultBoard): DealOrNoDealGame {
  return newGame({ board, ownerId: OWNER, isPrivate: false, seed: SEED, commitment: 'c0ffee', now: 0 });
}
const open = (g: DealOrNoDealGame, boxId: number) => selectBox(g, { userId: OWNER, boxId });
const offer = (g: DealOrNoDealGame, deal: boolean, now = T0) => answerOffer(g, { userId: OWNER, deal, now });
const swapAnswer = (g: DealOrNoDealGame, swap: boolean, now = T0) => answerSwapOffer(g, { userId: OWNER, swap, now });
/** Started, box `primary` chosen: status 3, round 0. */
function opening(primary = 24, board: readonly bigint[] = defaultBoard): DealOrNoDealGame {
  return ok(open(ok(start(fresh(board), OWNER)).game, primary)).game;
}
/** Opens the next `n` boxes (lowest ids first, skipping the primary and opened ones). */
function openNext(game: DealOrNoDealGame, n: number): DealOrNoDealGame {
  let g = game;
  for (let k = 0; k < n; k++) {
    const id = unopenedBoxIds(g).find((b) => b !== g.primaryBoxId)!;
    g = ok(open(g, id)).game;
  }
  return g;
}
/** Plays No Deal through rounds, stopping at the bank offer after round `round` (0-based). */
function atOffer(round: number, primary = 24): DealOrNoDealGame {
  let g = opening(primary);
  for (let r = 0; r <= round; r++) {
    g = openNext(g, ROUND_SIZES[r]!);
    expect(g.status).toBe(S.BankOffer);
    if (r < round) g = ok(offer(g, false, T0)).game;
  }
  return g;
}
function atSwap(primary = 24): DealOrNoDealGame {
  return ok(offer(atOffer(6, primary), false, T0)).game;
}
/** A game forced into a status, for the refusal tables. */
function inStatus(status: number): DealOrNoDealGame {
  switch (status) {
    case S.WaitingForOwner:
      return fresh();
    case S.PickYourBox:
      return ok(start(fresh(), OWNER)).game;
    case S.Opening:
      return opening();
    case S.BankOffer:
      return atOffer(0);
    case S.SwapOffer:
      return atSwap();
    case S.Won:
      return ok(offer(atOffer(0), true, T0)).game;
    case S.Finished: {
      const won = inStatus(S.Won);
      return ok(onDeadline(won, { version: won.phaseVersion!, now: won.phaseEndsAt! })).game;
    }
    case S.Claimed:
      return ok(claim(inStatus(S.Finished), OWNER)).game;
    case S.Cancelled:
      return ok(cancel(opening())).game;
    default:
      throw new Error(`no status ${status}`);
  }
}

describe('deal and newGame', () => {
  it('deals the amounts by the given permutation and starts waiting for the owner at version 1', () => {
    const order = [...identity].reverse();
    const board = deal(defaultBoard, order);
    expect(board[0]).toBe(25000n);
    expect(board[23]).toBe(1n);
    const g = fresh(board);
    expect(g).toMatchObject({ status: S.WaitingForOwner, version: 1, primaryBoxId: null, round: 0, toOpen: 6 });
    expect(g.opened.every((o) => !o)).toBe(true);
    expect(sum(g.board)).toBe(sum(defaultBoard));
  });

  it('refuses a board that is not 24 positive amounts and an order that is not a permutation', () => {
    expect(() => fresh(defaultBoard.slice(1))).toThrow(/exactly 24/);
    expect(() => fresh([0n, ...defaultBoard.slice(1)])).toThrow(/positive/);
    expect(() => deal(defaultBoard, [0, ...identity.slice(0, 23)])).toThrow(/permutation/);
    expect(() => deal(defaultBoard, identity.slice(1))).toThrow(/permutation/);
    expect(() => deal(defaultBoard, [...identity.slice(1), 24])).toThrow(/permutation/);
  });
});

describe('only the owner acts', () => {
  it('refuses every action of anyone else, whatever the status', () => {
    for (const status of allStatuses) {
      const g = inStatus(status);
      expect(refusal(start(g, OTHER))).toBe('not_owner');
      expect(refusal(selectBox(g, { userId: OTHER, boxId: 1 }))).toBe('not_owner');
      expect(refusal(answerOffer(g, { userId: OTHER, deal: true, now: T0 }))).toBe('not_owner');
      expect(refusal(answerSwapOffer(g, { userId: OTHER, swap: true, now: T0 }))).toBe('not_owner');
      expect(refusal(claim(g, OTHER))).toBe('not_owner');
    }
  });
});

describe('start (1 → 2)', () => {
  it('moves the waiting game to "pick your box" and grows the version', () => {
    const out = ok(start(fresh(), OWNER));
    expect(out.game.status).toBe(S.PickYourBox);
    expect(out.game.version).toBe(2);
  });
  it.each(allStatuses.filter((s) => s !== S.WaitingForOwner))('is refused in status %i', (status) => {
    expect(refusal(start(inStatus(status), OWNER))).toBe('not_waiting');
  });
});

describe('selectBox', () => {
  it("in 2 makes the box the owner's and starts round one (→ 3, six to open)", () => {
    const g = opening(7);
    expect(g).toMatchObject({ status: S.Opening, primaryBoxId: 7, round: 0, toOpen: 6 });
    expect(g.opened.every((o) => !o)).toBe(true);
  });

  it('in 1 is refused: the owner has not started', () => {
    expect(refusal(open(fresh(), 3))).toBe('not_started');
  });

  it.each([S.BankOffer, S.SwapOffer, S.Won, S.Finished, S.Claimed, S.Cancelled])(
    'is refused in status %i',
    (status) => {
      expect(refusal(open(inStatus(status), 1))).toBe('not_selecting');
    },
  );

  it('refuses the primary box, an opened box and ids outside 1–24', () => {
    const g = ok(open(opening(24), 1)).game;
    expect(refusal(open(g, 24))).toBe('primary_box');
    expect(refusal(open(g, 1))).toBe('already_opened');
    for (const bad of [0, 25, -1, 1.5]) expect(refusal(open(g, bad))).toBe('no_such_box');
  });

  it('opens a box in 3, counting down the round, and reveals only that box', () => {
    const g = ok(open(opening(24), 5)).game;
    expect(g.opened[4]).toBe(true);
    expect(g.toOpen).toBe(5);
    expect(g.lastOpenedBoxId).toBe(5);
    expect(g.status).toBe(S.Opening);
    const view = viewOf(g);
    expect(view.lastOpenedBox).toEqual({ id: 5, isOpened: true, amount: defaultBoard[4] });
    expect(view.boxesInfo.filter((b) => b.amount !== null).map((b) => b.id)).toEqual([5]);
  });

  it('plays the round sizes 6, 5, 4, 3, 2, 1, 1 with an offer after each', () => {
    let g = opening(24);
    for (const [round, size] of ROUND_SIZES.entries()) {
      expect(g).toMatchObject({ status: S.Opening, round, toOpen: size });
      expect(viewOf(g).remainingBoxCountToOffer).toBe(size);
      g = openNext(g, size - 1);
      expect(g.status).toBe(S.Opening);
      g = openNext(g, 1);
      expect(g.status).toBe(S.BankOffer);
      expect(g.offerCents).toBe(
        bankOffer(
          g.board.filter((_, i) => !g.opened[i]),
          round,
        ),
      );
      g = ok(offer(g, false, T0)).game;
    }
    expect(g.status).toBe(S.SwapOffer);
    expect(unopenedBoxIds(g)).toHaveLength(2);
    expect(unopenedBoxIds(g)).toContain(24);
  });
});

describe('bankOffer', () => {
  it('is the mean of the amounts in play × the round factor, rounded half up to the cent', () => {
    // 100 + 200 + 301 = 601 cents, mean 200.333…; × 0.35 = 70.1166… → 70
    expect(bankOffer([100n, 200n, 301n], 0)).toBe(70n);
    // 1 + 2 = 3, mean 1.5; × 0.95 = 1.425 → 1
    expect(bankOffer([1n, 2n], 6)).toBe(1n);
    // 10 + 20 = 30, mean 15, × 0.55 = 8.25 → 8; × 0.65 = 9.75 → 10
    expect(bankOffer([10n, 20n], 2)).toBe(8n);
    expect(bankOffer([10n, 20n], 3)).toBe(10n);
    // exactly half a cent rounds up: 10 × 0.45 = 4.5 → 5; 30 × 0.35 = 10.5 → 11
    expect(bankOffer([10n], 1)).toBe(5n);
    expect(bankOffer([30n], 0)).toBe(11n);
  });

  it('rises from 0.35 to 0.95 by 0.10 a round', () => {
    expect(OFFER_FACTOR_PERCENT).toEqual([35, 45, 55, 65, 75, 85, 95]);
    const offers = OFFER_FACTOR_PERCENT.map((_, r) => bankOffer([10000n], r));
    expect(offers).toEqual([3500n, 4500n, 5500n, 6500n, 7500n, 8500n, 9500n]);
  });

  it('is never below one cent and never above the largest amount in play', () => {
    expect(bankOffer([1n], 0)).toBe(1n);
    for (let k = 0; k < 500; k++) {
      const inPlay = Array.from({ length: 1 + randomInt(24) }, () => BigInt(1 + randomInt(1_000_000)));
      const round = randomInt(7);
      const offer = bankOffer(inPlay, round);
      const max = inPlay.reduce((a, b) => (a > b ? a : b));
      expect(offer >= 1n && offer <= max).toBe(true);
      // exact: |offer − mean × factor| ≤ half a cent
      const exact2 = sum(inPlay) * BigInt(OFFER_FACTOR_PERCENT[round]!) * 2n;
      const den = BigInt(inPlay.length) * 100n;
      const diff = offer * den * 2n - exact2;
      expect(offer === 1n || (diff <= den && diff > -den)).toBe(true);
    }
  });

  it('refuses a round without an offer and an empty board', () => {
    expect(() => bankOffer([1n], 7)).toThrow();
    expect(() => bankOffer([], 0)).toThrow();
  });
});

describe('answerOffer', () => {
  it.each(ROUND_SIZES.map((_, r) => r))(
    'Deal after round %i ends the game won at the offer, every box open',
    (round) => {
      const g = atOffer(round);
      const standing = g.offerCents!;
      const out = ok(offer(g, true, T0));
      expect(out.game).toMatchObject({ status: S.Won, winningCents: standing, ending: 'deal' });
      expect(out.game.opened.every(Boolean)).toBe(true);
      expect(out.deadline).toBe(T0 + WIN_SCREEN_SECONDS * 1000);
      expect(out.game.phaseVersion).toBe(out.game.version);
      expect(out.settlement).toBeNull();
    },
  );

  it('No Deal goes to the next round with its size', () => {
    const g = ok(offer(atOffer(2), false, T0)).game;
    expect(g).toMatchObject({ status: S.Opening, round: 3, toOpen: 3 });
  });

  it.each(allStatuses.filter((s) => s !== S.BankOffer))('is refused in status %i', (status) => {
    expect(refusal(offer(inStatus(status), true, T0))).toBe('no_offer');
    expect(refusal(offer(inStatus(status), false, T0))).toBe('no_offer');
  });
});

describe('answerSwapOffer', () => {
  it('change it takes the other box and wins what it holds', () => {
    const g = atSwap(24);
    const other = unopenedBoxIds(g).find((id) => id !== 24)!;
    const out = ok(swapAnswer(g, true, T0));
    expect(out.game).toMatchObject({
      status: S.Won,
      primaryBoxId: other,
      winningCents: g.board[other - 1],
      ending: 'swap',
    });
    expect(out.game.opened.every(Boolean)).toBe(true);
    expect(out.deadline).toBe(T0 + WIN_SCREEN_SECONDS * 1000);
  });

  it('keep it wins what the own box holds', () => {
    const g = atSwap(24);
    const out = ok(swapAnswer(g, false, T0));
    expect(out.game).toMatchObject({ status: S.Won, primaryBoxId: 24, winningCents: g.board[23], ending: 'keep' });
  });

  it.each(allStatuses.filter((s) => s !== S.SwapOffer))('is refused in status %i', (status) => {
    expect(refusal(swapAnswer(inStatus(status), true, T0))).toBe('no_swap');
  });
});

describe('the win screen deadline (6 → 0) and the claim (0 → 5)', () => {
  it('turns 6 into 0 when due, with the version it was set for', () => {
    const won = inStatus(S.Won);
    expect(refusal(onDeadline(won, { version: won.phaseVersion!, now: won.phaseEndsAt! - 1 }))).toBe('not_due');
    expect(refusal(onDeadline(won, { version: won.phaseVersion! - 1, now: won.phaseEndsAt! }))).toBe('stale_deadline');
    const out = ok(onDeadline(won, { version: won.phaseVersion!, now: won.phaseEndsAt! }));
    expect(out.game).toMatchObject({ status: S.Finished, phaseEndsAt: null, phaseVersion: null });
    expect(out.deadline).toBeNull();
  });

  it.each(allStatuses.filter((s) => s !== S.Won && s !== S.WaitingForOwner))(
    'is a stale no-op in status %i',
    (status) => {
      const g = { ...inStatus(status), phaseEndsAt: T0, phaseVersion: 3 };
      expect(refusal(onDeadline(g, { version: 3, now: T0 }))).toBe('stale_deadline');
    },
  );
  it('claims in 0 with the winnings as the settlement, once', () => {
    const finished = inStatus(S.Finished);
    const out = ok(claim(finished, OWNER));
    expect(out.game.status).toBe(S.Claimed);
    expect(out.settlement).toEqual({ prizeCents: finished.winningCents });
    expect(refusal(claim(out.game, OWNER))).toBe('not_claimable');
  });

  it.each(allStatuses.filter((s) => s !== S.Finished))('refuses a claim in status %i', (status) => {
    expect(refusal(claim(inStatus(status), OWNER))).toBe('not_claimable');
  });
});

describe('cancel (→ 7)', () => {
  it.each([S.WaitingForOwner, S.PickYourBox, S.Opening, S.BankOffer, S.SwapOffer])(
    'cancels from %i, every box open',
    (status) => {
      const out = ok(cancel(inStatus(status)));
      expect(out.game.status).toBe(S.Cancelled);
      expect(out.game.opened.every(Boolean)).toBe(true);
      expect(out.settlement).toBeNull();
    },
  );
  it.each([S.Won, S.Finished, S.Claimed, S.Cancelled])('is refused once the game ended (%i)', (status) => {
    expect(refusal(cancel(inStatus(status)))).toBe('already_final');
    expect(isEnded(status)).toBe(true);
  });
});

describe('viewOf', () => {
  it('lists the board smallest first, striking one amount per opened box (duplicates too)', () => {
    const board = [...defaultBoard];
    board[1] = board[0]!; // two boxes hold 0.01
    const g = ok(open(opening(24, board), 2)).game;
    const view = viewOf(g);
    expect(view.amounts.map((a) => a.value)).toEqual([...board].sort((a, b) => Number(a - b)));
    expect(view.amounts.filter((a) => a.isOpened)).toEqual([{ value: 1n, isOpened: true }]);
  });

  it('shows the offer only while it stands (and after a Deal), the count only while opening', () => {
    expect(viewOf(atOffer(0)).offerCents).not.toBeNull();
    expect(viewOf(atOffer(0)).remainingBoxCountToOffer).toBe(0);
    expect(viewOf(ok(offer(atOffer(0), false, T0)).game).offerCents).toBeNull();
    const dealt = ok(offer(atOffer(1), true, T0)).game;
    expect(viewOf(dealt).offerCents).toBe(dealt.winningCents);
  });

  it('keeps the seed and the board secret until the game ended, then reveals both', () => {
    for (const status of allStatuses) {
      const view = viewOf(inStatus(status));
      expect(view.commitment).toBe('c0ffee');
      if (isEnded(status)) {
        expect(view.seed).toBe(SEED);
        expect(view.board).toEqual([...defaultBoard]);
      } else {
        expect(view.seed).toBeNull();
        expect(view.board).toBeNull();
      }
    }
  });

  it("reveals every box from 6 on, the owner's box included", () => {
    const won = inStatus(S.Won);
    expect(viewOf(won).boxesInfo.every((b) => b.amount === won.board[b.id - 1])).toBe(true);
    expect(viewOf(won).primaryBox?.amount).toBe(won.board[won.primaryBoxId! - 1]);
  });
});

describe('random games (property)', () => {
  /** Every amount an unopened box holds must be absent from the view's boxes. */
  function leaks(game: DealOrNoDealGame): string[] {
    const view = viewOf(game);
    const problems: string[] = [];
    for (const b of view.boxesInfo) {
      if (!game.opened[b.id - 1] && b.amount !== null) problems.push(`box ${b.id} shows its amount`);
    }
    for (const b of [view.primaryBox, view.lastOpenedBox]) {
      if (b && !game.opened[b.id - 1] && b.amount !== null) problems.push(`box ${b.id} shows its amount`);
    }
    if (view.seed !== null || view.board !== null) problems.push('seed or board revealed');
    // The struck amounts are exactly the opened boxes' amounts: striking reveals nothing else.
    const struck = view.amounts
      .filter((a) => a.isOpened)
      .map((a) => a.value)
      .sort();
    const openedAmounts = game.board.filter((_, i) => game.opened[i]).sort();
    if (JSON.stringify(struck.map(String)) !== JSON.stringify(openedAmounts.map(String)))
      problems.push('strike-through');
    return problems;
  }

  it('conserves the board, never shows an unopened amount before the end, and ends won with a board amount or an offer', () => {
    const offersSeen = new Set<string>();
    for (let n = 0; n < 300; n++) {
      const amounts = n % 2 ? defaultBoard : Array.from({ length: 24 }, () => BigInt(1 + randomInt(50_000)));
      const order = [...identity];
      for (let i = order.length - 1; i > 0; i--) {
        const j = randomInt(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      let g = newGame({
        board: deal(amounts, order),
        ownerId: OWNER,
        isPrivate: false,
        seed: SEED,
        commitment: 'x',
        now: 0,
      });
      const total = sum(amounts);
      let now = T0;
      let steps = 0;
      while (!isEnded(g.status)) {
        expect(leaks(g)).toEqual([]);
        expect(sum(g.board)).toBe(total);
        now += 1000;
        const before = g;
        let out: Outcome;
        if (g.status === S.WaitingForOwner) out = start(g, OWNER);
        else if (g.status === S.PickYourBox || g.status === S.Opening) {
          const choices = unopenedBoxIds(g).filter((id) => id !== g.primaryBoxId);
          out = open(g, choices[randomInt(choices.length)]!);
        } else if (g.status === S.BankOffer) out = offer(g, randomInt(8) === 0, now);
        else out = swapAnswer(g, randomInt(2) === 0, now);
        g = ok(out).game;
        expect(g.version).toBe(before.version + 1);
        // A box never closes again, and only one opens per step during play.
        const newlyOpened = g.opened.filter((o, i) => o && !before.opened[i]).length;
        if (!isEnded(g.status)) expect(newlyOpened).toBeLessThanOrEqual(1);
        expect(g.opened.every((o, i) => o || !before.opened[i])).toBe(true);
        if (++steps > 60) throw new Error('game did not end');
      }
      expect(g.status).toBe(S.Won);
      expect(sum(g.board)).toBe(total);
      if (g.ending === 'deal') offersSeen.add('deal');
      else {
        offersSeen.add(g.ending!);
        expect(g.winningCents).toBe(g.board[g.primaryBoxId! - 1]);
      }
      expect(viewOf(g).boxesInfo.every((b) => b.amount !== null)).toBe(true);
    }
    expect(offersSeen).toEqual(new Set(['deal', 'swap', 'keep']));
  }, 60_000);
});

describe('cuesOf', () => {
  it('plays ThemeMusic on start, a case sound per opening, the banker and thinking music on an offer, stops it on the answer, DealMusic on a win', () => {
    const waiting = fresh();
    const started = ok(start(waiting, OWNER)).game;
    expect(cuesOf(waiting, started)).toEqual({ opened: [], play: ['ThemeMusic'], stop: false });
    const g = opening(24);
    const small = ok(open(g, 1)).game; // 0.01
    expect(cuesOf(g, small)).toEqual({ opened: [{ boxId: 1, cents: 1n }], play: ['SmallCaseOpened'], stop: false });
    const big = ok(open(g, 23)).game; // 150
    expect(cuesOf(g, big).play).toEqual(['BigCaseOpened']);
    const beforeOffer = openNext(g, 5);
    const offered = openNext(beforeOffer, 1);
    expect(cuesOf(beforeOffer, offered).play).toEqual(['SmallCaseOpened', 'BankerCalling', 'ThinkingMusic']);
    expect(cuesOf(offered, ok(offer(offered, false, T0)).game)).toEqual({ opened: [], play: [], stop: true });
    const won = ok(offer(offered, true, T0)).game;
    // the end reveals every box, but that is no opening to announce one by one
    expect(cuesOf(offered, won)).toEqual({ opened: [], play: ['DealMusic'], stop: true });
  });
});

describe('verifiable board', () => {
  const seed = 'ab'.repeat(32);
  it('hashes the 32 seed bytes then the board text, amounts with two decimals in box order', async () => {
    const board = deal(defaultBoard, identity);
    expect(boardText(board).startsWith('0.01,0.05,0.10,0.15,')).toBe(true);
    expect(boardText(board).endsWith(',100.00,150.00,250.00')).toBe(true);
    const bytes = commitmentBytes(seed, board);
    expect(bytes.length).toBe(32 + boardText(board).length);
    expect(bytes[0]).toBe(0xab);
    expect(String.fromCharCode(bytes[32]!)).toBe('0');
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from(seed, 'hex'), Buffer.from(boardText(board), 'ascii')]))
      .digest('hex');
    expect(await boardCommitment(webcrypto.subtle, seed, board)).toBe(expected);
  });

  it('changes when any two boxes are swapped', async () => {
    const board = deal(defaultBoard, identity);
    const moved = [...board];
    [moved[0], moved[1]] = [moved[1]!, moved[0]!];
    expect(await boardCommitment(webcrypto.subtle, seed, moved)).not.toBe(
      await boardCommitment(webcrypto.subtle, seed, board),
    );
  });

  it('refuses a seed that is not 64 lowercase hex digits', () => {
    expect(() => commitmentBytes('AB'.repeat(32), defaultBoard)).toThrow();
    expect(() => commitmentBytes('ab', defaultBoard)).toThrow();
  });
});

describe('statusText', () => {
  it('says every status of the contract, and ours for 5 and 7', () => {
    const t = (status: number, n = 0) => statusText({ status, remainingBoxCountToOffer: n }, 'Ann');
    expect(t(1)).toBe('Waiting for Ann to start.');
    expect(t(2)).toBe('Pick a box to start.');
    expect(t(3, 6)).toBe('Select 6 more case(s)');
    expect(t(3, 1)).toBe('Select 1 more case(s)');
    expect(t(4)).toMatch(/Deal or No Deal/);
    expect(t(8)).toMatch(/change it or keep it/);
    expect(t(6)).toBe('Congratulations!');
    expect(t(0)).toMatch(/claimed/);
    expect(t(5)).toBe('Prize claimed.');
    expect(t(7)).toBe('Game cancelled.');
    expect(t(9)).toBe('Game status is unknown');
  });
});

describe('the start deadline (1 → 7)', () => {
  it('gives the player START_WAIT_MINUTES from creation to press Start', () => {
    const g = newGame({ board: defaultBoard, ownerId: OWNER, isPrivate: false, seed: SEED, commitment: 'c', now: T0 });
    expect(g.phaseEndsAt).toBe(T0 + START_WAIT_MINUTES * 60_000);
    expect(refusal(onDeadline(g, { version: g.phaseVersion!, now: T0 + 1000 }))).toBe('not_due');
  });

  it('cancels a game never started once it passes, opening every box and paying nothing', () => {
    const g = newGame({ board: defaultBoard, ownerId: OWNER, isPrivate: false, seed: SEED, commitment: 'c', now: T0 });
    const out = ok(onDeadline(g, { version: g.phaseVersion!, now: g.phaseEndsAt! }));
    expect(out.game.status).toBe(S.Cancelled);
    expect(out.game.opened.every(Boolean)).toBe(true);
    expect(out.settlement).toBeNull();
  });

  it('no longer applies once the player started', () => {
    const g = newGame({ board: defaultBoard, ownerId: OWNER, isPrivate: false, seed: SEED, commitment: 'c', now: T0 });
    const started = ok(start(g, OWNER)).game;
    expect(started.phaseEndsAt).toBeNull();
    expect(refusal(onDeadline(started, { version: g.phaseVersion!, now: g.phaseEndsAt! }))).toBe('stale_deadline');
  });
});

/**
 * Deal or No Deal, as pure rules (docs/architecture.md#the-game-engine,
 * docs/product.md#live-states-and-transitions): a state and an action in, a new state (or a
 * refusal) out, following the contract of ./engine. No clock, no randomness, no I/O: the server
 * shuffles the board with a cryptographic shuffle, passes `now`, stores the result, fires the
 * deadline it names and broadcasts after commit.
 *
 * One player (the owner) faces 24 closed boxes, each holding one amount of the board (dollars).
 *
 * Flow (status codes of docs/product.md#live-states-and-transitions; 5 and 7 are ours):
 *   1 waiting for the owner → the owner presses Start (`start`) → 2 pick your own box →
 *   3 open boxes in rounds of 6, 5, 4, 3, 2, 1, 1 → after each round 4 bank offer:
 *     Deal → 6 won at the offer; No Deal → the next round, and after the last round's offer
 *   8 swap offer (two boxes left: yours and one other): change it / keep it → 6 won with the box
 *   you end up holding → after WIN_SCREEN_SECONDS the deadline turns 6 into
 *   0 finished and claimable → the owner claims → 5 claimed (the prize is queued for delivery).
 *   An admin may cancel (7) any game that has not ended (1, 2, 3, 4, 8).
 *
 * Hidden information: what an unopened box holds, and the seed of the commitment. Both are in the
 * game and in the row, never in a view (`viewOf`) before the game ended (6, 0, 5, 7), when every
 * box opens. Every view is the same for the owner, watchers and admins: nobody sees inside a box.
 *
 * Only the owner acts: every action names the acting user and refuses anyone else (`not_owner`).
 *
 * Offers: the mean of the amounts still in play (unopened boxes, the owner's included) × the
 * round's factor, 0.35 after the first round rising by 0.10 to 0.95 after the seventh. In cents:
 * `sum × factorPercent / (count × 100)`, rounded half up to the cent, and never below one cent.
 */
import {
  changed as engineChanged,
  deadlineCheck,
  refuse as engineRefuse,
  type LiveGameState,
  type Outcome as EngineOutcome,
  type Seat,
} from './engine';

export const DealOrNoDealStatus = {
  Finished: 0,
  WaitingForOwner: 1,
  PickYourBox: 2,
  Opening: 3,
  BankOffer: 4,
  Claimed: 5,
  Won: 6,
  Cancelled: 7,
  SwapOffer: 8,
} as const;
export type DealOrNoDealStatusCode = (typeof DealOrNoDealStatus)[keyof typeof DealOrNoDealStatus];

export const BOX_COUNT = 24;
/** Boxes opened in each round before the bank calls. 6+5+4+3+2+1+1 = 22: two boxes stay shut. */
export const ROUND_SIZES = [6, 5, 4, 3, 2, 1, 1] as const;
/** The bank's factor after each round, in percent: 35, 45, … 95. */
export const OFFER_FACTOR_PERCENT = [35, 45, 55, 65, 75, 85, 95] as const;
/** How long the win screen (6) shows before the game becomes claimable (0). */
export const WIN_SCREEN_SECONDS = 8;

/** The default board (docs/product.md#live-constants-and-limits), in dollars. */
export const DEFAULT_AMOUNTS = [
  0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 1, 2.5, 5, 10, 15, 20, 35, 50, 60, 80, 100, 150, 250,
] as const;

/** How the game was won, for the history and the win screen. */
export type Ending = 'deal' | 'swap' | 'keep';

export interface DealOrNoDealGame extends LiveGameState {
  status: DealOrNoDealStatusCode;
  /** The one player: only they act (user id equals the signed-in openId). */
  ownerId: string;
  isPrivate: boolean;
  /** 32 random bytes as hex, drawn at creation: secret until the game ended. */
  seed: string;
  /** SHA-256(seed ‖ board) as hex, published from the start (see `commitmentBytes`). */
  commitment: string;
  /** board[i] is what box i + 1 holds, in cents. Dealt once, never moved. */
  board: readonly bigint[];
  /** opened[i]: box i + 1 was opened. */
  opened: readonly boolean[];
  /** The owner's own box (1–24), chosen in status 2. A swap changes it. */
  primaryBoxId: number | null;
  /** The round being played or just finished (0–6); index into ROUND_SIZES. */
  round: number;
  /** Boxes still to open before the bank calls. */
  toOpen: number;
  lastOpenedBoxId: number | null;
  /** The bank's standing offer (status 4), or the last one. */
  offerCents: bigint | null;
  /** What the owner won (set from 6 on). */
  winningCents: bigint | null;
  ending: Ending | null;
}

export type DealOrNoDealError =
  | 'not_owner'
  | 'not_started'
  | 'not_waiting'
  | 'not_selecting'
  | 'no_such_box'
  | 'primary_box'
  | 'already_opened'
  | 'no_offer'
  | 'no_swap'
  | 'not_claimable'
  | 'already_final'
  | 'stale_deadline'
  | 'not_due';

/** The claim pays the winnings once: the runner turns it into a fulfilment item. */
export interface Settlement {
  prizeCents: bigint;
}

export type Outcome = EngineOutcome<DealOrNoDealGame, DealOrNoDealError, Settlement>;

const refuse = (error: DealOrNoDealError): Outcome => engineRefuse(error);
const changed = (game: DealOrNoDealGame, deadline: number | null = null, settlement: Settlement | null = null) =>
  engineChanged(game, deadline, settlement) as Outcome;

/** The game ended: nothing more happens but the 6 → 0 deadline and the claim. */
export function isEnded(status: number): boolean {
  return (
    status === DealOrNoDealStatus.Won ||
    status === DealOrNoDealStatus.Finished ||
    status === DealOrNoDealStatus.Claimed ||
    status === DealOrNoDealStatus.Cancelled
  );
}

/** Checks a board: 24 positive amounts in cents. */
export function checkBoard(board: readonly bigint[]): void {
  if (board.length !== BOX_COUNT) throw new RangeError(`A board has exactly ${BOX_COUNT} amounts`);
  if (board.some((c) => c <= 0n)) throw new RangeError('Every amount must be positive');
}

/**
 * Deals the amounts into boxes: `order` is a permutation of 0–23 from the server's cryptographic
 * shuffle (box i + 1 gets amount `order[i]`).
 */
export function deal(amounts: readonly bigint[], order: readonly number[]): bigint[] {
  checkBoard(amounts);
  const seen = new Set(order);
  if (
    order.length !== BOX_COUNT ||
    seen.size !== BOX_COUNT ||
    order.some((i) => !Number.isInteger(i) || i < 0 || i >= BOX_COUNT)
  ) {
    throw new RangeError('The order must be a permutation of 0–23');
  }
  return order.map((i) => amounts[i]!);
}

/**
 * How long a new game waits for its player to press Start before it is cancelled
 * (docs/features/deal-or-no-deal.md#statuses): a game nobody started leaves Live now instead of
 * "Waiting for the player" for hours.
 */
export const START_WAIT_MINUTES = 30;

export function newGame(input: {
  board: readonly bigint[];
  ownerId: string;
  isPrivate: boolean;
  seed: string;
  commitment: string;
  /** Creation time (ms): the player has START_WAIT_MINUTES from it to start. */
  now: number;
}): DealOrNoDealGame {
  const { board } = input;
  checkBoard(board);
  return {
    status: DealOrNoDealStatus.WaitingForOwner,
    ownerId: input.ownerId,
    isPrivate: input.isPrivate,
    seed: input.seed,
    commitment: input.commitment,
    version: 1,
    phaseEndsAt: input.now + START_WAIT_MINUTES * 60_000,
    phaseVersion: 1,
    board: [...board],
    opened: board.map(() => false),
    primaryBoxId: null,
    round: 0,
    toOpen: ROUND_SIZES[0],
    lastOpenedBoxId: null,
    offerCents: null,
    winningCents: null,
    ending: null,
  };
}

/** The boxes still shut, the owner's included (ids 1–24). */
export function unopenedBoxIds(game: DealOrNoDealGame): number[] {
  return game.opened.flatMap((o, i) => (o ? [] : [i + 1]));
}

/** The bank's offer for the amounts in play after round `round` (0–6); see the header. */
export function bankOffer(inPlay: readonly bigint[], round: number): bigint {
  const factor = OFFER_FACTOR_PERCENT[round];
  if (factor === undefined) throw new RangeError(`No offer after round ${round + 1}`);
  if (inPlay.length === 0) throw new RangeError('No amounts in play');
  const sum = inPlay.reduce((a, b) => a + b, 0n);
  const numerator = sum * BigInt(factor);
  const denominator = BigInt(inPlay.length) * 100n;
  const rounded = (numerator * 2n + denominator) / (denominator * 2n); // half up: floor(x + 1/2)
  return rounded < 1n ? 1n : rounded;
}

/** The owner presses Start: 1 → 2. */
export function start(game: DealOrNoDealGame, userId: string): Outcome {
  if (userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== DealOrNoDealStatus.WaitingForOwner) return refuse('not_waiting');
  // Started in time: the start deadline no longer applies.
  return changed({ ...game, status: DealOrNoDealStatus.PickYourBox, phaseEndsAt: null, phaseVersion: null });
}

/**
 * The owner picks a box: in 2 it becomes theirs (→ 3); in 3 it opens, and the last box of the
 * round brings the bank's offer (→ 4). Never the owner's box, never an opened one.
 */
export function selectBox(game: DealOrNoDealGame, { userId, boxId }: { userId: string; boxId: number }): Outcome {
  if (userId !== game.ownerId) return refuse('not_owner');
  if (game.status === DealOrNoDealStatus.WaitingForOwner) return refuse('not_started');
  if (game.status !== DealOrNoDealStatus.PickYourBox && game.status !== DealOrNoDealStatus.Opening) {
    return refuse('not_selecting');
  }
  if (!Number.isInteger(boxId) || boxId < 1 || boxId > BOX_COUNT) return refuse('no_such_box');
  if (game.opened[boxId - 1]) return refuse('already_opened');
  if (game.primaryBoxId === boxId) return refuse('primary_box');
  if (game.status === DealOrNoDealStatus.PickYourBox) {
    return changed({ ...game, status: DealOrNoDealStatus.Opening, primaryBoxId: boxId });
  }
  const opened = game.opened.map((o, i) => o || i === boxId - 1);
  const toOpen = game.toOpen - 1;
  const next = { ...game, opened, toOpen, lastOpenedBoxId: boxId };
  if (toOpen > 0) return changed(next);
  const inPlay = next.board.filter((_, i) => !opened[i]);
  return changed({ ...next, status: DealOrNoDealStatus.BankOffer, offerCents: bankOffer(inPlay, game.round) });
}

/** Ends the game won with `cents`: every box opens; the win screen shows until the deadline. */
function win(game: DealOrNoDealGame, cents: bigint, ending: Ending, now: number): Outcome {
  const endsAt = now + WIN_SCREEN_SECONDS * 1000;
  return changed(
    {
      ...game,
      status: DealOrNoDealStatus.Won,
      winningCents: cents,
      ending,
      opened: game.opened.map(() => true),
      phaseEndsAt: endsAt,
      phaseVersion: game.version + 1,
    },
    endsAt,
  );
}

/** Deal (true) ends the game at the offer; No Deal (false) plays on, or offers the swap after the last round. */
export function answerOffer(
  game: DealOrNoDealGame,
  { userId, deal, now }: { userId: string; deal: boolean; now: number },
): Outcome {
  if (userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== DealOrNoDealStatus.BankOffer || game.offerCents === null) return refuse('no_offer');
  if (deal) return win(game, game.offerCents, 'deal', now);
  const round = game.round + 1;
  if (round >= ROUND_SIZES.length) return changed({ ...game, status: DealOrNoDealStatus.SwapOffer });
  return changed({ ...game, status: DealOrNoDealStatus.Opening, round, toOpen: ROUND_SIZES[round]! });
}

/** With two boxes left: change it (true) takes the other box, keep it (false) keeps yours. */
export function answerSwapOffer(
  game: DealOrNoDealGame,
  { userId, swap, now }: { userId: string; swap: boolean; now: number },
): Outcome {
  if (userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== DealOrNoDealStatus.SwapOffer || game.primaryBoxId === null) return refuse('no_swap');
  const other = unopenedBoxIds(game).find((id) => id !== game.primaryBoxId)!;
  const primaryBoxId = swap ? other : game.primaryBoxId;
  return win({ ...game, primaryBoxId }, game.board[primaryBoxId - 1]!, swap ? 'swap' : 'keep', now);
}

/**
 * A deadline: the win screen's (6 → 0, finished and claimable), or the start's — a game whose player
 * never pressed Start is cancelled (1 → 7, every box opens, nothing is paid).
 */
export function onDeadline(game: DealOrNoDealGame, at: { version: number; now: number }): Outcome {
  const why = deadlineCheck(game, at);
  if (why) return refuse(why);
  if (game.status === DealOrNoDealStatus.WaitingForOwner) return cancel(game);
  if (game.status !== DealOrNoDealStatus.Won) return refuse('stale_deadline');
  return changed({ ...game, status: DealOrNoDealStatus.Finished, phaseEndsAt: null, phaseVersion: null });
}

/** The owner claims the prize: 0 → 5, paid once (the settlement). */
export function claim(game: DealOrNoDealGame, userId: string): Outcome {
  if (userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== DealOrNoDealStatus.Finished || game.winningCents === null) return refuse('not_claimable');
  return changed({ ...game, status: DealOrNoDealStatus.Claimed }, null, { prizeCents: game.winningCents });
}

/** Admin cancel: 7 from any status before the game ended; every box opens (nothing is paid). */
export function cancel(game: DealOrNoDealGame): Outcome {
  if (isEnded(game.status)) return refuse('already_final');
  return changed({
    ...game,
    status: DealOrNoDealStatus.Cancelled,
    opened: game.opened.map(() => true),
    phaseEndsAt: null,
    phaseVersion: null,
  });
}

/** The owner is the game's one seat. */
export function seatsOf(game: DealOrNoDealGame): Seat[] {
  return [{ userId: game.ownerId, audience: 'owner' }];
}

/** A box as every viewer sees it: its amount only once it is opened. */
export interface BoxView {
  id: number;
  isOpened: boolean;
  amount: bigint | null;
}

/** The board's amounts, smallest first, each marked once when a box holding it was opened. */
export interface AmountView {
  value: bigint;
  isOpened: boolean;
}

/** What every viewer may know (owner, watchers and admins alike: nobody sees inside a shut box). */
export interface GameView {
  status: DealOrNoDealStatusCode;
  amounts: AmountView[];
  boxesInfo: BoxView[];
  primaryBoxId: number | null;
  primaryBox: BoxView | null;
  lastOpenedBoxId: number | null;
  lastOpenedBox: BoxView | null;
  offerCents: bigint | null;
  winningCents: bigint | null;
  remainingBoxCountToOffer: number;
  round: number;
  ending: Ending | null;
  isPrivate: boolean;
  commitment: string;
  /** Revealed once the game ended (6, 0, 5, 7), so anyone can check the commitment. */
  seed: string | null;
  board: bigint[] | null;
}

export function viewOf(game: DealOrNoDealGame): GameView {
  const box = (id: number): BoxView => {
    const isOpened = game.opened[id - 1]!;
    return { id, isOpened, amount: isOpened ? game.board[id - 1]! : null };
  };
  const boxesInfo = game.board.map((_, i) => box(i + 1));
  const openedValues = game.board.filter((_, i) => game.opened[i]);
  const sorted = [...game.board].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const amounts = sorted.map((value) => {
    const at = openedValues.indexOf(value);
    if (at >= 0) openedValues.splice(at, 1);
    return { value, isOpened: at >= 0 };
  });
  const offering = game.status === DealOrNoDealStatus.BankOffer;
  return {
    status: game.status,
    amounts,
    boxesInfo,
    primaryBoxId: game.primaryBoxId,
    primaryBox: game.primaryBoxId === null ? null : box(game.primaryBoxId),
    lastOpenedBoxId: game.lastOpenedBoxId,
    lastOpenedBox: game.lastOpenedBoxId === null ? null : box(game.lastOpenedBoxId),
    offerCents: offering || game.ending === 'deal' ? game.offerCents : null,
    winningCents: game.winningCents,
    remainingBoxCountToOffer: game.status === DealOrNoDealStatus.Opening ? game.toOpen : 0,
    round: game.round,
    ending: game.ending,
    isPrivate: game.isPrivate,
    commitment: game.commitment,
    seed: isEnded(game.status) ? game.seed : null,
    board: isEnded(game.status) ? [...game.board] : null,
  };
}

/** A "big" opening (the louder sound): the amount is in the top half of the board. */
export function isBigAmount(board: readonly bigint[], cents: bigint): boolean {
  const sorted = [...board].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return cents >= sorted[Math.floor(sorted.length / 2)]!;
}

export const sounds = [
  'BigCaseOpened',
  'SmallCaseOpened',
  'BankerCalling',
  'DealMusic',
  'ThemeMusic',
  'ThinkingMusic',
] as const;
export type Sound = (typeof sounds)[number];

/** What happened between two states, as the show tells it: boxes opened and sounds to play. */
export interface Cues {
  opened: Array<{ boxId: number; cents: bigint }>;
  play: Sound[];
  stop: boolean;
}

/** The show's cues for a change (the server sends them after the new state). */
export function cuesOf(before: DealOrNoDealGame, after: DealOrNoDealGame): Cues {
  const cues: Cues = { opened: [], play: [], stop: false };
  const S = DealOrNoDealStatus;
  if (before.status !== S.BankOffer && after.status === S.BankOffer) cues.play.push('BankerCalling', 'ThinkingMusic');
  if (before.status === S.BankOffer && after.status !== S.BankOffer) cues.stop = true;
  if (before.status === S.WaitingForOwner && after.status === S.PickYourBox) cues.play.push('ThemeMusic');
  if (!isEnded(before.status) && after.status === S.Won) cues.play.push('DealMusic');
  // Openings during play (not the reveal of everything at the end): each box tells its amount.
  if (!isEnded(after.status)) {
    for (let i = 0; i < after.opened.length; i++) {
      if (after.opened[i] && !before.opened[i]) {
        const cents = after.board[i]!;
        cues.opened.push({ boxId: i + 1, cents });
        cues.play.unshift(isBigAmount(after.board, cents) ? 'BigCaseOpened' : 'SmallCaseOpened');
      }
    }
  }
  return cues;
}

// ---------------------------------------------------------------- verifiable board

/**
 * The board commitment: `SHA-256(seed ‖ board)` as lowercase hex, where `seed` is the 32 random
 * bytes the server drew at creation (published as 64 hex digits when the game ends) and `board`
 * is the ASCII text of the amounts in box order (box 1 first), each with exactly two decimals,
 * joined by commas: "0.05,250.00,1.00,…". These are the bytes hashed, seed bytes first.
 */
export function commitmentBytes(seedHex: string, board: readonly bigint[]): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(seedHex)) throw new RangeError('The seed is 32 bytes as 64 lowercase hex digits');
  const text = boardText(board);
  const bytes = new Uint8Array(32 + text.length);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(seedHex.slice(i * 2, i * 2 + 2), 16);
  for (let i = 0; i < text.length; i++) bytes[32 + i] = text.charCodeAt(i); // ASCII only
  return bytes;
}

/** The board as hashed: amounts in box order with two decimals, comma-separated. */
export function boardText(board: readonly bigint[]): string {
  return board
    .map((c) => {
      const units = c / 100n;
      const frac = (c % 100n).toString().padStart(2, '0');
      return `${units}.${frac}`;
    })
    .join(',');
}

/** The part of Web Crypto the commitment needs (browsers and Node both have it as crypto.subtle). */
export interface Digester {
  digest(algorithm: 'SHA-256', data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
}

export async function boardCommitment(subtle: Digester, seedHex: string, board: readonly bigint[]): Promise<string> {
  const digest = new Uint8Array(
    await subtle.digest('SHA-256', commitmentBytes(seedHex, board) as Uint8Array<ArrayBuffer>),
  );
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------- texts

/** Status texts of docs/product.md#live-states-and-transitions (the screen shows these); 5 and 7 have our own. */
export function statusText(game: { status: number; remainingBoxCountToOffer: number }, ownerName: string): string {
  switch (game.status) {
    case DealOrNoDealStatus.Finished:
      return 'Game finished. The prize can be claimed.';
    case DealOrNoDealStatus.WaitingForOwner:
      return `Waiting for ${ownerName} to start.`;
    case DealOrNoDealStatus.PickYourBox:
      return 'Pick a box to start.';
    case DealOrNoDealStatus.Opening: {
      // The contract's wording, "(s)" included, whatever N is.
      return `Select ${game.remainingBoxCountToOffer} more case(s)`;
    }
    case DealOrNoDealStatus.BankOffer:
      return 'The bank is making an offer: Deal or No Deal?';
    case DealOrNoDealStatus.Claimed:
      return 'Prize claimed.';
    case DealOrNoDealStatus.Won:
      return 'Congratulations!';
    case DealOrNoDealStatus.Cancelled:
      return 'Game cancelled.';
    case DealOrNoDealStatus.SwapOffer:
      return 'Two boxes left: change it or keep it?';
    default:
      return 'Game status is unknown';
  }
}

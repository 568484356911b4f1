/**
 * Split or Steal, as pure rules (docs/architecture.md#the-game-engine,
 * docs/product.md#live-states-and-transitions): a state and an action in, a new state (or a
 * refusal) out. No clock, no randomness, no I/O: the server passes `now` and the dealt balls,
 * stores the result, schedules the deadline it names and broadcasts after commit.
 *
 * The game is the TV show's: each player holds two balls, one reading Split and one Steal, dealt at
 * random. A player sees only the inside of their own balls (the `answerContext`) and, during the
 * choosing phase, picks one (`selection` 1 or 2: which ball). Picking the ball that reads Split
 * means Split; a player who never picks counts as Split. The balls open for everyone in status 4.
 *
 * Flow: 0/1/2 (seats filling) → 6 for 3 s → 3 for `counterInSeconds` → 4 (revealed, paid).
 * An admin may cancel (5) from any status that is not final.
 *
 * Payout (points, exact to the cent): both Split → half each, and when the reward has an odd cent
 * Player 1 gets it; one Steal → the stealer takes the whole reward; both Steal → nobody wins.
 */
import {
  changed as engineChanged,
  deadlineCheck,
  refuse as engineRefuse,
  unchanged,
  audienceOf,
  type LiveGameState,
  type Outcome as EngineOutcome,
  type Seat,
} from './engine';

export const SplitOrStealStatus = {
  WaitingForPlayers: 0,
  WaitingForPlayer1: 1,
  WaitingForPlayer2: 2,
  Choosing: 3,
  Ended: 4,
  Cancelled: 5,
  Starting: 6,
} as const;
export type SplitOrStealStatusCode = (typeof SplitOrStealStatus)[keyof typeof SplitOrStealStatus];

export const SPLIT = 1;
export const STEAL = 2;
/**
 * What a ball holds: 1 Split, 2 Steal (docs/product.md#split-or-steal-game-state: 1 means Split,
 * another non-zero value means Steal).
 */
export type Answer = typeof SPLIT | typeof STEAL;
export type Slot = 1 | 2;
/** Which of a player's two balls. */
export type Ball = 1 | 2;

/** Start countdown (docs/product.md#live-constants-and-limits). */
export const START_COUNTDOWN_SECONDS = 3;
/** Game Time default and bounds (the default is the contract's; the bounds are ours). */
export const DEFAULT_GAME_SECONDS = 10;
export const MIN_GAME_SECONDS = 5;
export const MAX_GAME_SECONDS = 300;

export type Pair<T> = readonly [T, T];

export interface SplitOrStealGame extends LiveGameState {
  status: SplitOrStealStatusCode;
  /** Grows by one with every change; clients use it to drop stale states. */
  version: number;
  rewardCents: bigint;
  counterInSeconds: number;
  /** Users an admin reserved each slot for (only they may take it). */
  designated: Pair<string | null>;
  /** Who sits in each slot. */
  players: Pair<string | null>;
  /** The ball each player picked, or null. */
  selections: Pair<Ball | null>;
  /** answers[slot - 1][ball - 1]: what each ball holds. */
  answers: Pair<Pair<Answer>>;
  /** Set in status 4. */
  winnings: Pair<bigint | null>;
  /** When the current timed phase (6 or 3) ends, epoch ms; null otherwise. */
  phaseEndsAt: number | null;
  /** The version at which the current timed phase began: its deadline carries this number. */
  phaseVersion: number | null;
}

export type SplitOrStealError =
  | 'not_joinable'
  | 'slot_taken'
  | 'slot_reserved'
  | 'already_seated'
  | 'reserved_elsewhere'
  | 'not_choosing'
  | 'not_a_player'
  | 'choosing_over'
  | 'already_final'
  | 'stale_deadline'
  | 'not_due';

/** The rules contract of ./engine for this game. */
export type Outcome = EngineOutcome<SplitOrStealGame, SplitOrStealError, Settlement>;

export interface Settlement {
  choices: Pair<Answer>;
  winnings: Pair<bigint>;
}

const refuse = (error: SplitOrStealError): Outcome => engineRefuse(error);
const changed = (
  game: SplitOrStealGame,
  deadline: number | null = null,
  settlement: Settlement | null = null,
): Outcome => engineChanged(game, deadline, settlement);

function replace<T>(pair: Pair<T>, slot: Slot, value: T): Pair<T> {
  return slot === 1 ? [value, pair[1]] : [pair[0], value];
}

export function isFinal(status: number): boolean {
  return status === SplitOrStealStatus.Ended || status === SplitOrStealStatus.Cancelled;
}

export function isJoining(status: number): boolean {
  return (
    status === SplitOrStealStatus.WaitingForPlayers ||
    status === SplitOrStealStatus.WaitingForPlayer1 ||
    status === SplitOrStealStatus.WaitingForPlayer2
  );
}

/** The waiting status that names the empty seat(s). */
export function waitingStatus(players: Pair<string | null>): SplitOrStealStatusCode {
  if (!players[0] && !players[1]) return SplitOrStealStatus.WaitingForPlayers;
  if (!players[0]) return SplitOrStealStatus.WaitingForPlayer1;
  return SplitOrStealStatus.WaitingForPlayer2;
}

/** Turns two coin flips into dealt balls: false puts Split in ball 1, true puts it in ball 2. */
export function dealAnswers(flip1: boolean, flip2: boolean): Pair<Pair<Answer>> {
  const deal = (flip: boolean): Pair<Answer> => (flip ? [STEAL, SPLIT] : [SPLIT, STEAL]);
  return [deal(flip1), deal(flip2)];
}

export function newGame(input: {
  rewardCents: bigint;
  counterInSeconds: number;
  designated: Pair<string | null>;
  answers: Pair<Pair<Answer>>;
}): SplitOrStealGame {
  if (input.rewardCents <= 0n) throw new RangeError('The reward must be positive');
  if (
    !Number.isInteger(input.counterInSeconds) ||
    input.counterInSeconds < MIN_GAME_SECONDS ||
    input.counterInSeconds > MAX_GAME_SECONDS
  ) {
    throw new RangeError(`Game time must be ${MIN_GAME_SECONDS}–${MAX_GAME_SECONDS} seconds`);
  }
  if (input.designated[0] && input.designated[0] === input.designated[1]) {
    throw new RangeError('One user cannot hold both slots');
  }
  return {
    status: SplitOrStealStatus.WaitingForPlayers,
    version: 1,
    rewardCents: input.rewardCents,
    counterInSeconds: input.counterInSeconds,
    designated: input.designated,
    players: [null, null],
    selections: [null, null],
    answers: input.answers,
    winnings: [null, null],
    phaseEndsAt: null,
    phaseVersion: null,
  };
}

/** The slot a user sits in, or null. */
export function slotOf(game: SplitOrStealGame, userId: string | null | undefined): Slot | null {
  if (!userId) return null;
  if (game.players[0] === userId) return 1;
  if (game.players[1] === userId) return 2;
  return null;
}

/** May this user take this slot right now? (The Join button shows exactly when this is true.) */
export function canJoin(game: SplitOrStealGame, slot: Slot, userId: string): SplitOrStealError | null {
  if (!isJoining(game.status)) return 'not_joinable';
  if (game.players[slot - 1]) return 'slot_taken';
  if (slotOf(game, userId)) return 'already_seated';
  const reservedFor = game.designated[slot - 1];
  if (reservedFor && reservedFor !== userId) return 'slot_reserved';
  const other = (slot === 1 ? 2 : 1) as Slot;
  if (game.designated[other - 1] === userId) return 'reserved_elsewhere';
  return null;
}

/** A signed-in user takes an empty slot; the second seat filled starts the 3-second countdown. */
export function join(game: SplitOrStealGame, action: { slot: Slot; userId: string; now: number }): Outcome {
  const why = canJoin(game, action.slot, action.userId);
  if (why) return refuse(why);
  const players = replace(game.players, action.slot, action.userId);
  if (players[0] && players[1]) {
    const deadline = action.now + START_COUNTDOWN_SECONDS * 1000;
    return changed(
      { ...game, players, status: SplitOrStealStatus.Starting, phaseEndsAt: deadline, phaseVersion: game.version + 1 },
      deadline,
    );
  }
  return changed({ ...game, players, status: waitingStatus(players) });
}

/** A player picks one of their balls; changeable until the deadline. */
export function select(game: SplitOrStealGame, action: { userId: string; ball: Ball; now: number }): Outcome {
  if (game.status !== SplitOrStealStatus.Choosing) return refuse('not_choosing');
  const slot = slotOf(game, action.userId);
  if (!slot) return refuse('not_a_player');
  if (game.phaseEndsAt !== null && action.now >= game.phaseEndsAt) return refuse('choosing_over');
  if (game.selections[slot - 1] === action.ball) return unchanged(game);
  return changed({ ...game, selections: replace(game.selections, slot, action.ball) });
}

/** What a player chose: the content of the picked ball, Split when they picked none. */
export function choiceOf(game: SplitOrStealGame, slot: Slot): Answer {
  const ball = game.selections[slot - 1];
  if (!ball) return SPLIT;
  return game.answers[slot - 1]![ball - 1]!;
}

/** The payout of docs/features/split-or-steal.md#rules, in hundredths. */
export function settle(rewardCents: bigint, choices: Pair<Answer>): Pair<bigint> {
  const [a, b] = choices;
  if (a === SPLIT && b === SPLIT) {
    const half = rewardCents / 2n;
    return [rewardCents - half, half]; // Player 1 gets the odd cent
  }
  if (a === STEAL && b === SPLIT) return [rewardCents, 0n];
  if (a === SPLIT && b === STEAL) return [0n, rewardCents];
  return [0n, 0n];
}

/**
 * The stored deadline of the current phase has come: 6 → 3 (choosing starts now, for
 * `counterInSeconds`), 3 → 4 (balls open, winnings settled). `version` is the version at which
 * the phase the deadline was set for began; any other means the game moved on (a later phase, or
 * cancelled) and nothing happens. Selections change the version but not the phase.
 */
export function onDeadline(game: SplitOrStealGame, at: { version: number; now: number }): Outcome {
  const why = deadlineCheck(game, at);
  if (why) return refuse(why);
  if (game.status === SplitOrStealStatus.Starting) {
    const deadline = at.now + game.counterInSeconds * 1000;
    return changed(
      { ...game, status: SplitOrStealStatus.Choosing, phaseEndsAt: deadline, phaseVersion: game.version + 1 },
      deadline,
    );
  }
  if (game.status === SplitOrStealStatus.Choosing) {
    const choices: Pair<Answer> = [choiceOf(game, 1), choiceOf(game, 2)];
    const winnings = settle(game.rewardCents, choices);
    return changed(
      { ...game, status: SplitOrStealStatus.Ended, phaseEndsAt: null, phaseVersion: null, winnings },
      null,
      {
        choices,
        winnings,
      },
    );
  }
  return refuse('stale_deadline');
}

/** Admin cancel: 5 from any status that is not final. */
export function cancel(game: SplitOrStealGame): Outcome {
  if (isFinal(game.status)) return refuse('already_final');
  return changed({ ...game, status: SplitOrStealStatus.Cancelled, phaseEndsAt: null, phaseVersion: null });
}

/** The seated players: each is the "player" audience of the game (there is no owner). */
export function seatsOf(game: SplitOrStealGame): Seat[] {
  return game.players.filter((id): id is string => id !== null).map((userId) => ({ userId, audience: 'player' }));
}

/** A ball as a viewer sees it: its content, or 0 while it is hidden from them. */
export type SeenAnswer = Answer | 0;

export interface AnswerContext {
  player1_Answer1: SeenAnswer;
  player1_Answer2: SeenAnswer;
  player2_Answer1: SeenAnswer;
  player2_Answer2: SeenAnswer;
}

export const hiddenAnswers: AnswerContext = {
  player1_Answer1: 0,
  player1_Answer2: 0,
  player2_Answer1: 0,
  player2_Answer2: 0,
};

/**
 * What a viewer may know of the balls: everything once the game ended (4); before that a seated
 * player sees their own two balls and nobody sees anyone else's (0 = not revealed).
 */
export function answerContextFor(game: SplitOrStealGame, viewerUserId: string | null): AnswerContext {
  const all = game.status === SplitOrStealStatus.Ended;
  const viewer = audienceOf(seatsOf(game), { userId: viewerUserId, isAdmin: false });
  const mine = viewer.audience === 'player' ? slotOf(game, viewer.userId) : null;
  const show = (slot: Slot, ball: Ball) => (all || mine === slot ? game.answers[slot - 1]![ball - 1]! : 0);
  return {
    player1_Answer1: show(1, 1),
    player1_Answer2: show(1, 2),
    player2_Answer1: show(2, 1),
    player2_Answer2: show(2, 2),
  };
}

/** Status texts of docs/product.md#live-states-and-transitions (the screen shows these). */
export function statusText(status: number, names: { player1?: string | null; player2?: string | null } = {}): string {
  switch (status) {
    case SplitOrStealStatus.WaitingForPlayers:
      return 'Waiting for players to join';
    case SplitOrStealStatus.WaitingForPlayer1:
      return names.player1 ? `Waiting for ${names.player1} to join` : 'Waiting for Player 1';
    case SplitOrStealStatus.WaitingForPlayer2:
      return names.player2 ? `Waiting for ${names.player2} to join` : 'Waiting for Player 2';
    case SplitOrStealStatus.Choosing:
      return 'Split or Steal? Choose now';
    case SplitOrStealStatus.Ended:
      return 'Game over';
    case SplitOrStealStatus.Cancelled:
      return 'Game cancelled';
    case SplitOrStealStatus.Starting:
      return 'Game is starting in 3 seconds';
    default:
      return 'Game status is unknown';
  }
}

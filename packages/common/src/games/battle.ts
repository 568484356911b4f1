/**
 * Bonus-buy battles as pure rules (docs/features/bonus-buy-battles.md, docs/architecture.md#the-game-engine):
 * a state and an action in, a new state or a refusal out. No clock, no randomness, no I/O: the
 * server passes `now`, the draw it computed from the stored snapshot and the committed seed, and
 * the results the streamer typed; it stores the state, fires the registration deadline and pays
 * the settlement.
 *
 * Flow: registration (entries until the deadline or the admin's close) → closed (the entrant list
 * frozen as the draw's snapshot) → playing (the bracket drawn; matches recorded one at a time in
 * bracket order) → finished (the final resolved; the prize settled once). An admin may cancel any
 * battle that is not over.
 *
 * The bracket is derived, never stored twice: the drawn round-one seats plus each match's recorded
 * outcome (played or void) give every later match's sides. An empty seat is a bye; a void match
 * sends nobody on. Amounts are decimal text with two places, compared exactly in cents.
 */
import { centsToText, toCents } from '../money';
import { snapshotText } from '../giveaway/draw';
import { changed, deadlineCheck, refuse, unchanged, type LiveGameState, type Outcome as EngineOutcome } from './engine';

export const bracketSizes = [4, 8, 16, 32] as const;
export type BracketSize = (typeof bracketSizes)[number];

export const battleStatuses = ['registration', 'closed', 'playing', 'finished', 'cancelled'] as const;
export type BattleStatus = (typeof battleStatuses)[number];

/** How many may enter at most (the draw picks the field from them). */
export const MAX_ENTRANTS = 1000;
export const MAX_SLOT_LENGTH = 60;
/** The largest cost or win one bonus buy may record. */
export const MAX_RESULT_AMOUNT = 10_000_000;

/** The tie rule, shown on the battle page. */
export const TIE_RULE =
  'The higher multiplier (win ÷ cost) advances. On equal multipliers the higher win advances; on equal wins, the entrant who entered first.';

export interface BattleEntrant {
  userId: string;
  username: string;
  slot: string | null;
  /** Order of entry, from 1: the last tie-breaker. */
  seq: number;
}

export type BattlePrize = { kind: 'points'; points: string } | { kind: 'item'; item: string };

export interface BattleRules {
  /** The partner site whose verified link is required (leaderboard site id), or null. */
  siteId: number | null;
  /** Least wager under the code on that site this period (decimal text), or null. */
  minWager: string | null;
  subsOnly: boolean;
}

/** One bonus buy: what it cost and what it paid (decimal text). */
export interface BuyResult {
  cost: string;
  win: string;
}

export type MatchOutcome =
  | { kind: 'played'; a: BuyResult; b: BuyResult; slotA: string | null; slotB: string | null; winner: 'a' | 'b' }
  | { kind: 'void'; reason: string };

export interface BattleGame extends LiveGameState {
  title: string;
  size: BracketSize;
  status: BattleStatus;
  rules: BattleRules;
  prize: BattlePrize;
  entrants: BattleEntrant[];
  /** SHA-256 of the seed, published from the start; the seed itself only once drawn. */
  seedHash: string;
  seed: string;
  /** The frozen entrant list as the draw's canonical text, and its hash once drawn. */
  snapshot: string | null;
  snapshotHash: string | null;
  /** User ids in draw order (the field, at most `size`). */
  drawn: string[] | null;
  /** When the bracket was drawn (epoch ms). */
  drawnAt: number | null;
  /** Round-one seats (2 per match), user id or null for a bye. */
  seats: (string | null)[];
  /** Recorded outcome of each match, by match number (0-based, round by round). */
  outcomes: (MatchOutcome | null)[];
  winnerId: string | null;
  cancelReason: string | null;
}

export type BattleError =
  | 'not_registration'
  | 'registration_over'
  | 'already_entered'
  | 'full'
  | 'not_entrant'
  | 'slot_locked'
  | 'not_closed'
  | 'bad_draw'
  | 'not_playing'
  | 'not_in_play'
  | 'bad_result'
  | 'not_replayable'
  | 'already_over'
  | 'stale_deadline'
  | 'not_due';

/** `finished`: the final resolved (by whoever's action did it); a voided final has no winner and pays nobody. */
export type Settlement = { kind: 'closed' } | { kind: 'finished'; winnerId: string | null };
export type Outcome = EngineOutcome<BattleGame, BattleError, Settlement>;

export function roundsOf(size: number): number {
  return Math.log2(size);
}

/** The number of the first match of each round, and the match count. */
export function matchCount(size: number): number {
  return size - 1;
}

export function matchPosition(size: number, no: number): { round: number; index: number } {
  let first = 0;
  for (let round = 0, n = size / 2; n >= 1; round++, n /= 2) {
    if (no < first + n) return { round, index: no - first };
    first += n;
  }
  throw new Error(`no match ${no} in a bracket of ${size}`);
}

function matchNumber(size: number, round: number, index: number): number {
  let first = 0;
  for (let r = 0, n = size / 2; r < round; r++, n /= 2) first += n;
  return first + index;
}

export function newBattle(input: {
  title: string;
  size: BracketSize;
  rules: BattleRules;
  prize: BattlePrize;
  seed: string;
  seedHash: string;
  registrationEndsAt: number;
}): BattleGame {
  return {
    version: 1,
    phaseEndsAt: input.registrationEndsAt,
    phaseVersion: 1,
    title: input.title,
    size: input.size,
    status: 'registration',
    rules: input.rules,
    prize: input.prize,
    entrants: [],
    seedHash: input.seedHash,
    seed: input.seed,
    snapshot: null,
    snapshotHash: null,
    drawn: null,
    drawnAt: null,
    seats: [],
    outcomes: Array.from({ length: matchCount(input.size) }, () => null),
    winnerId: null,
    cancelReason: null,
  };
}

// ------------------------------------------------------------------------------- the bracket

export type MatchState = 'waiting' | 'ready' | 'played' | 'bye' | 'void';

export interface BracketMatch {
  no: number;
  round: number;
  index: number;
  /** A side's user id; null an empty side (a bye); undefined not known yet. */
  a: string | null | undefined;
  b: string | null | undefined;
  state: MatchState;
  /** Who goes on: a user id, null for nobody, undefined while unresolved. */
  winner: string | null | undefined;
  outcome: MatchOutcome | null;
}

/** Every match with its sides and state, derived from the seats and the recorded outcomes. */
export function bracketOf(game: BattleGame): BracketMatch[] {
  const out: BracketMatch[] = [];
  if (game.seats.length === 0) return out;
  for (let no = 0; no < matchCount(game.size); no++) {
    const { round, index } = matchPosition(game.size, no);
    let a: string | null | undefined;
    let b: string | null | undefined;
    if (round === 0) {
      a = game.seats[index * 2] ?? null;
      b = game.seats[index * 2 + 1] ?? null;
    } else {
      a = out[matchNumber(game.size, round - 1, index * 2)]!.winner;
      b = out[matchNumber(game.size, round - 1, index * 2 + 1)]!.winner;
    }
    const outcome = game.outcomes[no] ?? null;
    let state: MatchState;
    let winner: string | null | undefined;
    if (a === undefined || b === undefined) {
      state = 'waiting';
    } else if (outcome?.kind === 'played') {
      state = 'played';
      winner = outcome.winner === 'a' ? a : b;
    } else if (outcome?.kind === 'void') {
      state = 'void';
      winner = null;
    } else if (a !== null && b !== null) {
      state = 'ready';
    } else {
      state = 'bye';
      winner = a ?? b;
    }
    out.push({ no, round, index, a, b, state, winner, outcome });
  }
  return out;
}

/** The match in play: the first one ready, in bracket order. */
export function currentMatch(game: BattleGame): BracketMatch | null {
  if (game.status !== 'playing') return null;
  return bracketOf(game).find((m) => m.state === 'ready') ?? null;
}

/** Multiplier × 100, rounded down (for display: the comparison itself is exact). */
export function multiplierText(r: BuyResult): string {
  return centsToText((toCents(r.win) * 100n) / toCents(r.cost));
}

/**
 * Which side wins a match: the higher multiplier, compared exactly (win_a·cost_b against
 * win_b·cost_a); then the higher win; then the earlier entry.
 */
export function winnerOf(a: BuyResult, b: BuyResult, seqA: number, seqB: number): 'a' | 'b' {
  const left = toCents(a.win) * toCents(b.cost);
  const right = toCents(b.win) * toCents(a.cost);
  if (left !== right) return left > right ? 'a' : 'b';
  const winA = toCents(a.win);
  const winB = toCents(b.win);
  if (winA !== winB) return winA > winB ? 'a' : 'b';
  return seqA <= seqB ? 'a' : 'b';
}

/**
 * What decided a played match under the tie rule: the exact multipliers when they differ (even if
 * they round to the same text), else the higher win (a tie on the multiplier), else the earlier
 * entry (a tie on both). The pages and the overlay say so, so a tie is never a mystery.
 */
export type DecidedBy = 'multiplier' | 'win' | 'entry';
export function decidedBy(a: BuyResult, b: BuyResult): DecidedBy {
  if (toCents(a.win) * toCents(b.cost) !== toCents(b.win) * toCents(a.cost)) return 'multiplier';
  return toCents(a.win) !== toCents(b.win) ? 'win' : 'entry';
}

/** After a change of outcomes: finishes the battle when the final is resolved, paying its winner if any. */
function afterOutcome(game: BattleGame, outcomes: (MatchOutcome | null)[]): Outcome {
  const next: BattleGame = { ...game, outcomes };
  const matches = bracketOf(next);
  const final = matches[matches.length - 1]!;
  if (final.winner === undefined) return changed(next);
  const winnerId = final.winner;
  return changed({ ...next, status: 'finished', winnerId }, null, { kind: 'finished', winnerId });
}

// ------------------------------------------------------------------------------- actions

const over = (g: BattleGame) => g.status === 'finished' || g.status === 'cancelled';

/** An entry; `slot` is the entrant's open slot call, when they have one (they may change it). */
export function enter(
  game: BattleGame,
  who: { userId: string; username: string; now: number; slot?: string | null },
): Outcome {
  if (game.status !== 'registration') return refuse('not_registration');
  if (game.phaseEndsAt !== null && who.now >= game.phaseEndsAt) return refuse('registration_over');
  if (game.entrants.some((e) => e.userId === who.userId)) return refuse('already_entered');
  if (game.entrants.length >= MAX_ENTRANTS) return refuse('full');
  const seq = game.entrants.length + 1;
  return changed({
    ...game,
    entrants: [...game.entrants, { userId: who.userId, username: who.username, slot: who.slot ?? null, seq }],
  });
}

/**
 * An entrant's slot, by the entrant or an admin: until the entrant's first match is recorded (a
 * played match keeps the slots it was played with anyway).
 */
export function setSlot(game: BattleGame, userId: string, slot: string): Outcome {
  if (over(game)) return refuse('already_over');
  const entrant = game.entrants.find((e) => e.userId === userId);
  if (!entrant) return refuse('not_entrant');
  if (game.status === 'playing') {
    const played = bracketOf(game).some(
      (m) => (m.state === 'played' || m.state === 'void') && (m.a === userId || m.b === userId),
    );
    if (played) return refuse('slot_locked');
  }
  if (entrant.slot === slot) return unchanged(game);
  return changed({ ...game, entrants: game.entrants.map((e) => (e.userId === userId ? { ...e, slot } : e)) });
}

/**
 * The draw's snapshot of the entrants: the giveaway draw's canonical text, one entry of weight 1
 * per entrant, the site user id in the draw's id field.
 */
export function snapshotOf(entrants: readonly BattleEntrant[]): string {
  return snapshotText(entrants.map((e) => ({ kickUserId: e.userId, username: e.username, weight: 1 })));
}

/**
 * Closes registration (the deadline or the admin): the entrant list is frozen as the draw's
 * snapshot text. Fewer than two entrants cancels the battle.
 */
export function close(game: BattleGame): Outcome {
  if (game.status !== 'registration') return refuse('not_registration');
  const base = { ...game, phaseEndsAt: null, phaseVersion: null };
  if (game.entrants.length < 2) {
    return changed({ ...base, status: 'cancelled', cancelReason: 'Fewer than two entrants.' });
  }
  return changed({ ...base, status: 'closed', snapshot: snapshotOf(game.entrants) }, null, { kind: 'closed' });
}

/**
 * The draw's result (computed by the server from the stored snapshot under the committed seed):
 * the field in draw order seats the bracket — the first half on the matches' left, the rest on
 * their right, so byes meet distinct entrants first.
 */
export function seat(
  game: BattleGame,
  draw: { snapshotHash: string; order: string[]; now: number; snapshot?: string },
): Outcome {
  if (game.status !== 'closed' || game.snapshot === null) return refuse('not_closed');
  // The snapshot drawn from: the one frozen at the close, or that one without the entrants barred
  // since (excluded or banned: never in a draw).
  const snapshot = draw.snapshot ?? game.snapshot;
  const field = (JSON.parse(snapshot) as { kickUserId: string }[]).map((e) => e.kickUserId);
  const frozen = new Set(game.entrants.map((e) => e.userId));
  if (!field.every((id) => frozen.has(id))) return refuse('bad_draw');
  const ids = new Set(field);
  const want = Math.min(game.size, field.length);
  if (draw.order.length !== want || new Set(draw.order).size !== want || !draw.order.every((id) => ids.has(id))) {
    return refuse('bad_draw');
  }
  const half = game.size / 2;
  const seats: (string | null)[] = Array.from({ length: game.size }, () => null);
  draw.order.forEach((id, i) => {
    seats[i < half ? i * 2 : (i - half) * 2 + 1] = id;
  });
  const next: BattleGame = {
    ...game,
    status: 'playing',
    snapshot,
    snapshotHash: draw.snapshotHash,
    drawn: draw.order,
    drawnAt: draw.now,
    seats,
  };
  return afterOutcome(next, next.outcomes);
}

function checkResult(r: BuyResult): boolean {
  try {
    const cost = toCents(r.cost);
    const win = toCents(r.win);
    const max = BigInt(MAX_RESULT_AMOUNT) * 100n;
    return cost > 0n && cost <= max && win >= 0n && win <= max;
  } catch {
    return false;
  }
}

/** The streamer's two bonus buys of the match in play. */
export function record(game: BattleGame, input: { matchNo: number; a: BuyResult; b: BuyResult }): Outcome {
  if (game.status !== 'playing') return refuse('not_playing');
  const current = currentMatch(game);
  if (!current || current.no !== input.matchNo) return refuse('not_in_play');
  if (!checkResult(input.a) || !checkResult(input.b)) return refuse('bad_result');
  const seqOf = (id: string | null | undefined) => game.entrants.find((e) => e.userId === id)?.seq ?? Infinity;
  const slotOf = (id: string | null | undefined) => game.entrants.find((e) => e.userId === id)?.slot ?? null;
  const a = { cost: centsToText(toCents(input.a.cost)), win: centsToText(toCents(input.a.win)) };
  const b = { cost: centsToText(toCents(input.b.cost)), win: centsToText(toCents(input.b.win)) };
  const outcomes = [...game.outcomes];
  outcomes[current.no] = {
    kind: 'played',
    a,
    b,
    slotA: slotOf(current.a),
    slotB: slotOf(current.b),
    winner: winnerOf(a, b, seqOf(current.a), seqOf(current.b)),
  };
  return afterOutcome(game, outcomes);
}

/** Whether a resolved match may be reopened: nothing after it (the match it feeds) is recorded. */
function reopenable(game: BattleGame, no: number): boolean {
  const { round, index } = matchPosition(game.size, no);
  if (round === roundsOf(game.size) - 1) return true;
  return game.outcomes[matchNumber(game.size, round + 1, Math.floor(index / 2))] === null;
}

/** The admin strikes a match's result: it is played again (the reason is audited by the server). */
export function replay(game: BattleGame, matchNo: number): Outcome {
  if (game.status !== 'playing') return refuse(over(game) ? 'already_over' : 'not_playing');
  if (!Number.isInteger(matchNo) || matchNo < 0 || matchNo >= game.outcomes.length) return refuse('not_replayable');
  if (game.outcomes[matchNo] === null || !reopenable(game, matchNo)) return refuse('not_replayable');
  const outcomes = [...game.outcomes];
  outcomes[matchNo] = null;
  return afterOutcome(game, outcomes);
}

/** The admin voids the match in play or a recorded one: nobody goes on from it. */
export function voidMatch(game: BattleGame, matchNo: number, reason: string): Outcome {
  if (game.status !== 'playing') return refuse(over(game) ? 'already_over' : 'not_playing');
  const current = currentMatch(game);
  const recorded = Number.isInteger(matchNo) && game.outcomes[matchNo] !== undefined && game.outcomes[matchNo] !== null;
  if (current?.no !== matchNo && !(recorded && reopenable(game, matchNo))) return refuse('not_in_play');
  const outcomes = [...game.outcomes];
  outcomes[matchNo] = { kind: 'void', reason };
  return afterOutcome(game, outcomes);
}

export function cancel(game: BattleGame, reason: string): Outcome {
  if (over(game)) return refuse('already_over');
  return changed({ ...game, status: 'cancelled', cancelReason: reason, phaseEndsAt: null, phaseVersion: null });
}

/** The registration deadline: closes entries. */
export function onDeadline(game: BattleGame, at: { version: number; now: number }): Outcome {
  const why = deadlineCheck(game, at);
  if (why) return refuse(why);
  return close(game);
}

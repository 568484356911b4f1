/**
 * Chat predictions (docs/product.md#live-entities, docs/product.md#live-states-and-transitions,
 * docs/product.md#live-validation, docs/features/predictions.md#rules): the pure rules. A
 * prediction is a live game on the engine (../games/engine): admins open, lock, resolve, cancel and
 * hide it; its optional auto-lock is the engine's durable deadline. Bets are not part of this state
 * (they are rows, one per bettor, escrowed through the ledger), but the rules that decide whether a
 * bet may be taken, how `!bet` reads and how a pool is paid out live here, pure and testable.
 */
import { changed, deadlineCheck, refuse, unchanged, type LiveGameState, type Outcome } from './engine';

/** The states of docs/product.md#live-states-and-transitions, as the overlay receives them. */
export const PredictionStatus = {
  Hidden: 0,
  Active: 1,
  Resolved: 2,
  Locked: 3,
  Cancelled: 4,
} as const;
export type PredictionStatusCode = (typeof PredictionStatus)[keyof typeof PredictionStatus];

export const MIN_ANSWERS = 2;
export const MAX_ANSWERS = 10;

export interface PredictionAnswer {
  /** 1-based, the number chatters type in `!bet {option} {points}`. */
  id: number;
  text: string;
  color: string;
}

export interface PredictionGame extends LiveGameState {
  question: string;
  answers: PredictionAnswer[];
  /** 1, 2, 3 or 4; hiding keeps it and sets `hidden` (the overlay then sees 0). */
  status: 1 | 2 | 3 | 4;
  hidden: boolean;
  resultAnswerId: number | null;
  minBetCents: bigint | null;
  maxBetCents: bigint | null;
  startedAt: number;
}

export type PredictionError =
  'not_open' | 'not_settled' | 'already_hidden' | 'unknown_answer' | 'stale_deadline' | 'not_due';

/** What the runner does in the transaction that resolved or cancelled: pay or refund the pool. */
export type PredictionSettlement = { kind: 'resolve'; answerId: number } | { kind: 'refund' };

export type PredictionOutcome = Outcome<PredictionGame, PredictionError, PredictionSettlement>;

export interface NewPrediction {
  question: string;
  answers: PredictionAnswer[];
  autoLockAt: number | null;
  minBetCents: bigint | null;
  maxBetCents: bigint | null;
  now: number;
}

/** A freshly opened prediction (active, version 1); an auto-lock is its timed phase. */
export function newPrediction(p: NewPrediction): PredictionGame {
  return {
    version: 1,
    phaseEndsAt: p.autoLockAt,
    phaseVersion: p.autoLockAt === null ? null : 1,
    question: p.question,
    answers: p.answers,
    status: PredictionStatus.Active,
    hidden: false,
    resultAnswerId: null,
    minBetCents: p.minBetCents,
    maxBetCents: p.maxBetCents,
    startedAt: p.now,
  };
}

const untimed = { phaseEndsAt: null, phaseVersion: null };

/** Bets close (3 BETS ARE CLOSED); only an active prediction locks. */
export function lock(game: PredictionGame): PredictionOutcome {
  if (game.status !== PredictionStatus.Active) return refuse('not_open');
  return changed({ ...game, ...untimed, status: PredictionStatus.Locked });
}

/** The winning answer is known (2 "Answer is {id}"); the pool is paid in the same transaction. */
export function resolve(game: PredictionGame, answerId: number): PredictionOutcome {
  if (game.status !== PredictionStatus.Active && game.status !== PredictionStatus.Locked) return refuse('not_open');
  if (!game.answers.some((a) => a.id === answerId)) return refuse('unknown_answer');
  return changed({ ...game, ...untimed, status: PredictionStatus.Resolved, resultAnswerId: answerId }, null, {
    kind: 'resolve',
    answerId,
  });
}

/** 4 CANCELLED: every stake goes back. */
export function cancel(game: PredictionGame): PredictionOutcome {
  if (game.status !== PredictionStatus.Active && game.status !== PredictionStatus.Locked) return refuse('not_open');
  return changed({ ...game, ...untimed, status: PredictionStatus.Cancelled }, null, { kind: 'refund' });
}

/** 0: the overlay hides a settled prediction (an open one must be resolved or cancelled first). */
export function hide(game: PredictionGame): PredictionOutcome {
  if (game.status !== PredictionStatus.Resolved && game.status !== PredictionStatus.Cancelled) {
    return refuse('not_settled');
  }
  if (game.hidden) return refuse('already_hidden');
  return changed({ ...game, hidden: true });
}

/** The auto-lock: a stale deadline (locked or settled by hand since) changes nothing. */
export function onDeadline(game: PredictionGame, at: { version: number; now: number }): PredictionOutcome {
  const why = deadlineCheck(game, at);
  if (why) return refuse(why);
  if (game.status !== PredictionStatus.Active) return unchanged(game);
  return lock(game);
}

/** The status the overlay sees: 0 when hidden. */
export function visibleStatus(game: PredictionGame): PredictionStatusCode {
  return game.hidden ? PredictionStatus.Hidden : game.status;
}

// ------------------------------------------------------------------------------------ bets

export type BetRefusal = 'not_active' | 'unknown_answer' | 'other_answer' | 'not_positive' | 'below_min' | 'above_max';

/**
 * Whether a bet of `cents` on `answerId` may be taken, given the bettor's stake so far (one answer
 * per bettor; more on the same answer adds). The maximum bounds the bettor's total stake; the
 * minimum bounds each bet. The balance is the ledger's to check.
 */
export function checkBet(
  game: PredictionGame,
  bet: { answerId: number; cents: bigint },
  existing: { answerId: number; stakeCents: bigint } | null,
): BetRefusal | null {
  if (game.status !== PredictionStatus.Active || game.hidden) return 'not_active';
  if (!game.answers.some((a) => a.id === bet.answerId)) return 'unknown_answer';
  if (existing && existing.answerId !== bet.answerId) return 'other_answer';
  if (bet.cents <= 0n) return 'not_positive';
  if (game.minBetCents !== null && bet.cents < game.minBetCents) return 'below_min';
  if (game.maxBetCents !== null && bet.cents + (existing?.stakeCents ?? 0n) > game.maxBetCents) return 'above_max';
  return null;
}

export type ParsedBet =
  { ok: true; option: number; cents: bigint } | { ok: false; error: 'malformed' | 'not_positive' };

const BET_COMMAND = /^!bet(?:\s|$)/i;
/** An amount: digits with up to 2 decimals, or with a "k" (thousands) up to 5 decimals before it. */
const AMOUNT = /^(\d{1,12})(?:\.(\d{1,5}))?(k)?$/i;

/**
 * Reads `!bet {option} {points}` (docs/product.md#live-validation). Null when the message is not a `!bet` at all.
 * Points may use the contract's "k" abbreviation: `1.5k` is 1500. An amount that does not come to
 * whole hundredths (`0.001`, `1.234567k`) or has signs, commas or extra words is malformed.
 */
export function parseBet(text: string): ParsedBet | null {
  const trimmed = text.trim();
  if (!BET_COMMAND.test(trimmed)) return null;
  const parts = trimmed.split(/\s+/).slice(1);
  if (parts.length !== 2) return { ok: false, error: 'malformed' };
  const [optionText, amountText] = parts as [string, string];
  if (!/^\d{1,3}$/.test(optionText)) return { ok: false, error: 'malformed' };
  const m = AMOUNT.exec(amountText);
  if (!m) return /^[-+]/.test(amountText) ? { ok: false, error: 'not_positive' } : { ok: false, error: 'malformed' };
  const whole = BigInt(m[1]!);
  const fraction = m[2] ?? '';
  // Hundredths per unit typed: 100, or 100,000 with "k"; the fraction then has 2 or 5 digits.
  const scale = m[3] ? 100_000n : 100n;
  const fractionDigits = m[3] ? 5 : 2;
  if (fraction.length > fractionDigits) return { ok: false, error: 'malformed' };
  const cents = whole * scale + BigInt(fraction.padEnd(fractionDigits, '0'));
  if (cents <= 0n) return { ok: false, error: 'not_positive' };
  return { ok: true, option: Number(optionText), cents };
}

// ------------------------------------------------------------------------------------ payout

export interface Stake {
  userId: string;
  answerId: number;
  cents: bigint;
}

export interface Payout {
  userId: string;
  answerId: number;
  stakeCents: bigint;
  /** What the bettor gets back (stake + winnings, or the refund); 0 for a loser. */
  payoutCents: bigint;
}

export interface PoolResult {
  payouts: Payout[];
  poolCents: bigint;
  paidCents: bigint;
  /** Hundredths left by rounding every winner down: recorded, kept by the house, never lost. */
  remainderCents: bigint;
  /** True when nobody bet on the winning answer: everyone got their stake back. */
  refunded: boolean;
}

/** Every stake back (cancel, or nobody on the winning answer). */
export function refundAll(stakes: readonly Stake[]): PoolResult {
  const pool = stakes.reduce((s, b) => s + b.cents, 0n);
  return {
    payouts: stakes.map((b) => ({ userId: b.userId, answerId: b.answerId, stakeCents: b.cents, payoutCents: b.cents })),
    poolCents: pool,
    paidCents: pool,
    remainderCents: 0n,
    refunded: true,
  };
}

/**
 * Pari-mutuel: each winner gets their stake back plus the losers' pool in proportion to their
 * stake, rounded down to the hundredth. What rounding leaves (less than one hundredth per winner)
 * is the remainder: pool = paid + remainder, exactly. Nobody on the winning answer → refund all.
 */
export function payPool(stakes: readonly Stake[], winningAnswerId: number): PoolResult {
  const winners = stakes.filter((s) => s.answerId === winningAnswerId);
  const winnersPool = winners.reduce((s, b) => s + b.cents, 0n);
  if (winnersPool === 0n) return refundAll(stakes);
  const pool = stakes.reduce((s, b) => s + b.cents, 0n);
  const losersPool = pool - winnersPool;
  const payouts = stakes.map((b) => ({
    userId: b.userId,
    answerId: b.answerId,
    stakeCents: b.cents,
    payoutCents: b.answerId === winningAnswerId ? b.cents + (losersPool * b.cents) / winnersPool : 0n,
  }));
  const paid = payouts.reduce((s, p) => s + p.payoutCents, 0n);
  return { payouts, poolCents: pool, paidCents: paid, remainderCents: pool - paid, refunded: false };
}

// ------------------------------------------------------------------------------------ display

/**
 * Amounts over 1000 with "k" and one decimal (docs/product.md#live-validation), rounded down so an amount is never
 * shown larger than it is: 1550 → "1.5k", 1000 → "1000", 999.5 → "999.5".
 */
export function abbreviatePoints(points: number): string {
  const abs = Math.abs(points);
  const sign = points < 0 ? '-' : '';
  if (abs <= 1000) return `${sign}${Number.isInteger(abs) ? abs : abs.toFixed(2).replace(/0$/, '')}`;
  const tenths = Math.floor(abs / 100); // hundreds = tenths of a thousand
  return `${sign}${(tenths / 10).toFixed(1)}k`;
}

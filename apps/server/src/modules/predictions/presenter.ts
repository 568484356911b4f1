/**
 * The prediction state of docs/product.md#live-entities as the overlay receives it, built from the saved state
 * and the bets. Everyone gets the same view (nothing about a prediction is secret). Its `version`
 * grows with state changes and with every bet (game version × 1,000,000 + bets taken), so the
 * overlay keeps the newest even when coalesced bet updates from several processes cross.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { visibleStatus } from '@kickback/common/games/prediction';
import type { PredictionState } from '@kickback/common/hubs/prediction';
import type { PredictionSummary } from '@kickback/common/http/prediction';
import { centsToNumber, decimalToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import type { LiveGameRow } from '../../db/schema/games';
import { predictionBets, predictionSettlements } from '../../db/schema/predictions';
import { users } from '../../db/schema/users';
import type { Unstamped } from '../../games/runner';
import { predictionStore } from './store';

/** Bets taken per prediction never reach this, so the composite version stays ordered. */
const BETS_PER_VERSION = 1_000_000;
/** The overlay lists at most this many winners and losers (the biggest first). */
const RESULT_ROWS = 50;

interface AnswerTotals {
  answerId: number;
  participants: number;
  stakeCents: bigint;
  bets: number;
}

async function answerTotals(db: DbOrTx, predictionId: string): Promise<AnswerTotals[]> {
  const rows = await db
    .select({
      answerId: predictionBets.answerId,
      participants: sql<number>`count(*)::int`,
      stake: sql<string>`sum(${predictionBets.stake})::text`,
      bets: sql<number>`sum(${predictionBets.bets})::int`,
    })
    .from(predictionBets)
    .where(eq(predictionBets.predictionId, predictionId))
    .groupBy(predictionBets.answerId);
  return rows.map((r) => ({
    answerId: r.answerId,
    participants: Number(r.participants),
    stakeCents: toCents(r.stake),
    bets: Number(r.bets),
  }));
}

async function results(db: DbOrTx, predictionId: string, winningAnswerId: number) {
  const rows = await db
    .select({
      username: users.username,
      answerId: predictionBets.answerId,
      stake: predictionBets.stake,
      payout: predictionBets.payout,
    })
    .from(predictionBets)
    .innerJoin(users, eq(users.id, predictionBets.userId))
    .where(eq(predictionBets.predictionId, predictionId))
    .orderBy(desc(predictionBets.stake), asc(users.username));
  const winners: PredictionState['winnersResult'] = [];
  const losers: PredictionState['losersResult'] = [];
  for (const r of rows) {
    if (r.payout === null) continue; // not settled (cannot happen in state 2)
    const stake = toCents(r.stake);
    const payout = toCents(r.payout);
    if (r.answerId === winningAnswerId && payout > 0n) {
      winners.push({ username: r.username, points: centsToNumber(payout - stake) });
    } else if (payout === 0n) {
      losers.push({ username: r.username, points: centsToNumber(stake) });
    }
    // A refund (nobody won) lists nobody: no one gained or lost.
  }
  winners.sort((a, b) => b.points - a.points);
  return { winners: winners.slice(0, RESULT_ROWS), losers: losers.slice(0, RESULT_ROWS) };
}

const amount = (cents: bigint | null) => (cents === null ? null : centsToNumber(cents));

export async function presentPrediction(db: DbOrTx, row: LiveGameRow): Promise<Unstamped<PredictionState>> {
  const game = predictionStore.toGame(row);
  const totals = await answerTotals(db, row.id);
  const betsTaken = totals.reduce((s, t) => s + t.bets, 0);
  const settled = game.status === 2 && game.resultAnswerId !== null;
  const { winners, losers } = settled ? await results(db, row.id, game.resultAnswerId!) : { winners: [], losers: [] };
  return {
    id: row.id,
    version: game.version * BETS_PER_VERSION + betsTaken,
    phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt).toISOString(),
    state: visibleStatus(game),
    content: game.question,
    answers: game.answers.map((a) => {
      const t = totals.find((x) => x.answerId === a.id);
      return { ...a, participantCount: t?.participants ?? 0, points: centsToNumber(t?.stakeCents ?? 0n) };
    }),
    resultAnswerId: game.resultAnswerId,
    resultAnswer: game.answers.find((a) => a.id === game.resultAnswerId)?.text ?? null,
    startTime: new Date(game.startedAt).toISOString(),
    winnersResult: winners,
    losersResult: losers,
    minBet: amount(game.minBetCents),
    maxBet: amount(game.maxBetCents),
  };
}

/** The state before any prediction was opened: hidden, nothing to show. */
export function noPrediction(): Unstamped<PredictionState> {
  return {
    id: 'none',
    version: 0,
    phaseEndsAt: null,
    state: 0,
    content: '',
    answers: [],
    resultAnswerId: null,
    resultAnswer: null,
    startTime: null,
    winnersResult: [],
    losersResult: [],
    minBet: null,
    maxBet: null,
  };
}

/** A prediction as the admin page lists it: pools per answer and how it ended. */
export async function summarise(db: DbOrTx, row: LiveGameRow): Promise<PredictionSummary> {
  const game = predictionStore.toGame(row);
  const totals = await answerTotals(db, row.id);
  const [settlement] = await db
    .select()
    .from(predictionSettlements)
    .where(eq(predictionSettlements.predictionId, row.id));
  return {
    id: row.id,
    question: game.question,
    state: visibleStatus(game),
    status: game.status,
    hidden: game.hidden,
    answers: game.answers.map((a) => {
      const t = totals.find((x) => x.answerId === a.id);
      return { ...a, participantCount: t?.participants ?? 0, points: centsToNumber(t?.stakeCents ?? 0n) };
    }),
    resultAnswerId: game.resultAnswerId,
    pool: centsToNumber(totals.reduce((s, t) => s + t.stakeCents, 0n)),
    paid: settlement ? decimalToNumber(settlement.paid) : null,
    remainder: settlement ? decimalToNumber(settlement.remainder) : null,
    autoLockAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt).toISOString(),
    minBet: amount(game.minBetCents),
    maxBet: amount(game.maxBetCents),
    createdAt: row.createdAt.toISOString(),
  };
}

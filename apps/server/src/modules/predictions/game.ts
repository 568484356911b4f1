/**
 * Predictions as the engine runs them: the rules (packages/common/games/prediction), the stored
 * state (./store), the refusals in words, the settlement of the pool through the ledger and the
 * state the overlay gets. Lock, resolve, cancel, hide and the auto-lock deadline all go through
 * the runner: the row lock makes each transition happen once, and the emit follows the commit.
 */
import { and, eq } from 'drizzle-orm';
import {
  onDeadline,
  payPool,
  refundAll,
  type PredictionError,
  type PredictionGame,
  type PredictionSettlement,
} from '@kickback/common/games/prediction';
import { predictionHub } from '@kickback/common/hubs/prediction';
import { centsToText, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import type { LiveGameRow } from '../../db/schema/games';
import { predictionBets, predictionSettlements } from '../../db/schema/predictions';
import type { GameDefinition } from '../../games/runner';
import { applyBalanceChange } from '../ledger/service';
import { presentPrediction } from './presenter';
import { PREDICTION_KIND, predictionStore } from './store';

export const PREDICTION_NOT_FOUND = 'Prediction not found.';
/** Every overlay watches the same room: there is one current prediction. */
export const PREDICTION_ROOM = 'prediction';

const refusals: Record<PredictionError, readonly [number, string]> = {
  not_open: [409, 'The prediction is already settled.'],
  not_settled: [409, 'Resolve or cancel the prediction before hiding it.'],
  already_hidden: [409, 'The prediction is already hidden.'],
  unknown_answer: [400, 'That answer is not one of the prediction’s answers.'],
  stale_deadline: [409, 'The prediction moved on.'],
  not_due: [409, 'Not yet.'],
};

/**
 * Pays or refunds the pool in the transaction that resolved or cancelled the prediction. The row
 * lock makes that transition happen once; the settlement row's primary key would refuse a second
 * payout even so. Each credit is a ledger row naming the prediction.
 */
export async function settlePool(tx: Tx, row: LiveGameRow, settlement: PredictionSettlement): Promise<void> {
  const game: PredictionGame = predictionStore.toGame(row);
  const bets = await tx.select().from(predictionBets).where(eq(predictionBets.predictionId, row.id)).for('update');
  const stakes = bets.map((b) => ({ userId: b.userId, answerId: b.answerId, cents: toCents(b.stake) }));
  const result = settlement.kind === 'resolve' ? payPool(stakes, settlement.answerId) : refundAll(stakes);
  const outcome = settlement.kind === 'refund' ? 'cancelled' : result.refunded ? 'refunded' : 'resolved';
  await tx.insert(predictionSettlements).values({
    predictionId: row.id,
    outcome,
    winningAnswerId: settlement.kind === 'resolve' ? settlement.answerId : null,
    pool: centsToText(result.poolCents),
    paid: centsToText(result.paidCents),
    remainder: centsToText(result.remainderCents),
    settledAt: row.updatedAt,
  });
  for (const p of result.payouts) {
    if (p.payoutCents > 0n) {
      await applyBalanceChange(tx, {
        userId: p.userId,
        currency: 'points',
        delta: { cents: p.payoutCents },
        reason: result.refunded ? 'prediction_refund' : 'prediction_win',
        reference: `prediction:${row.id}`,
        memo: game.question,
      });
    }
    await tx
      .update(predictionBets)
      .set({ payout: centsToText(p.payoutCents), updatedAt: row.updatedAt })
      .where(and(eq(predictionBets.predictionId, row.id), eq(predictionBets.userId, p.userId)));
  }
}

export function predictionGame() {
  return {
    kind: PREDICTION_KIND,
    hub: predictionHub,
    stateEvent: 'ReceiveState',
    room: () => PREDICTION_ROOM,
    store: predictionStore,
    notFoundMessage: PREDICTION_NOT_FOUND,
    refusals,
    onDeadline,
    settle: (tx, row, settlement) => settlePool(tx, row, settlement),
    present: async (db, row) => ({ watcher: await presentPrediction(db, row) }),
  } satisfies GameDefinition<
    PredictionGame,
    PredictionError,
    PredictionSettlement,
    LiveGameRow,
    typeof predictionHub,
    'ReceiveState'
  >;
}

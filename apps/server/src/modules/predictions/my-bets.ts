/**
 * My activity's predictions: every prediction the user bet on, newest first, with the result once
 * settled — so a loser, who gets no ledger credit, sees the outcome as a winner or a refund does.
 */
import { desc, eq } from 'drizzle-orm';
import type { MyPredictionBet, MyPredictionsPage } from '@kickback/common/http/prediction';
import { decimalToNumber } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { readPage } from '../../db/page';
import { liveGames } from '../../db/schema/games';
import { predictionBets, predictionSettlements } from '../../db/schema/predictions';
import { predictionStore } from './store';

const PAGE_SIZE = 20;

function resultOf(
  answerId: number,
  settlement: { outcome: 'resolved' | 'refunded' | 'cancelled'; winningAnswerId: number | null } | null,
): MyPredictionBet['result'] {
  if (!settlement) return 'open';
  if (settlement.outcome !== 'resolved') return settlement.outcome;
  return settlement.winningAnswerId === answerId ? 'won' : 'lost';
}

export function myPredictionBets(db: DbOrTx, userId: string, page: number): Promise<MyPredictionsPage> {
  const mine = eq(predictionBets.userId, userId);
  return readPage(db, {
    rows: db
      .select({ bet: predictionBets, game: liveGames, settlement: predictionSettlements })
      .from(predictionBets)
      .innerJoin(liveGames, eq(liveGames.id, predictionBets.predictionId))
      .leftJoin(predictionSettlements, eq(predictionSettlements.predictionId, predictionBets.predictionId))
      .where(mine)
      .orderBy(desc(predictionBets.createdAt), desc(predictionBets.predictionId))
      .$dynamic(),
    count: { from: predictionBets, where: mine },
    page,
    pageSize: PAGE_SIZE,
    map: ({ bet, game, settlement }) => {
      const prediction = predictionStore.toGame(game);
      const result = resultOf(bet.answerId, settlement);
      return {
        id: bet.predictionId,
        question: prediction.question,
        answer: prediction.answers.find((a) => a.id === bet.answerId)?.text ?? `Option ${bet.answerId}`,
        stake: decimalToNumber(bet.stake),
        result,
        payout: result === 'open' ? null : decimalToNumber(bet.payout ?? '0'),
        betAt: bet.createdAt.toISOString(),
        settledAt: settlement?.settledAt.toISOString() ?? null,
      };
    },
  });
}

/**
 * Where a prediction lives: the engine's generic JSON storage (kind 'prediction'), with a codec
 * that keeps bet limits exact (hundredths as text), and the current prediction — the newest one,
 * which the overlay shows (state 0 when it was hidden).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { PredictionAnswer, PredictionGame } from '@kickback/common/games/prediction';
import type { DbOrTx, Tx } from '../../db/client';
import { liveGames, type LiveGameRow } from '../../db/schema/games';
import { jsonGameStore, type StateCodec } from '../../games/store';

export const PREDICTION_KIND = 'prediction';

interface StoredPrediction {
  version: number;
  phaseEndsAt: number | null;
  phaseVersion: number | null;
  question: string;
  answers: PredictionAnswer[];
  status: 1 | 2 | 3 | 4;
  hidden: boolean;
  resultAnswerId: number | null;
  minBetCents: string | null;
  maxBetCents: string | null;
  startedAt: number;
}

const codec: StateCodec<PredictionGame> = {
  encode: (g) =>
    ({
      ...g,
      minBetCents: g.minBetCents === null ? null : g.minBetCents.toString(),
      maxBetCents: g.maxBetCents === null ? null : g.maxBetCents.toString(),
    }) satisfies StoredPrediction as unknown as Record<string, unknown>,
  decode: (json) => {
    const s = json as StoredPrediction;
    return {
      ...s,
      minBetCents: s.minBetCents === null ? null : BigInt(s.minBetCents),
      maxBetCents: s.maxBetCents === null ? null : BigInt(s.maxBetCents),
    };
  },
};

export const predictionStore = jsonGameStore(PREDICTION_KIND, codec);

const newestFirst = [desc(liveGames.createdAt), desc(liveGames.seq)] as const;

/** The newest prediction (what the overlay shows), or null when none was ever opened. */
export async function currentPrediction(db: DbOrTx): Promise<LiveGameRow | null> {
  const [row] = await db
    .select()
    .from(liveGames)
    .where(eq(liveGames.kind, PREDICTION_KIND))
    .orderBy(...newestFirst)
    .limit(1);
  return row ?? null;
}

/**
 * The newest prediction, share-locked for a bet: bets do not wait for each other, but a lock,
 * resolve or cancel (FOR UPDATE) waits for every bet in flight, and a bet after it sees it closed.
 */
export async function currentPredictionForBet(tx: Tx): Promise<LiveGameRow | null> {
  const newest = await currentPrediction(tx);
  if (!newest) return null;
  const [row] = await tx
    .select()
    .from(liveGames)
    .where(and(eq(liveGames.id, newest.id), eq(liveGames.kind, PREDICTION_KIND)))
    .for('share')
    .limit(1);
  return row ?? null;
}

export async function recentPredictions(db: DbOrTx, limit: number): Promise<LiveGameRow[]> {
  return (await predictionStore.recent(db, limit)).map(({ row }) => row);
}

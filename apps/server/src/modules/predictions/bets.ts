/**
 * Taking a bet (`!bet {option} {points}` from a linked Kick user): in one transaction, read the
 * current prediction share-locked (a lock, resolve or cancel waits for bets in flight), check the
 * bet against the rules and the bettor's stake so far, add it to the bettor's one bet on that
 * answer, and escrow the points through the ledger's conditional debit. Any refusal rolls back
 * and changes nothing. From chat, the same transaction marks the message handled, so a bet is taken
 * at most once however often Kick redelivers it and whichever process takes it.
 */
import { sql } from 'drizzle-orm';
import { checkBet, type BetRefusal } from '@kickback/common/games/prediction';
import { centsToText, toCents } from '@kickback/common/money';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { UserRow } from '../../db/schema/users';
import { type AfterCommit, transactionThen } from '../../lib/after-commit';
import { applyBalanceChange, InsufficientBalanceError } from '../ledger/service';
import { currentPredictionForBet, predictionStore } from './store';

/** `runs_it`: the bettor created the prediction (docs/features/predictions.md#staff-and-their-own-predictions). */
export type BetFailure = BetRefusal | 'excluded' | 'balance' | 'repeated' | 'runs_it';

/** Who bets: the id and exclusion are all a bet needs (exclusion is checked again in the transaction). */
export type Bettor = Pick<UserRow, 'id' | 'excluded'>;

/**
 * Marks the chat message that carries the bet as handled, inside the bet's transaction; false when
 * that already happened (Kick redelivered a message whose bet committed): the bet is then not taken.
 */
export type OnceGuard = (tx: Tx) => Promise<boolean>;

export type BetOutcome =
  | { ok: true; predictionId: string; answerId: number; stakeCents: bigint; balance: string }
  | { ok: false; reason: BetFailure; detail?: { answerId?: number; balance?: string; limitCents?: bigint } };

/** Thrown inside the transaction to roll it back, caught right outside it. */
class Refused extends Error {
  constructor(readonly outcome: Extract<BetOutcome, { ok: false }>) {
    super(outcome.reason);
  }
}

async function existingBet(tx: Tx, predictionId: string, userId: string) {
  const [row] = rowsOf<{ answer_id: number; stake: string }>(
    await tx.execute(sql`
      SELECT answer_id, stake::text AS stake FROM prediction_bets
      WHERE prediction_id = ${predictionId} AND user_id = ${userId}
      FOR UPDATE
    `),
  );
  return row ? { answerId: Number(row.answer_id), stakeCents: toCents(row.stake) } : null;
}

async function take(
  tx: Tx,
  after: AfterCommit,
  user: Bettor,
  bet: { option: number; cents: bigint },
  onChange: () => void,
  now: Date,
  once: OnceGuard | undefined,
): Promise<BetOutcome> {
  if (once && !(await once(tx))) throw new Refused({ ok: false, reason: 'repeated' });
  const [me] = rowsOf<{ excluded: boolean }>(await tx.execute(sql`SELECT excluded FROM users WHERE id = ${user.id}`));
  if (!me || me.excluded) throw new Refused({ ok: false, reason: 'excluded' });
  const row = await currentPredictionForBet(tx);
  if (!row) throw new Refused({ ok: false, reason: 'not_active' });
  const game = predictionStore.toGame(row);
  const existing = await existingBet(tx, row.id, user.id);
  const refusal = checkBet(game, { answerId: bet.option, cents: bet.cents }, existing);
  if (refusal !== 'not_active' && row.ownerUserId === user.id) throw new Refused({ ok: false, reason: 'runs_it' });
  if (refusal) {
    const limitCents = refusal === 'below_min' ? game.minBetCents : refusal === 'above_max' ? game.maxBetCents : null;
    throw new Refused({
      ok: false,
      reason: refusal,
      detail: { ...(existing ? { answerId: existing.answerId } : {}), ...(limitCents !== null ? { limitCents } : {}) },
    });
  }
  // The same answer adds to the stake; another answer (a racing first bet) matches no row.
  const [saved] = rowsOf<{ stake: string }>(
    await tx.execute(sql`
      INSERT INTO prediction_bets (prediction_id, user_id, answer_id, stake, created_at, updated_at)
      VALUES (${row.id}, ${user.id}, ${bet.option}, ${centsToText(bet.cents)}::numeric, ${now.toISOString()}::timestamptz,
              ${now.toISOString()}::timestamptz)
      ON CONFLICT (prediction_id, user_id) DO UPDATE
        SET stake = prediction_bets.stake + EXCLUDED.stake, bets = prediction_bets.bets + 1, updated_at = EXCLUDED.updated_at
        WHERE prediction_bets.answer_id = EXCLUDED.answer_id
      RETURNING stake::text AS stake
    `),
  );
  if (!saved) throw new Refused({ ok: false, reason: 'other_answer' });
  let balance: string;
  try {
    const result = await applyBalanceChange(tx, {
      userId: user.id,
      currency: 'points',
      delta: { cents: -bet.cents },
      reason: 'prediction_bet',
      reference: `prediction:${row.id}`,
      memo: game.question,
    });
    balance = result!.balance; // a spend is never skipped (only earnings skip excluded accounts)
  } catch (err) {
    if (!(err instanceof InsufficientBalanceError)) throw err;
    const [now] = rowsOf<{ points: string }>(
      await tx.execute(sql`SELECT points::text AS points FROM users WHERE id = ${user.id}`),
    );
    throw new Refused({ ok: false, reason: 'balance', detail: { balance: now?.points ?? '0.00' } });
  }
  after.push(onChange);
  return { ok: true, predictionId: row.id, answerId: bet.option, stakeCents: toCents(saved.stake), balance };
}

export async function placeBet(
  db: Db,
  user: Bettor,
  bet: { option: number; cents: bigint },
  onChange: () => void,
  now: Date,
  once?: OnceGuard,
): Promise<BetOutcome> {
  if (user.excluded) return { ok: false, reason: 'excluded' };
  try {
    return await transactionThen(db, (tx, after) => take(tx, after, user, bet, onChange, now, once));
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    throw err;
  }
}

/**
 * The same, inside a transaction the caller holds, in a savepoint of its own: a refusal rolls
 * back only this bet, and `check` (run after the bet, before the savepoint is released) may throw
 * to undo an accepted bet too.
 */
export async function placeBetWithin(
  tx: Tx,
  after: AfterCommit,
  user: Bettor,
  bet: { option: number; cents: bigint },
  onChange: () => void,
  now: Date,
  once: OnceGuard,
  check: (tx: Tx) => Promise<void> = async () => undefined,
): Promise<BetOutcome> {
  if (user.excluded) return { ok: false, reason: 'excluded' };
  try {
    return await tx.transaction(async (sp) => {
      const outcome = await take(sp as Tx, after, user, bet, onChange, now, once);
      await check(sp as Tx);
      return outcome;
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    throw err;
  }
}

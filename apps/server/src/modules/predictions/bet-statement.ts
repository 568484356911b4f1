/**
 * A `!bet` from chat in ONE prepared statement, when nothing stands in its way — the usual case.
 * The statement does what the transaction of ./bet-order.ts and ./bets.ts does, in the same order
 * and with the same answers: it takes the sender's bet lock (`BETTOR_LOCK`), finds the chat
 * message not yet handled, the bettor not excluded, the newest prediction (share-locked, so a
 * lock, resolve or cancel waits for it) and the bettor's stake so far; checks the bet as
 * `checkBet` does (active, known answer, one answer per bettor, positive, minimum per bet, maximum
 * per bettor) and the balance as the ledger's debit does (enough points, no debt); then adds the
 * stake, takes the points, writes the ledger's escrow entry and marks the message handled, and
 * returns what happened so the bettor can be told.
 *
 * It never waits. The bet lock is only tried (`pg_try_advisory_xact_lock`) and every row lock is
 * taken `SKIP LOCKED`; when any of them is held elsewhere — another bet of the same sender on
 * another connection, an admin locking or settling the prediction, a purchase holding the
 * bettor's row — the statement changes nothing and answers `contended`, and the caller takes the
 * bet the general way (./bet-order.ts), which waits its turn. The same when the sender has earlier
 * `!bet`s recorded but not handled: those must be taken first, which the general way does. Not
 * waiting is what keeps the one statement's snapshot as fresh as the general way's last check: a
 * statement sees the database as it was when it began, so one that waited for a lock could miss
 * an earlier bet recorded meanwhile.
 *
 * A refusal (like every refusal the general way makes) marks the message handled in the same
 * statement, so a bettor's next `!bet` does not find it still pending and take it again.
 *
 * The stake, the debit and the ledger entry stand or fall together: the debit is made for the
 * stake the upsert returned, and the ledger entry for that stake takes its balance from the debit,
 * so a debit that did not happen leaves a NULL balance, which the ledger refuses (NOT NULL):
 * the whole statement then fails and nothing is changed.
 */
import { centsToText, toCents } from '@kickback/common/money';
import type { Database } from '../../db/client';
import { BETTOR_LOCK, LOOK_BACK_MS, type BetMessage } from './bet-order';
import type { BetFailure, BetOutcome, Bettor } from './bets';

/**
 * $1 user id, $2 chat message id, $3 answer, $4 stake (points, 2 decimals), $5 now, $6 the sender's
 * Kick id, $7 the message's sent_at, $8 the earliest sent_at of an earlier bet still taken first.
 */
const STATEMENT = `
WITH lk AS (
  SELECT pg_try_advisory_xact_lock(${BETTOR_LOCK}, hashtext($1::text)) AS got
),
msg AS (
  SELECT m.processed_at IS NOT NULL AS processed
  FROM lk, chat_messages m
  WHERE lk.got AND m.message_id = $2::text
  FOR UPDATE OF m SKIP LOCKED
),
me AS (
  SELECT u.excluded, u.points, u.points_debt
  FROM lk, users u
  WHERE lk.got AND u.id = $1::uuid
  FOR NO KEY UPDATE OF u SKIP LOCKED
),
newest AS (
  SELECT id FROM live_games WHERE kind = 'prediction' ORDER BY created_at DESC, seq DESC LIMIT 1
),
game AS (
  SELECT g.id, g.state, g.owner_user_id
  FROM lk, newest, live_games g
  WHERE lk.got AND g.id = newest.id AND g.kind = 'prediction'
  FOR SHARE OF g SKIP LOCKED
),
prior AS (
  SELECT b.answer_id, b.stake
  FROM game, prediction_bets b
  WHERE b.prediction_id = game.id AND b.user_id = $1::uuid
  FOR UPDATE OF b SKIP LOCKED
),
facts AS (
  SELECT lk.got,
         EXISTS (SELECT 1 FROM msg) AS msg_locked,
         EXISTS (SELECT 1 FROM chat_messages WHERE message_id = $2::text) AS msg_seen,
         (SELECT processed FROM msg) AS processed,
         EXISTS (SELECT 1 FROM me) AS me_locked,
         EXISTS (SELECT 1 FROM users WHERE id = $1::uuid) AS me_seen,
         (SELECT excluded FROM me) AS excluded,
         (SELECT points FROM me) AS points,
         (SELECT points_debt FROM me) AS points_debt,
         EXISTS (SELECT 1 FROM newest) AS has_newest,
         (SELECT id FROM game) AS prediction_id,
         (SELECT state FROM game) AS state,
         (SELECT owner_user_id FROM game) AS owner_user_id,
         EXISTS (SELECT 1 FROM prior) AS prior_locked,
         (SELECT answer_id FROM prior) AS prior_answer,
         (SELECT stake FROM prior) AS prior_stake
  FROM lk
),
c AS (
  SELECT f.*, CASE
    WHEN NOT f.got THEN 'contended'
    WHEN NOT f.msg_locked THEN CASE WHEN f.msg_seen THEN 'contended' ELSE 'repeated' END
    WHEN f.processed THEN 'repeated'
    WHEN NOT f.me_locked THEN CASE WHEN f.me_seen THEN 'contended' ELSE 'excluded' END
    WHEN f.excluded THEN 'excluded'
    WHEN NOT f.has_newest THEN 'not_active'
    WHEN f.prediction_id IS NULL THEN 'contended'
    WHEN NOT f.prior_locked AND EXISTS (
      SELECT 1 FROM prediction_bets WHERE prediction_id = f.prediction_id AND user_id = $1::uuid) THEN 'contended'
    WHEN (f.state->>'status')::int <> 1 OR (f.state->>'hidden')::boolean THEN 'not_active'
    WHEN f.owner_user_id = $1::uuid THEN 'runs_it'
    WHEN NOT EXISTS (
      SELECT 1 FROM jsonb_array_elements(f.state->'answers') a WHERE (a->>'id')::int = $3::int) THEN 'unknown_answer'
    WHEN f.prior_answer IS NOT NULL AND f.prior_answer <> $3::int THEN 'other_answer'
    WHEN $4::numeric <= 0 THEN 'not_positive'
    WHEN $4::numeric * 100 < (f.state->>'minBetCents')::numeric THEN 'below_min'
    WHEN $4::numeric * 100 + COALESCE(f.prior_stake, 0) * 100 > (f.state->>'maxBetCents')::numeric THEN 'above_max'
    WHEN f.points < $4::numeric OR f.points_debt > 0 THEN 'balance'
    WHEN EXISTS (
      SELECT 1 FROM chat_messages e
      WHERE e.kick_user_id = $6::text AND e.processed_at IS NULL AND e.content ILIKE '!bet%'
        AND e.sent_at >= $8::timestamptz AND (e.sent_at, e.message_id) < ($7::timestamptz, $2::text)) THEN 'contended'
    ELSE 'taken' END AS outcome
  FROM facts f
),
mark AS (
  UPDATE chat_messages m SET handled_by = 'bet', processed_at = $5::timestamptz
  FROM c
  WHERE m.message_id = $2::text AND m.processed_at IS NULL AND c.outcome NOT IN ('contended', 'repeated')
  RETURNING c.outcome
),
bet AS (
  INSERT INTO prediction_bets (prediction_id, user_id, answer_id, stake, created_at, updated_at)
  SELECT c.prediction_id, $1::uuid, $3::int, $4::numeric, $5::timestamptz, $5::timestamptz
  FROM c, mark
  WHERE c.outcome = 'taken'
  ON CONFLICT (prediction_id, user_id) DO UPDATE
    SET stake = prediction_bets.stake + EXCLUDED.stake, bets = prediction_bets.bets + 1,
        updated_at = EXCLUDED.updated_at
    WHERE prediction_bets.answer_id = EXCLUDED.answer_id
  RETURNING prediction_id, stake
),
debit AS (
  UPDATE users u SET points = u.points - $4::numeric
  FROM bet
  WHERE u.id = $1::uuid AND u.points >= $4::numeric AND u.points_debt = 0
  RETURNING u.points AS balance
),
entry AS (
  INSERT INTO ledger (user_id, currency, delta, balance_after, reason, reference, memo)
  SELECT $1::uuid, 'points', -$4::numeric, debit.balance, 'prediction_bet', 'prediction:' || bet.prediction_id,
         c.state->>'question'
  FROM bet CROSS JOIN c LEFT JOIN debit ON true
  RETURNING id
)
SELECT c.outcome, c.prediction_id, c.prior_answer, c.points::text AS points,
       CASE c.outcome WHEN 'below_min' THEN c.state->>'minBetCents'
                      WHEN 'above_max' THEN c.state->>'maxBetCents' END AS limit_cents,
       (SELECT stake::text FROM bet) AS stake,
       (SELECT balance::text FROM debit) AS balance,
       EXISTS (SELECT 1 FROM entry) AS entered
FROM c`;

interface Row extends Record<string, unknown> {
  outcome: 'contended' | 'repeated' | 'taken' | Exclude<BetFailure, 'repeated'>;
  prediction_id: string | null;
  prior_answer: number | null;
  points: string | null;
  limit_cents: string | null;
  stake: string | null;
  balance: string | null;
  entered: boolean;
}

/** Refusals that `checkBet` gives: they tell the bettor's answer so far (and a limit) as it does. */
const CHECKED = new Set(['not_active', 'unknown_answer', 'other_answer', 'not_positive', 'below_min', 'above_max']);

/**
 * Takes one `!bet` in one statement; `contended` when it must be taken the general way (see above).
 * The caller has checked the in-memory exclusion already.
 */
export async function betInOneStatement(
  database: Database,
  user: Bettor,
  bet: { option: number; cents: bigint },
  message: BetMessage,
  now: Date,
): Promise<BetOutcome | 'contended'> {
  const [row] = await database.query<Row>(
    STATEMENT,
    [
      user.id,
      message.messageId,
      bet.option,
      centsToText(bet.cents),
      now.toISOString(),
      message.kickUserId,
      message.sentAt.toISOString(),
      new Date(message.sentAt.getTime() - LOOK_BACK_MS).toISOString(),
    ],
    'kickback_bet_one_statement',
  );
  if (!row) throw new Error('the bet statement returned no row');
  switch (row.outcome) {
    case 'contended':
      return 'contended';
    case 'taken':
      // The upsert found the bettor's bet on another answer (a racing first bet): nothing changed.
      if (row.stake === null) return { ok: false, reason: 'other_answer' };
      return {
        ok: true,
        predictionId: row.prediction_id!,
        answerId: bet.option,
        stakeCents: toCents(row.stake),
        balance: row.balance!,
      };
    case 'balance':
      return { ok: false, reason: 'balance', detail: { balance: row.points ?? '0.00' } };
    case 'repeated':
    case 'excluded':
      return { ok: false, reason: row.outcome };
    default: {
      if (!CHECKED.has(row.outcome) || row.prediction_id === null) return { ok: false, reason: row.outcome };
      const answerId = row.prior_answer === null ? null : Number(row.prior_answer);
      const limitCents = row.limit_cents === null ? null : BigInt(row.limit_cents);
      return {
        ok: false,
        reason: row.outcome,
        detail: { ...(answerId !== null ? { answerId } : {}), ...(limitCents !== null ? { limitCents } : {}) },
      };
    }
  }
}

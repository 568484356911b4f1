/**
 * A Kick user's `!bet`s are taken in the order Kick stamped them (`created_at`, then the message id),
 * whichever processes their webhook deliveries reach. Every chat message is recorded before any
 * handler sees it (chat/ingest.ts), so a bet's transaction can see the sender's earlier messages
 * that are recorded but not yet processed:
 *
 * - once its bet is taken, just before the savepoint around it is released (the bet may have
 *   waited on a row lock meanwhile), a bet's transaction looks for earlier recorded, unprocessed
 *   `!bet`s of the sender; if there are any, its own bet is rolled back to its savepoint, the
 *   earlier ones are taken first (each in its savepoint, each marked handled, a refusal as much as
 *   an acceptance) and its own is taken again;
 * - one sender's bet transactions run one at a time on every process: each begins with a
 *   transaction-level advisory lock on the sender (`BETTOR_LOCK`, the user's id), taken before any
 *   row. Without it, two processes taking one sender's bets could each hold a chat message row the
 *   other wanted (a later bet marking an earlier one handled while that one's own transaction had
 *   marked another): PostgreSQL found a deadlock and aborted one, and its bet was lost unanswered
 *   (the multi-process test saw it under load). An earlier bet that its own process is taking at
 *   that moment has committed when the lock is granted, so it is found handled.
 *
 * Usually a bet does not come here: ./bet-statement.ts takes it in one statement, which tries the
 * same lock and takes its rows only if nobody holds them, and comes here when it cannot (the lock
 * or a row held elsewhere, or earlier bets of the sender to take first), so the order above holds
 * whichever way a bet is taken.
 *
 * The process that received an earlier message then finds it handled and does nothing (no second
 * reply); the bettor is answered for it by the caller here. What no design can order without a
 * delay: an earlier message whose delivery is recorded only after the later bet committed. A refused
 * bet is not checked against earlier ones (a refusal changes nothing), but its message is marked
 * handled in its transaction like an accepted one: a refusal is that message's one outcome too.
 */
import { sql } from 'drizzle-orm';
import { parseBet } from '@kickback/common/games/prediction';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { transactionThen } from '../../lib/after-commit';
import { placeBetWithin, type BetOutcome, type Bettor } from './bets';

/** The chat message a bet came in. */
export interface BetMessage {
  messageId: string;
  kickUserId: string;
  sentAt: Date;
}

/** An earlier `!bet` of the same sender that this call took first; its bettor is still to be answered. */
export interface EarlierBet {
  messageId: string;
  kickUsername: string;
  content: string;
  outcome: BetOutcome;
}

export interface OrderedBet {
  outcome: BetOutcome;
  earlier: EarlierBet[];
}

/** The advisory lock class of one sender's bets (the two-key form: its own space, keyed by the user). */
export const BETTOR_LOCK = 7_240_516;

/** Earlier messages older than this are left to the sweeper (Kick refuses deliveries older than 5 minutes). */
export const LOOK_BACK_MS = 5 * 60_000;

/** Marks a message handled by a bet, inside the bet's transaction; false when it already was. */
async function markHandled(tx: Tx, messageId: string, now: Date): Promise<boolean> {
  const marked = await tx.execute(sql`
    UPDATE chat_messages SET handled_by = 'bet', processed_at = ${now.toISOString()}::timestamptz
    WHERE message_id = ${messageId} AND processed_at IS NULL
    RETURNING 1 AS marked`);
  return rowsOf(marked).length > 0;
}

interface Pending {
  messageId: string;
  kickUsername: string;
  content: string;
  bet: { option: number; cents: bigint };
}

/** The sender's earlier `!bet`s, recorded but not processed, in Kick's order. */
async function earlierBets(tx: Tx, message: BetMessage): Promise<Pending[]> {
  const rows = rowsOf<{ message_id: string; kick_username: string; content: string }>(
    await tx.execute(sql`
      SELECT message_id, kick_username, content FROM chat_messages
      WHERE kick_user_id = ${message.kickUserId} AND processed_at IS NULL AND content ILIKE '!bet%'
        AND sent_at >= ${new Date(message.sentAt.getTime() - LOOK_BACK_MS).toISOString()}::timestamptz
        AND (sent_at, message_id) < (${message.sentAt.toISOString()}::timestamptz, ${message.messageId})
      ORDER BY sent_at, message_id
      LIMIT 20`),
  );
  const pending: Pending[] = [];
  for (const r of rows) {
    const parsed = parseBet(r.content);
    // A malformed `!bet` changes nothing, whenever it is answered.
    if (parsed?.ok) {
      pending.push({
        messageId: r.message_id,
        kickUsername: r.kick_username,
        content: r.content,
        bet: { option: parsed.option, cents: parsed.cents },
      });
    }
  }
  return pending;
}

/** Thrown inside the later bet's savepoint when earlier bets turned up: roll it back, take them first. */
class EarlierFirst extends Error {
  constructor(readonly pending: Pending[]) {
    super('earlier bets first');
  }
}

export async function placeBetInOrder(
  db: Db,
  user: Bettor,
  bet: { option: number; cents: bigint },
  message: BetMessage,
  once: (tx: Tx) => Promise<boolean>,
  onChange: () => void,
  now: Date,
): Promise<OrderedBet> {
  return transactionThen(db, async (tx, after) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BETTOR_LOCK}, hashtext(${user.id}))`);
    const earlier: EarlierBet[] = [];
    const takeEarlier = async (pending: Pending[]) => {
      for (const p of pending) {
        const outcome = await placeBetWithin(tx, after, user, p.bet, onChange, now, (sp) =>
          markHandled(sp, p.messageId, now),
        );
        // A refusal rolled its savepoint back: the message is marked handled all the same.
        if (outcome.ok || (outcome.reason !== 'repeated' && (await markHandled(tx, p.messageId, now)))) {
          earlier.push({ messageId: p.messageId, kickUsername: p.kickUsername, content: p.content, outcome });
        }
      }
    };
    for (;;) {
      try {
        const outcome = await placeBetWithin(tx, after, user, bet, onChange, now, once, async (sp) => {
          const late = await earlierBets(sp, message);
          if (late.length > 0) throw new EarlierFirst(late);
        });
        // A refusal rolled its savepoint back, the mark with it: marked here all the same, or the
        // sender's next bet (in any process) would find it pending and take it again — accepted,
        // perhaps, after its bettor was told it was refused.
        if (!outcome.ok && outcome.reason !== 'repeated' && !(await once(tx))) {
          return { outcome: { ok: false, reason: 'repeated' }, earlier };
        }
        return { outcome, earlier };
      } catch (err) {
        if (!(err instanceof EarlierFirst)) throw err;
        await takeEarlier(err.pending); // each is marked handled, so this ends
      }
    }
  });
}

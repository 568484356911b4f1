/**
 * The one owner of balances. Every change of points or gems is a conditional update of the user's
 * balance and a ledger row, in the caller's transaction. The condition (`balance + delta >= 0`) is
 * what makes concurrent spending safe: the row lock serialises updates and the loser sees 0 rows.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import { ledgerReasonKind, type LedgerReasonCode, type ReasonOfKind } from '@kickback/common/http/activity';
import type { DbOrTx } from '../../db/client';
import { uuidArray } from '../../db/params';
import { rowsOf } from '../../db/rows';
import type { Currency } from '../../db/schema/ledger';
import { conflict, notFound } from '../../lib/errors';
import { said, t } from '../../lib/i18n';

/**
 * Why a balance changed. Stored as a code; the web shows it in words, and every code has its kind
 * (`ledgerReasonKinds` in packages/common activity.ts; docs/features/staff-prize-limits.md#every-credit-names-its-kind).
 */
export type LedgerReason = LedgerReasonCode;
/** A prize of an event someone runs: credited only by the staff-prize gate (../staff-prizes). */
export type PrizeReason = ReasonOfKind<'prize'>;
/** Every reason but a prize: what `applyBalanceChange` takes. */
export type PlainReason = Exclude<LedgerReason, PrizeReason>;

export interface BalanceChange<R extends LedgerReason = PlainReason> {
  userId: string;
  currency: Currency;
  /** Signed amount: a number with at most 2 decimals, a decimal string, or hundredths as bigint. */
  delta: number | string | { cents: bigint };
  reason: R;
  reference?: string | null;
  memo?: string | null;
  /**
   * Earnings (chat, wagers, winnings) skip excluded accounts: the change is not made and `null`
   * is returned. Spending, refunds and admin adjustments apply to everyone.
   */
  earning?: boolean;
}

export interface BalanceResult {
  balance: string;
  ledgerId: number;
}

export class InsufficientBalanceError extends Error {
  constructor(readonly currency: Currency) {
    super(`Not enough ${currency}.`);
  }
}

/** In English (logs, tests); an answer says `ledger:debt` in its reader's language. */
export const debtMessage = t('en', 'ledger:debt');

/** The user owes points (users.points_debt): spending points is refused until it is paid off. */
export class OutstandingDebtError extends InsufficientBalanceError {
  constructor() {
    super('points');
    this.message = debtMessage;
  }
}

/**
 * Reasons that take points from a user who owes some: the reversal that creates the debt, its
 * repayment and an admin's deduction. Every other debit is spending, which a debt blocks.
 */
const debitsAllowedInDebt: readonly LedgerReason[] = ['partner_reversal', 'debt_repayment', 'admin_deduct'];

function deltaCents(delta: BalanceChange['delta']): bigint {
  return typeof delta === 'object' ? delta.cents : toCents(delta);
}

/** A credit names a kind that credits (not spending) and, unless the gate pays it, is no prize. */
function checkCredit(reason: string, gate: boolean): void {
  const kind = ledgerReasonKind(reason);
  if (kind === null) throw new RangeError(`"${reason}" is not a classified ledger reason`);
  if (kind === 'spend') throw new RangeError(`"${reason}" is spending: it cannot credit a balance`);
  if (kind === 'prize' && !gate) {
    throw new RangeError(`"${reason}" is a prize: it is paid through the staff-prize gate (payPrizes), not directly`);
  }
}

/**
 * Applies one signed change. Throws InsufficientBalanceError (spend too large), or 404 when the user
 * does not exist. Must run inside a transaction together with whatever the change pays for. A
 * prize is refused here (by its type, and at run time for a code read from storage): prizes are
 * paid by `payPrizes` in ../staff-prizes, whoever runs the event.
 */
export async function applyBalanceChange(tx: DbOrTx, change: BalanceChange): Promise<BalanceResult | null> {
  return applyChange(tx, change, false);
}

/**
 * A prize's credit, for the staff-prize gate only (../staff-prizes/service.ts; a test checks that
 * no other file calls it). Everyone else pays a prize through `payPrizes`.
 */
export async function applyPrizeCreditThroughGate(
  tx: DbOrTx,
  change: BalanceChange<PrizeReason> & { delta: { cents: bigint } },
): Promise<BalanceResult | null> {
  if (change.delta.cents <= 0n) throw new RangeError('A prize must be positive');
  return applyChange(tx, change, true);
}

/**
 * Many prizes of one reason in one statement, for the staff-prize gate's batch entry only
 * (../staff-prizes/service.ts `payPrizeBatch`; a test checks no other file calls it): each user
 * gets a balance increase and a ledger row, excluded accounts are skipped, debts are paid first.
 * A user may appear once per call. Returns the credited users with their ledger row and balance.
 */
export async function applyPrizeCreditsThroughGate(
  tx: DbOrTx,
  reason: PrizeReason,
  credits: ReadonlyArray<{ userId: string; cents: bigint; reference: string; memo: string | null }>,
): Promise<Map<string, BalanceResult>> {
  const out = new Map<string, BalanceResult>();
  if (credits.length === 0) return out;
  checkCredit(reason, true);
  const records = credits.map((c) => {
    if (c.cents <= 0n) throw new RangeError('A prize must be positive');
    return { user_id: c.userId, delta: centsToText(c.cents), reference: c.reference, memo: c.memo };
  });
  const rows = rowsOf<{ user_id: string; balance: string; ledger_id: string | number }>(
    await tx.execute(sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
          AS r(user_id uuid, delta numeric, reference text, memo text)
      ), updated AS (
        UPDATE users u SET points = u.points + i.delta
        FROM input i
        WHERE u.id = i.user_id AND NOT u.excluded
        RETURNING u.id, u.points AS balance, i.delta, i.reference, i.memo
      )
      INSERT INTO ledger (user_id, currency, delta, balance_after, reason, reference, memo)
      SELECT id, 'points', delta, balance, ${reason}, reference, memo FROM updated
      RETURNING user_id, balance_after::text AS balance, id AS ledger_id
    `),
  );
  for (const r of rows) out.set(r.user_id, { balance: r.balance, ledgerId: Number(r.ledger_id) });
  for (const paid of await payDebts(tx, [...out.keys()])) {
    const before = out.get(paid.userId);
    if (before) out.set(paid.userId, { ...before, balance: paid.balance });
  }
  return out;
}

async function applyChange(
  tx: DbOrTx,
  change: BalanceChange<LedgerReason>,
  gate: boolean,
): Promise<BalanceResult | null> {
  const cents = deltaCents(change.delta);
  if (cents === 0n) throw new RangeError('A balance change cannot be zero');
  if (cents > 0n) checkCredit(change.reason, gate);
  const delta = centsToText(cents);
  const column = change.currency === 'points' ? sql.raw('points') : sql.raw('gems');
  const excludedGuard = change.earning ? sql`AND NOT u.excluded` : sql``;
  const debtGuard =
    cents < 0n && change.currency === 'points' && !debitsAllowedInDebt.includes(change.reason)
      ? sql`AND u.points_debt = 0`
      : sql``;
  const result = await tx.execute<{ balance: string; ledger_id: string | number }>(sql`
    WITH updated AS (
      UPDATE users u SET ${column} = u.${column} + ${delta}::numeric
      WHERE u.id = ${change.userId} AND u.${column} + ${delta}::numeric >= 0 ${excludedGuard} ${debtGuard}
      RETURNING u.id, u.${column} AS balance
    ), entry AS (
      INSERT INTO ledger (user_id, currency, delta, balance_after, reason, reference, memo)
      SELECT id, ${change.currency}, ${delta}::numeric, balance, ${change.reason},
             ${change.reference ?? null}, ${change.memo ?? null}
      FROM updated
      RETURNING id
    )
    SELECT updated.balance::text AS balance, entry.id AS ledger_id FROM updated, entry
  `);
  const row = rowsOf<{ balance: string; ledger_id: string | number }>(result)[0];
  if (row) {
    if (cents > 0n && change.earning && change.currency === 'points') {
      const paid = await payDebts(tx, [change.userId]);
      if (paid.length > 0) return { balance: paid[0]!.balance, ledgerId: Number(row.ledger_id) };
    }
    return { balance: row.balance, ledgerId: Number(row.ledger_id) };
  }
  // Nothing changed: find out why, so callers can answer precisely.
  const probe = rowsOf<{ excluded: boolean; in_debt: boolean }>(
    await tx.execute(sql`SELECT excluded, points_debt > 0 AS in_debt FROM users WHERE id = ${change.userId}`),
  )[0];
  if (!probe) throw notFound('User not found.');
  if (change.earning && probe.excluded) return null;
  if (cents < 0n && change.currency === 'points' && probe.in_debt && !debitsAllowedInDebt.includes(change.reason)) {
    throw new OutstandingDebtError();
  }
  throw new InsufficientBalanceError(change.currency);
}

/**
 * Pays off what these users owe from their points balance, as far as it goes: one ledger row
 * (`debt_repayment`) per user who paid. Earnings call it right after crediting, so later earnings
 * pay the debt first. Returns the users who paid and their balance after.
 */
export async function payDebts(
  tx: DbOrTx,
  userIds: readonly string[],
): Promise<Array<{ userId: string; balance: string }>> {
  if (userIds.length === 0) return [];
  const rows = rowsOf<{ user_id: string; balance: string }>(
    await tx.execute(sql`
      WITH owing AS (
        SELECT id, least(points, points_debt) AS pay FROM users
        WHERE id = ANY (${uuidArray(userIds)})
          AND points_debt > 0 AND points > 0
        FOR UPDATE
      ), paid AS (
        UPDATE users u SET points = u.points - owing.pay, points_debt = u.points_debt - owing.pay
        FROM owing WHERE u.id = owing.id
        RETURNING u.id, u.points, owing.pay
      )
      INSERT INTO ledger (user_id, currency, delta, balance_after, reason, memo)
      SELECT id, 'points', -pay, points, 'debt_repayment', 'Paid towards points owed' FROM paid
      RETURNING user_id, balance_after::text AS balance
    `),
  );
  return rows.map((r) => ({ userId: r.user_id, balance: r.balance }));
}

/** Like applyBalanceChange for spending: turns a short balance into a 409 with a clear message. */
export async function spend(tx: DbOrTx, change: BalanceChange, message: string): Promise<BalanceResult> {
  try {
    const result = await applyBalanceChange(tx, change);
    if (!result) throw conflict(message);
    return result;
  } catch (err) {
    if (err instanceof OutstandingDebtError) throw conflict(said('ledger:debt'));
    if (err instanceof InsufficientBalanceError) throw conflict(message);
    throw err;
  }
}

/**
 * The ledger's part of a purchase made in ONE statement (the store's order placer): a CTE named
 * `debit` that takes `price` from the user when the balance covers it, and one named `entry`
 * that writes the ledger row for it, referencing a row of the caller's CTE `ref_cte` (column `id`).
 * The caller supplies `priced` (a CTE with columns id, name, price, allowed) and decides what
 * else happens; if anything after the debit fails, the caller must abort the statement.
 */
export function pointsDebitCtes(userId: string | SQLWrapper): { debit: SQL; entry(refCte: string): SQL } {
  return {
    debit: sql`debit AS (
      UPDATE users u SET points = u.points - priced.price
      FROM priced
      WHERE u.id = ${userId} AND priced.allowed AND u.points >= priced.price AND u.points_debt = 0
      RETURNING u.id AS user_id, u.points AS balance, priced.price, priced.name
    )`,
    entry: (refCte) => sql`entry AS (
      INSERT INTO ledger (user_id, currency, delta, balance_after, reason, reference, memo)
      SELECT debit.user_id, 'points', -debit.price, debit.balance, 'order', r.id::text, debit.name
      FROM debit, ${sql.raw(refCte)} r
      RETURNING id
    )`,
  };
}

export interface Credit {
  userId: string;
  /** Positive amount, at most 2 decimals. */
  amount: number | string;
  reference?: string | null;
}

/**
 * Many earnings of one currency and reason in one statement (chat points flush a whole batch at
 * once): each credited user gets a balance increase and a ledger row; excluded accounts are
 * skipped. A user may appear once per call. Returns the ids of the users credited.
 */
export async function creditMany(
  tx: DbOrTx,
  currency: Currency,
  reason: PlainReason,
  credits: readonly Credit[],
): Promise<string[]> {
  if (credits.length === 0) return [];
  checkCredit(reason, false);
  const rows = credits.map((c) => {
    const cents = toCents(c.amount);
    if (cents <= 0n) throw new RangeError('A credit must be positive');
    return sql`(${c.userId}::uuid, ${centsToText(cents)}::numeric, ${c.reference ?? null}::text)`;
  });
  const column = currency === 'points' ? sql.raw('points') : sql.raw('gems');
  const result = await tx.execute<{ user_id: string }>(sql`
    WITH input (user_id, delta, reference) AS (VALUES ${sql.join(rows, sql`, `)}),
    updated AS (
      UPDATE users u SET ${column} = u.${column} + i.delta
      FROM input i
      WHERE u.id = i.user_id AND NOT u.excluded
      RETURNING u.id, u.${column} AS balance, i.delta, i.reference
    )
    INSERT INTO ledger (user_id, currency, delta, balance_after, reason, reference)
    SELECT id, ${currency}, delta, balance, ${reason}, reference FROM updated
    RETURNING user_id
  `);
  const credited = rowsOf<{ user_id: string }>(result).map((r) => r.user_id);
  if (currency === 'points') await payDebts(tx, credited);
  return credited;
}

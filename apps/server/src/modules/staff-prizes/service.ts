/**
 * Prizes from events a Moderator runs (docs/features/staff-prize-limits.md). Events only Admins
 * run pay through the ledger as they always did. When a Moderator set the prize or runs the event:
 * a payout to a staff account (Moderator or Admin), any payout of an event whose prizes add up to
 * more than the per-event limit, and any payout that would take the UTC day's total of such paid
 * prizes above the per-day limit is held back: it waits in Fulfilment (kind `staff_prize`) until an
 * Admin approves it (paid through the ledger then, once: ../fulfilment/handling.ts) or rejects it.
 * Everything else is paid through the ledger and counted in the day's tally.
 *
 * Payouts queue on the limits row (FOR UPDATE), so two events paying at once cannot both fit under
 * the day's limit by reading the same total.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { centsToNumber, centsToText, decimalToNumber, formatAmount, toCents } from '@kickback/common/money';
import type { StaffPrizeLimits } from '@kickback/common/http/staff-prizes';
import type { Db, DbOrTx } from '../../db/client';
import type { Currency } from '../../db/schema/ledger';
import { staffPrizeLimits, staffPrizePayouts } from '../../db/schema/staff-prizes';
import { users, type UserRow } from '../../db/schema/users';
import { actorOf, recordAudit } from '../audit/service';
import { enqueueFulfilment } from '../fulfilment/service';
import { applyBalanceChange, type BalanceResult, type LedgerReason } from '../ledger/service';

export const STAFF_PRIZE_KIND = 'staff_prize';

export interface PrizeEvent {
  /** The event in words, for the Fulfilment item: "Split or Steal game 3f2a…". */
  label: string;
  /**
   * Who set the prize or runs the event (unknown ones left out as null): unless there is at least
   * one and every one is an Admin, the limits apply.
   */
  runBy: ReadonlyArray<string | null>;
}

export interface Prize {
  userId: string;
  cents: bigint;
  reason: LedgerReason;
  /** The ledger reference; also the Fulfilment reference when held back (unique per kind). */
  reference: string;
  memo?: string | null;
}

/** What became of each prize, in the order given. */
export type PrizeOutcome = { reference: string } & (
  | { kind: 'paid'; result: BalanceResult }
  | { kind: 'held'; fulfilmentId: number | null }
  /** An excluded account (or nothing to pay): never paid, never queued. */
  | { kind: 'skipped' }
);

/** Amounts in the held prize's description as the Fulfilment queue shows amounts (one formatter). */
const points = (cents: bigint) => `${formatAmount(centsToText(cents))} points`;
const utcDay = (now: Date) => now.toISOString().slice(0, 10);

async function readLimits(db: DbOrTx, lock: boolean) {
  const query = db.select().from(staffPrizeLimits).where(eq(staffPrizeLimits.id, 1));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new Error('staff_prize_limits has no row (migration 0960 not applied?)');
  return row;
}

async function paidOn(db: DbOrTx, day: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${staffPrizePayouts.amount}), 0)::text` })
    .from(staffPrizePayouts)
    .where(eq(staffPrizePayouts.day, day));
  return toCents(row?.total ?? '0');
}

/** Whether the limits apply: a Moderator (or someone unknown) set the prize or runs the event. */
async function moderatorRun(tx: DbOrTx, runBy: ReadonlyArray<string | null>): Promise<boolean> {
  const ids = [...new Set(runBy.filter((id): id is string => id !== null))];
  if (ids.length === 0) return true;
  const roles = await tx.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, ids));
  return ids.some((id) => roles.find((r) => r.id === id)?.role !== 'Admin');
}

/** Whether `userId` is a staff account (Moderator or Admin). */
export async function isStaff(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role === 'Moderator' || row?.role === 'Admin';
}

/** Whether an event run by these users is a Moderator's (the limits and the staff rule apply). */
export const isModeratorRun = moderatorRun;

/**
 * Pays the prizes of one event, in the caller's transaction: through the ledger, or held back in
 * Fulfilment for an Admin (see the header). Excluded accounts are skipped either way. Must run in
 * the transaction that ends the event, so the prize is paid or queued exactly when it ends.
 */
export async function payPrizes(
  tx: DbOrTx,
  event: PrizeEvent,
  prizes: readonly Prize[],
  now: Date,
): Promise<PrizeOutcome[]> {
  const wanted = prizes.filter((p) => p.cents > 0n);
  if (wanted.length === 0) return prizes.map((p) => ({ reference: p.reference, kind: 'skipped' }));
  const currency: Currency = 'points';
  if (!(await moderatorRun(tx, event.runBy))) {
    const outcomes: PrizeOutcome[] = [];
    for (const p of prizes) {
      const result =
        p.cents > 0n
          ? await applyBalanceChange(tx, {
              userId: p.userId,
              currency,
              delta: { cents: p.cents },
              reason: p.reason,
              reference: p.reference,
              memo: p.memo ?? null,
              earning: true,
            })
          : null;
      outcomes.push(
        result ? { reference: p.reference, kind: 'paid', result } : { reference: p.reference, kind: 'skipped' },
      );
    }
    return outcomes;
  }

  const limits = await readLimits(tx, true);
  const perEvent = toCents(limits.perEvent);
  const perDay = toCents(limits.perDay);
  const day = utcDay(now);
  const eventTotal = wanted.reduce((sum, p) => sum + p.cents, 0n);
  const recipients = await tx
    .select({ id: users.id, role: users.role, excluded: users.excluded })
    .from(users)
    .where(inArray(users.id, [...new Set(wanted.map((p) => p.userId))]));
  let paidToday = await paidOn(tx, day);

  const outcomes: PrizeOutcome[] = [];
  for (const p of prizes) {
    const recipient = recipients.find((r) => r.id === p.userId);
    if (p.cents <= 0n || !recipient || recipient.excluded) {
      outcomes.push({ reference: p.reference, kind: 'skipped' });
      continue;
    }
    const why =
      eventTotal > perEvent
        ? `the event's prizes (${points(eventTotal)}) are above the per-event limit of ${points(perEvent)}`
        : recipient.role === 'Moderator' || recipient.role === 'Admin'
          ? `the winner is a staff account (${recipient.role})`
          : paidToday + p.cents > perDay
            ? `it would take today's prizes from Moderator-run events above the per-day limit of ${points(perDay)}`
            : null;
    if (why) {
      const fulfilmentId = await enqueueFulfilment(tx, {
        kind: STAFF_PRIZE_KIND,
        reference: p.reference,
        userId: p.userId,
        description: `${event.label}: ${points(p.cents)} held for an Admin's approval — ${why}. Approving pays it.`,
        amount: centsToText(p.cents),
        unit: currency,
        credit: { currency, amount: centsToText(p.cents), reason: p.reason },
      });
      outcomes.push({ reference: p.reference, kind: 'held', fulfilmentId });
      continue;
    }
    const result = await applyBalanceChange(tx, {
      userId: p.userId,
      currency,
      delta: { cents: p.cents },
      reason: p.reason,
      reference: p.reference,
      memo: p.memo ?? null,
      earning: true,
    });
    if (!result) {
      outcomes.push({ reference: p.reference, kind: 'skipped' });
      continue;
    }
    await tx
      .insert(staffPrizePayouts)
      .values({ reference: p.reference, userId: p.userId, amount: centsToText(p.cents), day, createdAt: now });
    paidToday += p.cents;
    outcomes.push({ reference: p.reference, kind: 'paid', result });
  }
  return outcomes;
}

async function present(db: DbOrTx, now: Date): Promise<StaffPrizeLimits> {
  const row = await readLimits(db, false);
  const [by] = row.updatedBy
    ? await db.select({ username: users.username }).from(users).where(eq(users.id, row.updatedBy))
    : [];
  return {
    perEvent: decimalToNumber(row.perEvent),
    perDay: decimalToNumber(row.perDay),
    paidToday: centsToNumber(await paidOn(db, utcDay(now))),
    updatedBy: by?.username ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function readStaffPrizeLimits(db: Db, now: Date): Promise<StaffPrizeLimits> {
  return present(db, now);
}

/** An Admin's change of the limits, audited with the values before and after. */
export async function updateStaffPrizeLimits(
  db: Db,
  admin: UserRow,
  body: { perEvent: string; perDay: string },
  now: Date,
): Promise<StaffPrizeLimits> {
  return db.transaction(async (tx) => {
    const before = await readLimits(tx, true);
    const perEvent = centsToText(toCents(body.perEvent));
    const perDay = centsToText(toCents(body.perDay));
    await tx
      .update(staffPrizeLimits)
      .set({ perEvent, perDay, updatedBy: admin.id, updatedAt: now })
      .where(eq(staffPrizeLimits.id, 1));
    await recordAudit(tx, actorOf(admin), {
      action: 'staff_prize_limits.update',
      targetType: 'staff_prize_limits',
      targetId: '1',
      before: { perEvent: decimalToNumber(before.perEvent), perDay: decimalToNumber(before.perDay) },
      after: { perEvent: decimalToNumber(perEvent), perDay: decimalToNumber(perDay) },
    });
    return present(tx, now);
  });
}

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
import { ledgerReasonKind } from '@kickback/common/http/activity';
import { centsToNumber, centsToText, decimalToNumber, formatAmount, toCents } from '@kickback/common/money';
import type { StaffPrizeLimits } from '@kickback/common/http/staff-prizes';
import type { Db, DbOrTx } from '../../db/client';
import type { Currency } from '../../db/schema/ledger';
import { staffPrizeLimits, staffPrizePayouts } from '../../db/schema/staff-prizes';
import { users, type UserRow } from '../../db/schema/users';
import { actorOf, recordAudit, recordAuditMany, type Actor } from '../audit/service';
import { enqueueFulfilment } from '../fulfilment/service';
import {
  applyPrizeCreditThroughGate,
  applyPrizeCreditsThroughGate,
  type BalanceResult,
  type PrizeReason,
} from '../ledger/service';

export const STAFF_PRIZE_KIND = 'staff_prize';

export interface PrizeEvent {
  /** The event in words, for the Fulfilment item: "Split or Steal game 3f2a…". */
  label: string;
  /** What the audit entry of each prize names as its target: the kind of event and its id. */
  target: { type: string; id: string };
  /** Whoever's action ended the event (the audit entry's actor); the system when a timer did. */
  actor?: Actor | null;
  /**
   * Who set the prize or runs the event (unknown ones left out as null): unless there is at least
   * one and every one is an Admin, the limits apply.
   */
  runBy: ReadonlyArray<string | null>;
}

export interface Prize {
  userId: string;
  cents: bigint;
  reason: PrizeReason;
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

const systemActor: Actor = { userId: null, label: 'system' };

/** One audit entry per prize paid or held, naming the event (docs/features/staff-prize-limits.md#the-audit-log). */
async function auditPrize(
  tx: DbOrTx,
  event: PrizeEvent,
  p: Prize,
  outcome: { paid: true } | { paid: false; fulfilmentId: number | null; why: string },
  moderatorRunEvent: boolean,
): Promise<void> {
  await recordAudit(tx, event.actor ?? systemActor, {
    action: outcome.paid ? 'prize.paid' : 'prize.held',
    targetType: event.target.type,
    targetId: event.target.id,
    after: {
      event: event.label,
      userId: p.userId,
      points: centsToNumber(p.cents),
      reason: p.reason,
      reference: p.reference,
      runBy: [...new Set(event.runBy.filter((id) => id !== null))],
      moderatorRun: moderatorRunEvent,
      ...(outcome.paid ? {} : { fulfilmentId: outcome.fulfilmentId, why: outcome.why }),
    },
  });
}

const credit = (tx: DbOrTx, p: Prize) =>
  applyPrizeCreditThroughGate(tx, {
    userId: p.userId,
    currency: 'points',
    delta: { cents: p.cents },
    reason: p.reason,
    reference: p.reference,
    memo: p.memo ?? null,
    earning: true,
  });

/**
 * Pays the prizes of one event, in the caller's transaction: through the ledger, or held back in
 * Fulfilment for an Admin (see the header). Excluded accounts are skipped either way. Must run in
 * the transaction that ends the event, so the prize is paid or queued exactly when it ends. This
 * is the only way a prize reaches a balance (the ledger refuses a prize reason anywhere else), and
 * each prize paid or held is in the audit log with its event.
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
      const result = p.cents > 0n ? await credit(tx, p) : null;
      if (result) await auditPrize(tx, event, p, { paid: true }, false);
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
      await auditPrize(tx, event, p, { paid: false, fulfilmentId, why }, true);
      outcomes.push({ reference: p.reference, kind: 'held', fulfilmentId });
      continue;
    }
    const result = await credit(tx, p);
    if (!result) {
      outcomes.push({ reference: p.reference, kind: 'skipped' });
      continue;
    }
    await tx
      .insert(staffPrizePayouts)
      .values({ reference: p.reference, userId: p.userId, amount: centsToText(p.cents), day, createdAt: now });
    paidToday += p.cents;
    await auditPrize(tx, event, p, { paid: true }, true);
    outcomes.push({ reference: p.reference, kind: 'paid', result });
  }
  return outcomes;
}

/**
 * The gate's batch entry: many prizes of one event and one reason (a milestone ladder's automatic
 * payouts of a whole standings refresh), set-based. When only Admins run the event, nothing is
 * capped: the balances and ledger rows are one statement (excluded accounts skipped, as the ledger
 * does) and the audit entries another. When the limits apply, each prize goes through `payPrizes`
 * with every check of it (per-event and per-day limits, staff winners), one at a time. Each user
 * may appear once per call.
 */
export async function payPrizeBatch(
  tx: DbOrTx,
  event: PrizeEvent,
  batch: { reason: PrizeReason; prizes: ReadonlyArray<Omit<Prize, 'reason'>> },
  now: Date,
): Promise<PrizeOutcome[]> {
  const { reason, prizes } = batch;
  const wanted = prizes.filter((p) => p.cents > 0n);
  if (wanted.length === 0) return prizes.map((p) => ({ reference: p.reference, kind: 'skipped' }));
  if (await moderatorRun(tx, event.runBy)) {
    return payPrizes(
      tx,
      event,
      prizes.map((p) => ({ ...p, reason })),
      now,
    );
  }
  const paid = await applyPrizeCreditsThroughGate(
    tx,
    reason,
    wanted.map((p) => ({ userId: p.userId, cents: p.cents, reference: p.reference, memo: p.memo ?? null })),
  );
  const runBy = [...new Set(event.runBy.filter((id) => id !== null))];
  await recordAuditMany(
    tx,
    event.actor ?? systemActor,
    wanted
      .filter((p) => paid.has(p.userId))
      .map((p) => ({
        action: 'prize.paid',
        targetType: event.target.type,
        targetId: event.target.id,
        after: {
          event: event.label,
          userId: p.userId,
          points: centsToNumber(p.cents),
          reason,
          reference: p.reference,
          runBy,
          moderatorRun: false,
        },
      })),
  );
  return prizes.map((p) => {
    const result = p.cents > 0n ? paid.get(p.userId) : undefined;
    return result ? { reference: p.reference, kind: 'paid', result } : { reference: p.reference, kind: 'skipped' };
  });
}

/**
 * An Admin's approval of a held prize (../fulfilment/handling.ts, in the transaction that took the
 * item from pending): the credit through the ledger, once. Null when the account is excluded. A
 * stored reason that is no prize (an item from before prizes were classified) is paid as
 * `game_win`, the reason Split or Steal's held prizes always had.
 */
export async function payApprovedPrize(
  tx: DbOrTx,
  item: { userId: string; currency: Currency; amount: string; reason: string | null; reference: string; memo: string },
): Promise<BalanceResult | null> {
  const reason: PrizeReason =
    item.reason !== null && ledgerReasonKind(item.reason) === 'prize' ? (item.reason as PrizeReason) : 'game_win';
  return applyPrizeCreditThroughGate(tx, {
    userId: item.userId,
    currency: item.currency,
    delta: { cents: toCents(item.amount) },
    reason,
    reference: item.reference,
    memo: item.memo,
    earning: true,
  });
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

/**
 * Tickets (docs/features/raffles.md): bought with points, granted for support on Kick, refunded
 * when a raffle is cancelled. Every acquisition is a `raffle_tickets` row with its source; the
 * owner's tally (`raffle_entries`) is locked for the change, so a cap holds however many requests
 * arrive at once, and the points move through the ledger in the same transaction.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import { raffleMessages, type TicketSource } from '@kickback/common/http/raffles';
import type { DbOrTx, Tx } from '../../db/client';
import { raffleEntries, raffles, raffleTickets, type RaffleRow } from '../../db/schema/raffles';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { applyBalanceChange, spend } from '../ledger/service';
import { raffleRefusal } from './eligibility';

export interface RaffleHooks {
  /** In a purchase, right after the owner's tally was read (and locked). Tests race here. */
  afterTallyLock?(tx: Tx): Promise<void>;
}

/** The advisory lock key space of raffles (with hashtext of the raffle id as the second key). */
const RAFFLE_LOCK = 0x72_6166; // "raf"

/**
 * The raffle's gate: purchases and grants hold it shared (side by side, and cheap: a lock in the
 * lock manager, not a mark on the hot raffle row), while closing, drawing and cancelling hold it
 * exclusively (lockRaffle), so they wait for the purchases in flight and the purchases after them
 * see the new status. Held to the end of the transaction.
 */
export async function raffleGate(tx: DbOrTx, raffleId: string, exclusive: boolean): Promise<void> {
  await tx.execute(
    exclusive
      ? sql`SELECT pg_advisory_xact_lock(${RAFFLE_LOCK}, hashtext(${raffleId}))`
      : sql`SELECT pg_advisory_xact_lock_shared(${RAFFLE_LOCK}, hashtext(${raffleId}))`,
  );
}

/** The raffle, read behind the shared gate. */
async function shareRaffle(tx: Tx, raffleId: string): Promise<RaffleRow> {
  await raffleGate(tx, raffleId, false);
  const [raffle] = await tx.select().from(raffles).where(eq(raffles.id, raffleId));
  if (!raffle) throw notFound(raffleMessages.notFound);
  return raffle;
}

const isSelling = (raffle: RaffleRow, now: Date) =>
  raffle.status === 'open' && raffle.opensAt <= now && now < raffle.closesAt;

/** The owner's tally, created when missing and locked FOR UPDATE (the cap's row lock). */
async function lockTally(tx: Tx, raffleId: string, userId: string): Promise<{ tickets: number; bought: number }> {
  await tx.insert(raffleEntries).values({ raffleId, userId }).onConflictDoNothing();
  const [tally] = await tx
    .select({ tickets: raffleEntries.tickets, bought: raffleEntries.bought })
    .from(raffleEntries)
    .where(and(eq(raffleEntries.raffleId, raffleId), eq(raffleEntries.userId, userId)))
    .for('update');
  return tally!;
}

async function addToTally(tx: Tx, raffleId: string, userId: string, tickets: number, bought: number): Promise<number> {
  const [row] = await tx
    .update(raffleEntries)
    .set({ tickets: sql`${raffleEntries.tickets} + ${tickets}`, bought: sql`${raffleEntries.bought} + ${bought}` })
    .where(and(eq(raffleEntries.raffleId, raffleId), eq(raffleEntries.userId, userId)))
    .returning({ tickets: raffleEntries.tickets });
  return row!.tickets;
}

export interface Purchase {
  raffle: RaffleRow;
  myTickets: number;
  balance: string;
}

/** Buys `quantity` tickets for the user: one ledger debit, one tickets row, the cap checked under lock. */
export async function buyTickets(
  tx: Tx,
  raffleId: string,
  userId: string,
  quantity: number,
  now: Date,
  hooks: RaffleHooks = {},
): Promise<Purchase> {
  const raffle = await shareRaffle(tx, raffleId);
  if (!isSelling(raffle, now)) throw conflict(raffleMessages.notOpen);
  if (!raffle.sellTickets) throw conflict(raffleMessages.notSold);
  const refusal = await raffleRefusal(tx, raffle, userId, now);
  if (refusal) throw forbidden(raffleMessages.notEligible(refusal));
  const tally = await lockTally(tx, raffleId, userId);
  await hooks.afterTallyLock?.(tx);
  if (tally.bought + quantity > raffle.maxTicketsPerUser) {
    throw conflict(raffleMessages.overCap(raffle.maxTicketsPerUser, tally.bought), 'quantity');
  }
  const cost = toCents(raffle.ticketPrice) * BigInt(quantity);
  const paid = await spend(
    tx,
    {
      userId,
      currency: 'points',
      delta: { cents: -cost },
      reason: 'raffle_tickets',
      reference: raffleId,
      memo: `${raffle.title}: ${quantity} ticket${quantity === 1 ? '' : 's'}`,
    },
    raffleMessages.short,
  );
  await tx
    .insert(raffleTickets)
    .values({ raffleId, userId, source: 'points', quantity, pointsPaid: centsToText(cost), createdAt: now });
  const myTickets = await addToTally(tx, raffleId, userId, quantity, quantity);
  return { raffle, myTickets, balance: paid.balance };
}

/** Tickets per unit and the per-owner cap of a support source, from the raffle's switches (0: off). */
function supportRule(raffle: RaffleRow, source: Exclude<TicketSource, 'points'>, count: number) {
  switch (source) {
    case 'sub':
      return { tickets: raffle.ticketsPerSub * count, cap: raffle.subCap };
    case 'gift':
      return { tickets: raffle.ticketsPerGift * count, cap: raffle.giftCap };
    case 'kicks':
      return {
        tickets: raffle.kicksPerTicket > 0 ? Math.floor(count / raffle.kicksPerTicket) : 0,
        cap: raffle.kicksCap,
      };
  }
}

/**
 * Grants free tickets for support on Kick — `count` subs, gifted subs, or KICKs (the amount) — in
 * every raffle selling now that switched that source on, up to the source's cap per owner. Called
 * by the support events' handler inside its transaction; idempotent on `eventId` (the same event
 * delivered twice grants once). Returns the tickets granted per raffle.
 */
export async function grantSupportTickets(
  tx: Tx,
  userId: string,
  source: Exclude<TicketSource, 'points'>,
  count: number,
  eventId: string,
  now: Date = new Date(),
): Promise<Array<{ raffleId: string; tickets: number }>> {
  if (!Number.isFinite(count) || count <= 0) return [];
  const open = await tx
    .select({ id: raffles.id })
    .from(raffles)
    .where(and(eq(raffles.status, 'open'), sql`${raffles.opensAt} <= ${now.toISOString()}::timestamptz`));
  const granted: Array<{ raffleId: string; tickets: number }> = [];
  for (const { id } of open) {
    const raffle = await shareRaffle(tx, id);
    if (!isSelling(raffle, now)) continue;
    const rule = supportRule(raffle, source, count);
    if (rule.tickets <= 0 || rule.cap <= 0) continue;
    if (await raffleRefusal(tx, raffle, userId, now)) continue;
    await lockTally(tx, id, userId);
    const [held] = await tx
      .select({ n: sql<string>`coalesce(sum(${raffleTickets.quantity}), 0)::text` })
      .from(raffleTickets)
      .where(and(eq(raffleTickets.raffleId, id), eq(raffleTickets.userId, userId), eq(raffleTickets.source, source)));
    const tickets = Math.min(rule.tickets, rule.cap - Number(held?.n ?? 0));
    if (tickets <= 0) continue;
    const inserted = await tx
      .insert(raffleTickets)
      .values({ raffleId: id, userId, source, quantity: tickets, eventId, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: raffleTickets.id });
    if (inserted.length === 0) continue; // this event was granted already
    await addToTally(tx, id, userId, tickets, 0);
    granted.push({ raffleId: id, tickets });
  }
  return granted;
}

/**
 * Refunds every bought ticket of the raffle not refunded yet: each purchase row is marked
 * refunded and its points credited back, in the caller's transaction. A row already marked is
 * skipped, so running it again refunds nothing. Returns how many purchases were refunded.
 */
export async function refundTickets(tx: DbOrTx, raffleId: string, title: string, now: Date): Promise<number> {
  const refunded = await tx
    .update(raffleTickets)
    .set({ refundedAt: now })
    .where(
      and(eq(raffleTickets.raffleId, raffleId), eq(raffleTickets.source, 'points'), isNull(raffleTickets.refundedAt)),
    )
    .returning({ id: raffleTickets.id, userId: raffleTickets.userId, pointsPaid: raffleTickets.pointsPaid });
  for (const row of refunded) {
    if (toCents(row.pointsPaid) === 0n) continue;
    await applyBalanceChange(tx, {
      userId: row.userId,
      currency: 'points',
      delta: row.pointsPaid,
      reason: 'raffle_refund',
      reference: `raffle-ticket:${row.id}`,
      memo: title,
    });
  }
  return refunded.length;
}

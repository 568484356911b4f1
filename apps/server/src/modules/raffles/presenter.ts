/** Raffle rows as the web sees them (packages/common http/raffles.ts). */
import { asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AdminRaffle, RaffleDetail, RafflePrize, RaffleSummary } from '@kickback/common/http/raffles';
import { decimalToNumber } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { raffleEntries, rafflePrizes, raffles, raffleWinners, type RaffleRow } from '../../db/schema/raffles';
import { users } from '../../db/schema/users';

interface Extras {
  prizes: Map<string, RafflePrize[]>;
  sold: Map<string, number>;
  mine: Map<string, { tickets: number; bought: number }> | null;
  winners: Map<string, RaffleSummary['winners']>;
}

const group = <T extends { raffleId: string }, V>(rows: T[], view: (row: T) => V) => {
  const out = new Map<string, V[]>();
  for (const row of rows) out.set(row.raffleId, [...(out.get(row.raffleId) ?? []), view(row)]);
  return out;
};

async function extrasOf(db: DbOrTx, ids: string[], userId: string | null): Promise<Extras> {
  if (ids.length === 0)
    return { prizes: new Map(), sold: new Map(), mine: userId ? new Map() : null, winners: new Map() };
  const [prizeRows, soldRows, mineRows, winnerRows] = await Promise.all([
    db.select().from(rafflePrizes).where(inArray(rafflePrizes.raffleId, ids)).orderBy(asc(rafflePrizes.position)),
    db
      .select({ raffleId: raffleEntries.raffleId, n: sql<string>`sum(${raffleEntries.tickets})::text` })
      .from(raffleEntries)
      .where(inArray(raffleEntries.raffleId, ids))
      .groupBy(raffleEntries.raffleId),
    userId
      ? db
          .select({ raffleId: raffleEntries.raffleId, tickets: raffleEntries.tickets, bought: raffleEntries.bought })
          .from(raffleEntries)
          .where(sql`${inArray(raffleEntries.raffleId, ids)} AND ${eq(raffleEntries.userId, userId)}`)
      : Promise.resolve([]),
    db
      .select({
        raffleId: raffleWinners.raffleId,
        position: raffleWinners.position,
        // A removed account's tombstone name ("removed account"); the draw's record keeps the snapshot's.
        username: sql<string>`coalesce(CASE WHEN ${users.removedAt} IS NOT NULL THEN ${users.username} END, ${raffleWinners.username})`,
        avatarUrl: users.avatarUrl,
        prize: raffleWinners.prize,
      })
      .from(raffleWinners)
      .leftJoin(users, eq(users.id, raffleWinners.userId))
      .where(inArray(raffleWinners.raffleId, ids))
      .orderBy(asc(raffleWinners.position)),
  ]);
  return {
    prizes: group(prizeRows, (p) => ({
      position: p.position,
      kind: p.kind,
      points: p.points === null ? null : decimalToNumber(p.points),
      item: p.item,
    })),
    sold: new Map(soldRows.map((r) => [r.raffleId, Number(r.n)])),
    mine: userId ? new Map(mineRows.map((r) => [r.raffleId, { tickets: r.tickets, bought: r.bought }])) : null,
    winners: group(winnerRows, ({ raffleId: _r, ...w }) => w),
  };
}

function summaryOf(r: RaffleRow, x: Extras): RaffleSummary {
  const sold = x.sold.get(r.id) ?? 0;
  const entry = x.mine ? (x.mine.get(r.id) ?? { tickets: 0, bought: 0 }) : null;
  const mine = entry?.tickets ?? null;
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    imageUrl: r.imageUrl,
    status: r.status,
    ticketPrice: decimalToNumber(r.ticketPrice),
    maxTicketsPerUser: r.maxTicketsPerUser,
    sellTickets: r.sellTickets,
    opensAt: r.opensAt.toISOString(),
    closesAt: r.closesAt.toISOString(),
    ticketsSold: sold,
    prizes: x.prizes.get(r.id) ?? [],
    myTickets: mine,
    mine: entry && {
      bought: entry.bought,
      free: entry.tickets - entry.bought,
      moreAllowed: Math.max(0, r.maxTicketsPerUser - entry.bought),
    },
    odds: mine === null || sold === 0 ? null : mine / sold,
    winners: x.winners.get(r.id) ?? [],
  };
}

function detailOf(r: RaffleRow, x: Extras): RaffleDetail {
  return {
    ...summaryOf(r, x),
    requireKick: r.requireKick,
    requireVerifiedPartner: r.requireVerifiedPartner,
    subsOnly: r.subsOnly,
    seedHash: r.seedHash,
    snapshotHash: r.snapshotHash,
    // The seed stays secret until the draw has used it.
    serverSeed: r.status === 'drawn' ? r.serverSeed : null,
    drawnAt: r.drawnAt?.toISOString() ?? null,
  };
}

function adminOf(r: RaffleRow, x: Extras): AdminRaffle {
  return {
    ...detailOf(r, x),
    ticketsPerSub: r.ticketsPerSub,
    subCap: r.subCap,
    ticketsPerGift: r.ticketsPerGift,
    giftCap: r.giftCap,
    kicksPerTicket: r.kicksPerTicket,
    kicksCap: r.kicksCap,
  };
}

/** The public list: open raffles first (closing soonest), then the last 50 past ones. */
export async function publicList(db: DbOrTx, userId: string | null): Promise<RaffleSummary[]> {
  const rows = await db
    .select()
    .from(raffles)
    .where(ne(raffles.status, 'draft'))
    .orderBy(
      sql`${raffles.status} = 'open' DESC`,
      sql`CASE WHEN ${raffles.status} = 'open' THEN ${raffles.closesAt} END`,
      desc(raffles.closesAt),
    )
    .limit(100);
  const x = await extrasOf(
    db,
    rows.map((r) => r.id),
    userId,
  );
  return rows.map((r) => summaryOf(r, x));
}

export async function publicDetail(db: DbOrTx, raffle: RaffleRow, userId: string | null): Promise<RaffleDetail> {
  return detailOf(raffle, await extrasOf(db, [raffle.id], userId));
}

export async function adminList(db: DbOrTx): Promise<AdminRaffle[]> {
  const rows = await db.select().from(raffles).orderBy(desc(raffles.createdAt)).limit(200);
  const x = await extrasOf(
    db,
    rows.map((r) => r.id),
    null,
  );
  return rows.map((r) => adminOf(r, x));
}

export async function adminView(db: DbOrTx, raffle: RaffleRow): Promise<AdminRaffle> {
  return adminOf(raffle, await extrasOf(db, [raffle.id], null));
}

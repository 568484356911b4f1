/**
 * The raffle's provably fair draw, the giveaway's commit-reveal scheme (packages/common
 * giveaway/draw.ts, docs/features/raffles.md): the seed is drawn and its SHA-256 published when
 * the raffle opens; at the close the snapshot of the tickets — one entry per owner, weighted by
 * their tickets, the draw's id field carrying the site user id — is stored and hashed; the draw
 * picks one winner per prize without replacement and reveals the seed.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { drawFromPrepared, prepareSnapshot, type DrawEntry } from '@kickback/common/giveaway/draw';
import { decimalToNumber, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { rafflePrizes, raffles, raffleWinners, type RafflePrizeRow, type RaffleRow } from '../../db/schema/raffles';
import { enqueueFulfilment } from '../fulfilment/service';
import type { Actor } from '../audit/service';
import { payPrizes } from '../staff-prizes/service';
import { activeBanSql } from '../kick-bans/service';
import { nodeDrawCrypto } from '../../lib/draw-crypto';

export function prizeText(prize: Pick<RafflePrizeRow, 'kind' | 'points' | 'item'>): string {
  return prize.kind === 'points'
    ? `${decimalToNumber(prize.points ?? '0').toLocaleString('en-US')} points`
    : (prize.item ?? '');
}

/**
 * The snapshot at the close: every owner with tickets, except accounts excluded or banned in Kick
 * chat since they got them (the eligibility module keeps both from buying; this keeps them out of
 * the draw).
 */
export async function snapshotEntries(tx: Tx, raffleId: string, now: Date): Promise<DrawEntry[]> {
  const rows = rowsOf<{ user_id: string; username: string; tickets: number }>(
    await tx.execute(sql`
      SELECT e.user_id::text AS user_id, u.username, e.tickets
      FROM raffle_entries e JOIN users u ON u.id = e.user_id
      WHERE e.raffle_id = ${raffleId} AND e.tickets > 0 AND NOT u.excluded
        AND NOT ${activeBanSql(sql`u.kick_id`, now)}
    `),
  );
  return rows.map((r) => ({ kickUserId: r.user_id, username: r.username, weight: Number(r.tickets) }));
}

/** Closes a locked open raffle: its snapshot stored as the very text that is hashed. */
export async function closeRaffle(tx: Tx, raffle: RaffleRow, now: Date): Promise<RaffleRow> {
  const prepared = await prepareSnapshot(nodeDrawCrypto, await snapshotEntries(tx, raffle.id, now));
  const [closed] = await tx
    .update(raffles)
    .set({ status: 'closed', snapshot: prepared.text, snapshotHash: prepared.hash, closedAt: now, updatedAt: now })
    .where(eq(raffles.id, raffle.id))
    .returning();
  return closed!;
}

export interface DrawnWinner {
  position: number;
  userId: string;
  username: string;
  prize: string;
}

/**
 * Draws a locked closed raffle: winners from the stored snapshot under the committed seed, one
 * per prize in draw order, each prize paid (points through the ledger, an item queued in
 * Fulfilment), the raffle marked drawn. The caller holds the row lock and checked the status:
 * that is what makes the draw happen once.
 */
export async function drawRaffle(
  tx: Tx,
  raffle: RaffleRow,
  now: Date,
  drawer: (Actor & { userId: string }) | null,
): Promise<DrawnWinner[]> {
  if (!raffle.serverSeed || raffle.snapshot === null || raffle.snapshotHash === null) {
    throw new Error(`raffle ${raffle.id} is not closed`);
  }
  const prizes = await tx
    .select()
    .from(rafflePrizes)
    .where(eq(rafflePrizes.raffleId, raffle.id))
    .orderBy(asc(rafflePrizes.position));
  const entries = JSON.parse(raffle.snapshot) as DrawEntry[];
  const ids = await drawFromPrepared(
    nodeDrawCrypto,
    raffle.serverSeed,
    { entries, hash: raffle.snapshotHash },
    prizes.length,
  );
  const nameOf = new Map(entries.map((e) => [e.kickUserId, e.username]));
  const winners = ids.map((userId, i) => ({
    position: i,
    userId,
    username: nameOf.get(userId) ?? '',
    prize: prizeText(prizes[i]!),
  }));
  if (winners.length > 0) await tx.insert(raffleWinners).values(winners.map((w) => ({ raffleId: raffle.id, ...w })));
  const pointWinners: Array<{ userId: string; cents: bigint; reference: string }> = [];
  for (const [i, w] of winners.entries()) {
    const prize = prizes[i]!;
    const reference = `raffle:${raffle.id}:${i}`;
    if (prize.kind === 'points' && prize.points) {
      pointWinners.push({ userId: w.userId, cents: toCents(prize.points), reference });
    } else if (prize.kind === 'item') {
      await enqueueFulfilment(tx, {
        kind: 'raffle',
        reference,
        userId: w.userId,
        description: `Raffle "${raffle.title}": ${prize.item ?? ''}`,
      });
    }
  }
  // Point prizes through the staff-prize gate, run by the raffle's creator and whoever drew it
  // (docs/features/staff-prize-limits.md#which-events-count).
  await payPrizes(
    tx,
    {
      label: `Raffle "${raffle.title}"`,
      target: { type: 'raffle', id: raffle.id },
      actor: drawer,
      runBy: [raffle.createdBy, drawer?.userId ?? null],
    },
    pointWinners.map((w) => ({ ...w, reason: 'raffle_prize', memo: raffle.title })),
    now,
  );
  await tx.update(raffles).set({ status: 'drawn', drawnAt: now, updatedAt: now }).where(eq(raffles.id, raffle.id));
  return winners;
}

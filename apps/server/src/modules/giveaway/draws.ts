/**
 * Provably fair draws (docs/features/giveaway.md#entering-and-the-roll,
 * docs/features/giveaway.md#how-a-draw-is-verified). One draw is always open: its seed was drawn
 * from the CSPRNG and its SHA-256 published when it was committed. A roll consumes the open draw —
 * snapshot of the eligible list (hashed), winners derived from seed and snapshot by the shared
 * procedure, seed revealed — and commits the next draw in the same transaction, so no seed is ever
 * used twice or chosen after the list is known.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { DrawEntry } from '@kickback/common/giveaway/draw';
import type { GiveawayParticipant, GiveawayRoll } from '@kickback/common/hubs/giveaway';
import { decimalToNumber } from '@kickback/common/money';
import type { DbOrTx, Tx } from '../../db/client';
import { newSeed } from '../../lib/draw-crypto';
import { giveawayDraws, giveawayWinners, type GiveawayDrawRow } from '../../db/schema/giveaway';
import type { RollSnapshot } from './snapshot';

/** The spinners land this long after the roll (docs/product.md#live-states-and-transitions, docs/product.md#live-constants-and-limits). */
export const SPIN_MS = 3000;

/** Commits a new draw unless one is open (the partial unique index settles a race). */
export async function ensureOpenDraw(db: DbOrTx, now: Date): Promise<void> {
  const [open] = await db.select({ id: giveawayDraws.id }).from(giveawayDraws).where(isNull(giveawayDraws.rolledAt));
  if (open) return;
  await db
    .insert(giveawayDraws)
    .values({ ...newSeed(), committedAt: now })
    .onConflictDoNothing();
}

/** A draw row without its snapshot (which only the verify page's record reads). */
export type DrawSummary = Omit<GiveawayDrawRow, 'snapshot' | 'snapshotGz'>;
const { snapshot: _snapshot, snapshotGz: _snapshotGz, ...summaryColumns } = getTableColumns(giveawayDraws);

export async function openDraw(db: DbOrTx, lock = false): Promise<DrawSummary | null> {
  const query = db.select(summaryColumns).from(giveawayDraws).where(isNull(giveawayDraws.rolledAt));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export interface RolledDraw {
  snapshot: RollSnapshot;
  winnersWanted: number;
  prizePoints: string;
  rolledBy: string;
  roundId: number;
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * Marks the open draw rolled and stores its snapshot: the very text that was hashed, gzip-compressed
 * (level 1: a tenth of the size for a few milliseconds). It travels as base64 text, which both
 * drivers pass far more cheaply than a 3 MB string or a binary parameter. False when another roll
 * consumed the draw first.
 */
export async function consumeDraw(tx: Tx, drawId: string, now: Date, rolled: RolledDraw): Promise<boolean> {
  const compressed = await gzipAsync(rolled.snapshot.bytes, { level: 1 });
  const done = await tx
    .update(giveawayDraws)
    .set({
      rolledAt: now,
      rolledBy: rolled.rolledBy,
      roundId: rolled.roundId,
      snapshotGz: sql`decode(${compressed.toString('base64')}, 'base64')`,
      snapshotHash: rolled.snapshot.hash,
      eligibleCount: rolled.snapshot.entries.length,
      winnersWanted: rolled.winnersWanted,
      prizePoints: rolled.prizePoints,
    })
    .where(and(eq(giveawayDraws.id, drawId), isNull(giveawayDraws.rolledAt)))
    .returning({ id: giveawayDraws.id });
  return done.length === 1;
}

export function rollView(draw: DrawSummary, winners: GiveawayParticipant[]): GiveawayRoll {
  const rolledAt = draw.rolledAt ?? new Date(0);
  return {
    rollId: draw.id,
    rolledAt: rolledAt.toISOString(),
    landsAt: new Date(rolledAt.getTime() + SPIN_MS).toISOString(),
    seedHash: draw.seedHash,
    serverSeed: draw.serverSeed,
    snapshotHash: draw.snapshotHash ?? '',
    eligibleCount: draw.eligibleCount ?? 0,
    winners,
    prizePoints: decimalToNumber(draw.prizePoints ?? '0'),
  };
}

/** The last rolled draw and its winners (as they were at the roll). */
export async function lastRoll(db: DbOrTx): Promise<GiveawayRoll | null> {
  const [draw] = await db
    .select(summaryColumns)
    .from(giveawayDraws)
    .where(sql`${giveawayDraws.rolledAt} IS NOT NULL`)
    .orderBy(desc(giveawayDraws.rolledAt))
    .limit(1);
  if (!draw) return null;
  return rollView(draw, await winnersOf(db, draw.id));
}

export async function winnersOf(db: DbOrTx, drawId: string): Promise<GiveawayParticipant[]> {
  const rows = await db
    .select({ entry: giveawayWinners.entry })
    .from(giveawayWinners)
    .where(eq(giveawayWinners.drawId, drawId))
    .orderBy(giveawayWinners.position);
  return rows.map((r) => r.entry as GiveawayParticipant);
}

/** A rolled or open draw with its snapshot (decompressed, or the jsonb of rolls before 0845). */
export async function findDraw(
  db: DbOrTx,
  drawId: string,
): Promise<(DrawSummary & { snapshot: DrawEntry[] | null }) | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      snapshot: giveawayDraws.snapshot,
      snapshotGz: sql<string | null>`encode(${giveawayDraws.snapshotGz}, 'base64')`,
    })
    .from(giveawayDraws)
    .where(eq(giveawayDraws.id, drawId));
  if (!row) return null;
  const { snapshotGz, snapshot, ...draw } = row;
  const entries = snapshotGz
    ? (JSON.parse((await gunzipAsync(Buffer.from(snapshotGz, 'base64'))).toString('utf8')) as DrawEntry[])
    : (snapshot as DrawEntry[] | null);
  return { ...draw, snapshot: entries };
}

/** The bonus hunt's rows: reads, and the locked read every change starts with. */
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { huntBonuses, huntGuesses, hunts, type HuntBonusRow, type HuntRow } from '../../db/schema/hunt';
import { pendingReferences } from '../fulfilment/service';

export interface HuntRecord {
  hunt: HuntRow;
  bonuses: HuntBonusRow[];
  guessCount: number;
  /** The guess prize waits in Fulfilment for an Admin's approval (staff prize limits). */
  prizeHeld: boolean;
}

export interface GuessRow {
  userId: string;
  kickUsername: string;
  amount: string;
  guessedAt: Date;
}

/** The hunt's row, locked until the transaction ends: every change of a hunt queues here. */
export async function lockHunt(tx: DbOrTx, huntId: string): Promise<HuntRow | null> {
  const [row] = await tx.select().from(hunts).where(eq(hunts.id, huntId)).for('update');
  return row ?? null;
}

/** The running hunt's row, locked (guesses go to whichever hunt is running). */
export async function lockRunningHunt(tx: DbOrTx): Promise<HuntRow | null> {
  const [row] = await tx.select().from(hunts).where(eq(hunts.status, 'running')).for('update');
  return row ?? null;
}

export async function bonusesOf(db: DbOrTx, huntId: string): Promise<HuntBonusRow[]> {
  return db.select().from(huntBonuses).where(eq(huntBonuses.huntId, huntId)).orderBy(asc(huntBonuses.position));
}

/** A hunt's guesses in guessing order: time, then the sequence for the same millisecond. */
export async function guessesOf(db: DbOrTx, huntId: string): Promise<GuessRow[]> {
  return db
    .select({
      userId: huntGuesses.userId,
      kickUsername: huntGuesses.kickUsername,
      amount: huntGuesses.amount,
      guessedAt: huntGuesses.guessedAt,
    })
    .from(huntGuesses)
    .where(eq(huntGuesses.huntId, huntId))
    .orderBy(asc(huntGuesses.guessedAt), asc(huntGuesses.seq));
}

async function guessCounts(db: DbOrTx, huntIds: string[]): Promise<Map<string, number>> {
  if (huntIds.length === 0) return new Map();
  const rows = await db
    .select({ huntId: huntGuesses.huntId, n: sql<number>`count(*)::int` })
    .from(huntGuesses)
    .where(sql`${huntGuesses.huntId} IN (SELECT jsonb_array_elements_text(${JSON.stringify(huntIds)}::jsonb)::uuid)`)
    .groupBy(huntGuesses.huntId);
  return new Map(rows.map((r) => [r.huntId, r.n]));
}

async function recordsOf(db: DbOrTx, rows: HuntRow[]): Promise<HuntRecord[]> {
  const counts = await guessCounts(
    db,
    rows.map((r) => r.id),
  );
  // A held guess prize's Fulfilment reference is the ledger reference the hunt pays under: its id.
  const held = await pendingReferences(
    db,
    'staff_prize',
    rows.filter((r) => r.winnerUserId !== null && r.prizeLedgerId === null).map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (hunt) => ({
      hunt,
      bonuses: await bonusesOf(db, hunt.id),
      guessCount: counts.get(hunt.id) ?? 0,
      prizeHeld: held.has(hunt.id),
    })),
  );
}

export async function huntRecord(db: DbOrTx, huntId: string): Promise<HuntRecord | null> {
  const [row] = await db.select().from(hunts).where(eq(hunts.id, huntId));
  return row ? ((await recordsOf(db, [row]))[0] ?? null) : null;
}

/** The running hunt, else the last finished one. */
export async function currentHuntRecord(db: DbOrTx): Promise<HuntRecord | null> {
  const [row] = await db
    .select()
    .from(hunts)
    .orderBy(sql`${hunts.status} = 'running' DESC`, desc(hunts.createdAt))
    .limit(1);
  return row ? ((await recordsOf(db, [row]))[0] ?? null) : null;
}

export async function finishedHuntRecords(db: DbOrTx, limit: number): Promise<HuntRecord[]> {
  const rows = await db
    .select()
    .from(hunts)
    .where(eq(hunts.status, 'finished'))
    .orderBy(desc(hunts.finishedAt))
    .limit(limit);
  return recordsOf(db, rows);
}

export async function bumpVersion(tx: DbOrTx, huntId: string, set: Partial<typeof hunts.$inferInsert> = {}) {
  await tx
    .update(hunts)
    .set({ ...set, version: sql`${hunts.version} + 1` })
    .where(eq(hunts.id, huntId));
}

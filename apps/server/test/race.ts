/**
 * A race between concurrent game actions, made real: each action, right after reading its game
 * row, waits until every racer has read it too (or a short pause ran out, which is what happens
 * when the row lock holds the others back). It also records whether the row the action read is
 * locked by that action's own transaction — PGlite runs one transaction at a time, so there the
 * lock's mark on the row (its xmax is the locking transaction) is what shows the lock is taken.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../src/db/client';
import { rowsOf } from '../src/db/rows';

export function raceBarrier(racers: number, pauseMs = 150) {
  let gameId = '';
  let table = 'split_or_steal_games';
  let arrived = 0;
  let release: (() => void) | null = null;
  let released = new Promise<void>((resolve) => (release = resolve));
  const unlocked: string[] = [];
  return {
    /** A new round on this game (the table its row lives in). */
    reset(id: string, inTable = 'split_or_steal_games') {
      gameId = id;
      table = inTable;
      arrived = 0;
      unlocked.length = 0;
      released = new Promise<void>((resolve) => (release = resolve));
    },
    async arrive(tx: Tx): Promise<void> {
      const [mark] = rowsOf<{ locked: boolean }>(
        await tx.execute(
          sql`SELECT xmax::text::bigint = txid_current() % 4294967296 AS locked FROM ${sql.identifier(table)} WHERE id = ${gameId}`,
        ),
      );
      if (!mark?.locked) unlocked.push(gameId);
      arrived += 1;
      if (arrived >= racers) release?.();
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, pauseMs))]);
    },
    /** Reads of a row its transaction had not locked (the game id, once per such read). */
    unlockedReads(): string[] {
      return [...unlocked];
    },
  };
}

/**
 * Split or Steal rows ↔ the pure game of packages/common, and the presenter that turns a game into
 * the state clients see (docs/product.md#live-entities). Hidden information (what the balls hold) is in the row
 * and in the pure game, never in a presented state before status 4.
 */
import { canModerate } from '@kickback/common/access';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  answerContextFor,
  SplitOrStealStatus,
  type Answer,
  type Ball,
  type SplitOrStealGame,
} from '@kickback/common/games/split-or-steal';
import type { SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx, Tx } from '../../db/client';
import { splitOrStealGames, type SplitOrStealRow } from '../../db/schema/games';
import { users } from '../../db/schema/users';
import type { Person } from '../../games/live-game';
import { pendingReferences } from '../fulfilment/service';

export async function findGame(db: DbOrTx, id: string): Promise<SplitOrStealRow | null> {
  const [row] = await db.select().from(splitOrStealGames).where(eq(splitOrStealGames.id, id)).limit(1);
  return row ?? null;
}

/** The game row, locked until the transaction ends: every game action runs behind this. */
export async function lockGame(tx: Tx, id: string): Promise<SplitOrStealRow | null> {
  const [row] = await tx.select().from(splitOrStealGames).where(eq(splitOrStealGames.id, id)).for('update').limit(1);
  return row ?? null;
}

const ball = (v: number | null): Ball | null => (v === 1 || v === 2 ? v : null);
const answer = (v: number): Answer => (v === 1 ? 1 : 2);

export function toGame(row: SplitOrStealRow): SplitOrStealGame {
  return {
    status: row.status,
    version: row.version,
    rewardCents: toCents(decimalToNumber(row.reward)),
    counterInSeconds: row.counterSeconds,
    designated: [row.designated1UserId, row.designated2UserId],
    players: [row.player1UserId, row.player2UserId],
    selections: [ball(row.player1Selection), ball(row.player2Selection)],
    answers: [
      [answer(row.player1Answer1), answer(row.player1Answer2)],
      [answer(row.player2Answer1), answer(row.player2Answer2)],
    ],
    winnings: [
      row.player1Winnings === null ? null : toCents(decimalToNumber(row.player1Winnings)),
      row.player2Winnings === null ? null : toCents(decimalToNumber(row.player2Winnings)),
    ],
    phaseEndsAt: row.phaseEndsAt ? row.phaseEndsAt.getTime() : null,
    phaseVersion: row.phaseVersion,
  };
}

/** Writes a changed game back (the row is locked by the caller). */
export async function saveGame(
  tx: Tx,
  { id }: SplitOrStealRow,
  game: SplitOrStealGame,
  now: Date,
): Promise<SplitOrStealRow> {
  const final = game.status === SplitOrStealStatus.Ended || game.status === SplitOrStealStatus.Cancelled;
  const [row] = await tx
    .update(splitOrStealGames)
    .set({
      status: game.status,
      version: game.version,
      player1UserId: game.players[0],
      player2UserId: game.players[1],
      player1Selection: game.selections[0],
      player2Selection: game.selections[1],
      player1Winnings: game.winnings[0] === null ? null : centsToText(game.winnings[0]),
      player2Winnings: game.winnings[1] === null ? null : centsToText(game.winnings[1]),
      phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt),
      phaseVersion: game.phaseVersion,
      endedAt: final ? sql`coalesce(${splitOrStealGames.endedAt}, ${now.toISOString()}::timestamptz)` : null,
    })
    .where(eq(splitOrStealGames.id, id))
    .returning();
  return row!;
}

/** Private games are shown only to their players (seated or designated) and the staff (Moderators, Admins). */
export function canSee(row: SplitOrStealRow, viewer: Person | null): boolean {
  if (!row.isPrivate) return true;
  if (!viewer) return false;
  if (canModerate(viewer.role)) return true; // staff run the game
  return [row.designated1UserId, row.designated2UserId, row.player1UserId, row.player2UserId].includes(viewer.id);
}

/** A seat's prize in the ledger, and in Fulfilment when held (the reference game.ts pays under). */
export const prizeReference = (gameId: string, slot: 1 | 2) => `splitorsteal:${gameId}:${slot}`;

export function roomOf(gameId: string): string {
  return `game:${gameId}`;
}

/** The state every viewer of the game may see (no one's balls before status 4). */
export async function presentState(db: DbOrTx, row: SplitOrStealRow): Promise<Omit<SplitOrStealState, 'serverTime'>> {
  const game = toGame(row);
  const ids = [row.player1UserId, row.player2UserId, row.designated1UserId, row.designated2UserId].filter(
    (id): id is string => id !== null,
  );
  const people = ids.length
    ? await db
        .select({ id: users.id, username: users.username, avatarUrl: users.avatarUrl })
        .from(users)
        .where(inArray(users.id, [...new Set(ids)]))
    : [];
  const person = (id: string | null) => (id ? people.find((p) => p.id === id) : undefined);
  const ended = game.status === SplitOrStealStatus.Ended;
  // A prize held for an Admin's approval: its Fulfilment reference is the ledger reference (game.ts).
  const held = ended
    ? await pendingReferences(
        db,
        'staff_prize',
        [1, 2].map((slot) => prizeReference(row.id, slot as 1 | 2)),
      )
    : new Set<string>();
  const player = (slot: 1 | 2) => {
    const p = person(game.players[slot - 1]!);
    if (!p) return null;
    const won = game.winnings[slot - 1];
    return {
      userId: p.id,
      username: p.username,
      avatarUrl: p.avatarUrl,
      selection: game.selections[slot - 1] ?? null,
      winnings: ended && won !== null && won !== undefined ? decimalToNumber(centsToText(won)) : null,
      isWinner: ended && won !== null && won !== undefined && won > 0n,
      prizeHeld: held.has(prizeReference(row.id, slot)),
    };
  };
  const reserved = (slot: 1 | 2) => {
    const p = person(game.designated[slot - 1]!);
    return p ? { userId: p.id, username: p.username, avatarUrl: p.avatarUrl } : null;
  };
  return {
    id: row.id,
    version: row.version,
    status: game.status,
    counterInSeconds: row.counterSeconds,
    reward: decimalToNumber(row.reward),
    isPrivate: row.isPrivate,
    player1: player(1),
    player2: player(2),
    reservedPlayer1: reserved(1),
    reservedPlayer2: reserved(2),
    answerContext: answerContextFor(game, null),
    phaseEndsAt: row.phaseEndsAt ? row.phaseEndsAt.toISOString() : null,
  };
}

/**
 * The engine's generic game storage: a game without a table of its own keeps its whole state as
 * versioned JSON in `live_games`, beside the fields the engine reads (kind, version, the phase
 * deadline, the owner). A game gives a codec between its pure state and JSON (bigint amounts as
 * text, so money stays exact).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { LiveGameState } from '@kickback/common/games/engine';
import type { DbOrTx, Tx } from '../db/client';
import { liveGames, type LiveGameRow } from '../db/schema/games';
import { users } from '../db/schema/users';
import type { GameStore } from './runner';

export interface StateCodec<G> {
  encode(game: G): Record<string, unknown>;
  decode(json: unknown): G;
}

export function jsonGameStore<G extends LiveGameState>(
  kind: string,
  codec: StateCodec<G>,
): GameStore<G, LiveGameRow> & {
  /** `createdBy`: who created it, when that is not its owner (Deal or No Deal's creator). */
  create(tx: DbOrTx, game: G, ownerUserId: string | null, now: Date, createdBy?: string | null): Promise<LiveGameRow>;
  recent(db: DbOrTx, limit: number): Promise<Array<{ row: LiveGameRow; ownerName: string | null }>>;
} {
  const byId = (id: string) => and(eq(liveGames.id, id), eq(liveGames.kind, kind));
  return {
    async lock(tx: Tx, id: string) {
      const [row] = await tx.select().from(liveGames).where(byId(id)).for('update').limit(1);
      return row ?? null;
    },
    async find(db: DbOrTx, id: string) {
      const [row] = await db.select().from(liveGames).where(byId(id)).limit(1);
      return row ?? null;
    },
    toGame: (row) => codec.decode(row.state),
    async save(tx, row, game, now) {
      const [saved] = await tx
        .update(liveGames)
        .set({
          state: codec.encode(game),
          version: game.version,
          phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt),
          updatedAt: now,
        })
        .where(eq(liveGames.id, row.id))
        .returning();
      return saved!;
    },
    async create(db, game, ownerUserId, now, createdBy = null) {
      const [row] = await db
        .insert(liveGames)
        .values({
          kind,
          version: game.version,
          state: codec.encode(game),
          ownerUserId,
          createdBy,
          phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    },
    /** The newest games of the kind first (the admin page's list), with their owner's name. */
    async recent(db, limit) {
      return db
        .select({ row: liveGames, ownerName: users.username })
        .from(liveGames)
        .leftJoin(users, eq(users.id, liveGames.ownerUserId))
        .where(eq(liveGames.kind, kind))
        .orderBy(desc(liveGames.createdAt), desc(liveGames.seq))
        .limit(limit);
    },
  };
}

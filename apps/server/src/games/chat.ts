/**
 * The one pipeline every game chat goes through
 * (docs/conventions.md#rule-9-chat-through-one-pipeline, docs/architecture.md#the-game-engine):
 * trim, 1–300 characters, a per-user flood limit (shared across processes with Redis), stored per
 * room with the last 100 kept. Messages are plain text end to end; the web renders them as text.
 */
import { and, desc, eq, lte } from 'drizzle-orm';
import { GAME_CHAT_HISTORY, GAME_CHAT_MAX_LENGTH, type GameChatMessage } from '@kickback/common/hubs/game-chat';
import type { Db, DbOrTx } from '../db/client';
import { gameChatMessages } from '../db/schema/games';
import { users, type UserRow } from '../db/schema/users';
import { badRequest, tooManyRequests } from '../lib/errors';
import type { Limiter } from '../lib/limiter';

/** At most this many messages per user in this window, over all game rooms. */
export const GAME_CHAT_FLOOD = { limit: 5, windowMs: 10_000 } as const;

export class GameChat {
  constructor(
    private readonly db: Db,
    private readonly limiter: Limiter,
    private readonly now: () => Date,
  ) {}

  /** Validates, rate-limits and stores a message; returns it for the broadcast. */
  async post(room: string, user: UserRow, text: string): Promise<GameChatMessage> {
    const message = text.trim();
    if (!message) throw badRequest('Write a message first.');
    if ([...message].length > GAME_CHAT_MAX_LENGTH) {
      throw badRequest(`Messages are at most ${GAME_CHAT_MAX_LENGTH} characters.`);
    }
    if (!(await this.limiter.hit(`game-chat:${user.id}`, GAME_CHAT_FLOOD.limit, GAME_CHAT_FLOOD.windowMs))) {
      throw tooManyRequests('You are sending messages too fast.');
    }
    const sentAt = this.now();
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(gameChatMessages)
        .values({ room, userId: user.id, message, createdAt: sentAt })
        .returning({ id: gameChatMessages.id });
      await prune(tx, room);
      return inserted!;
    });
    return {
      id: String(row.id),
      userId: user.id,
      username: user.username,
      avatarUrl: user.avatarUrl,
      message,
      sentAt: sentAt.toISOString(),
    };
  }

  /** The last 100 messages of a room, newest first (the order the panel shows). */
  async recent(room: string): Promise<GameChatMessage[]> {
    const rows = await this.db
      .select({
        id: gameChatMessages.id,
        userId: gameChatMessages.userId,
        username: users.username,
        avatarUrl: users.avatarUrl,
        message: gameChatMessages.message,
        createdAt: gameChatMessages.createdAt,
      })
      .from(gameChatMessages)
      .innerJoin(users, eq(users.id, gameChatMessages.userId))
      .where(eq(gameChatMessages.room, room))
      .orderBy(desc(gameChatMessages.id))
      .limit(GAME_CHAT_HISTORY);
    return rows.map((r) => ({
      id: String(r.id),
      userId: r.userId,
      username: r.username,
      avatarUrl: r.avatarUrl,
      message: r.message,
      sentAt: r.createdAt.toISOString(),
    }));
  }
}

/** Keeps the newest GAME_CHAT_HISTORY messages of a room. */
async function prune(tx: DbOrTx, room: string): Promise<void> {
  const cutoff = await tx
    .select({ id: gameChatMessages.id })
    .from(gameChatMessages)
    .where(eq(gameChatMessages.room, room))
    .orderBy(desc(gameChatMessages.id))
    .offset(GAME_CHAT_HISTORY)
    .limit(1);
  const oldestToDrop = cutoff[0]?.id;
  if (oldestToDrop === undefined) return;
  await tx.delete(gameChatMessages).where(and(eq(gameChatMessages.room, room), lte(gameChatMessages.id, oldestToDrop)));
}

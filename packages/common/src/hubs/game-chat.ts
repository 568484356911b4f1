/**
 * Game chat (docs/architecture.md#the-game-engine,
 * docs/conventions.md#rule-9-chat-through-one-pipeline): the message every game hub sends and the
 * limits the one chat pipeline applies. Messages are plain text; the web renders them as text,
 * never HTML.
 */
import { z } from 'zod';

export const GAME_CHAT_MAX_LENGTH = 300;
/** How many messages a game keeps and `GetChatMessages` answers. */
export const GAME_CHAT_HISTORY = 100;

/** What `SendChatMessage` accepts: the text as typed (the server trims and checks the length). */
export const gameChatText = z.string().max(GAME_CHAT_MAX_LENGTH * 4);

/** Chat message of docs/product.md#live-entities (userId, username, message) with its id, avatar and time. */
export const gameChatMessage = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  message: z.string(),
  sentAt: z.string(),
});
export type GameChatMessage = z.infer<typeof gameChatMessage>;

/**
 * The shape every chat source (Kick webhooks, the Kick chat websocket, the chat simulator) turns a
 * message into. It lives with the sources that produce it; the chat pipeline (modules/chat) takes it.
 */
import { storableText } from '../../lib/text-guard';

export interface ChatMessage {
  /** The source's message id; a message is processed once per id. */
  messageId: string;
  kickUserId: string;
  kickUsername: string;
  /** Badge colour of the sender's name, when the source gives one. */
  color: string | null;
  isSubscriber: boolean;
  badges: string[];
  content: string;
  sentAt: Date;
}

/**
 * Kick delivers what people typed, control characters included; PostgreSQL text cannot hold NUL,
 * and a lone UTF-16 surrogate (a JSON "\uD800" escape) fails the jsonb the chat writer sends, and
 * with it every message of its batch. The message is kept cleaned, NULs removed and lone
 * surrogates replaced with U+FFFD (refusing it would lose it: Kick's retry would be a duplicate of
 * a delivery that was never stored).
 */
export function cleanChatMessage(message: ChatMessage): ChatMessage {
  return {
    ...message,
    messageId: storableText(message.messageId),
    kickUserId: storableText(message.kickUserId),
    kickUsername: storableText(message.kickUsername),
    color: message.color === null ? null : storableText(message.color),
    badges: message.badges.map(storableText),
    content: storableText(message.content),
  };
}

/**
 * The shape every chat source (Kick webhooks, the Kick chat websocket, the chat simulator) turns a
 * message into. It lives with the sources that produce it; the chat pipeline (modules/chat) takes it.
 */
import { withoutNul } from '../../lib/text-guard';

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
 * Kick delivers what people typed, control characters included; PostgreSQL text cannot hold NUL.
 * The message is kept with them removed (refusing it would lose it: Kick's retry would be a
 * duplicate of a delivery that was never stored).
 */
export function cleanChatMessage(message: ChatMessage): ChatMessage {
  return {
    ...message,
    messageId: withoutNul(message.messageId),
    kickUserId: withoutNul(message.kickUserId),
    kickUsername: withoutNul(message.kickUsername),
    color: message.color === null ? null : withoutNul(message.color),
    badges: message.badges.map(withoutNul),
    content: withoutNul(message.content),
  };
}

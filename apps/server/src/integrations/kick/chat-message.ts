/**
 * The shape every chat source (Kick webhooks, the Kick chat websocket, the chat simulator) turns a
 * message into. It lives with the sources that produce it; the chat pipeline (modules/chat) takes it.
 */
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

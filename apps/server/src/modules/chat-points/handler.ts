import type { ChatHandler } from '../chat/service';

/**
 * Marks a linked, non-excluded chatter not banned on Kick active this minute while the stream is
 * live (docs/features/kick-chat.md#chat-points); never consumes the message. A deployment that never
 * heard Kick's live state (no webhooks: the chat websocket or the simulator alone) is not held back
 * by it.
 */
export const chatPointsHandler: ChatHandler = {
  name: 'chat-points',
  // An observer: after every command, so only a message no command took earns points.
  order: 900,
  async handle(message, { app, linkedUser }) {
    if (!linkedUser || linkedUser.excluded || !app.chatPoints.enabled) return false;
    if ((await app.chat.isLive()) === false) return false;
    // Banned (or timed out) on Kick: no points while it lasts.
    if (await app.kickBans.banOf(message.kickUserId)) return false;
    app.chatPoints.note(linkedUser.id, app.clock.now());
    return false;
  },
  // Notes activity in memory (paid by a timer, once per minute and user): nothing to keep per message.
  mayAct: () => false,
};

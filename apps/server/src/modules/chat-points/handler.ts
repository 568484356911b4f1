import type { ChatHandler } from '../chat/service';

/** Marks a linked, non-excluded chatter active this minute; never consumes the message. */
export const chatPointsHandler: ChatHandler = {
  name: 'chat-points',
  // An observer: after every command, so only a message no command took earns points.
  order: 900,
  async handle(_message, { app, linkedUser }) {
    if (linkedUser && !linkedUser.excluded) app.chatPoints.note(linkedUser.id, app.clock.now());
    return false;
  },
};

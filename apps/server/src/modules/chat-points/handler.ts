import type { ChatHandler } from '../chat/types';

/** Marks a linked, non-excluded chatter active this minute; never consumes the message. */
export const chatPointsHandler: ChatHandler = {
  name: 'chat-points',
  async handle(_message, { app, linkedUser }) {
    if (linkedUser && !linkedUser.excluded) app.chatPoints.note(linkedUser.id, app.clock.now());
    return false;
  },
};

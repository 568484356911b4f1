import type { ChatHandler } from '../chat/service';

/**
 * Records a linked, non-excluded chatter not banned on Kick as attending the stream that was live
 * when the message was sent (docs/features/stream-streaks.md#what-counts); never consumes the
 * message. Nothing sent while the stream was not live counts.
 */
export const streakHandler: ChatHandler = {
  name: 'stream-streaks',
  // An observer beside chat points: after every command.
  order: 910,
  async handle(message, { app, linkedUser }) {
    if (!linkedUser || linkedUser.excluded) return false;
    if (await app.kickBans.banOf(message.kickUserId)) return false;
    await app.streaks.attend(linkedUser.id, message.sentAt);
    return false;
  },
  // Attendance is kept by its (user, session) key: a message lost with its process is made up by the next one.
  mayAct: () => false,
};

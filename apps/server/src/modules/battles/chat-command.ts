/**
 * `!enter` in the streamer's chat (docs/features/bonus-buy-battles.md#entering): a linked chatter
 * enters the battle taking entries, by the same rules as the site's button. Every refusal answers
 * the chatter with its reason; an entry is acknowledged in the bot's merged reply.
 */
import type { ChatHandler } from '../chat/service';
import { AppError } from '../../lib/errors';
import { siteNameNow } from '../site/service';
import type { BattleService } from './service';

const isEnter = (content: string) => /^!enter\s*$/i.test(content.trim());

export function enterHandler(battles: BattleService): ChatHandler {
  return {
    name: 'battle-enter',
    // A command after !guess (310) and the slot calls (320), before the observers (chat points 900).
    order: 330,
    async handle(message, { app, linkedUser }) {
      if (!isEnter(message.content)) return false;
      if (!linkedUser) {
        await app.chat.reply(
          message,
          `link your Kick account on ${await siteNameNow(app)} first (type !verify with the code from your profile).`,
        );
        return true;
      }
      const battleId = await battles.openForEntries();
      if (!battleId) {
        await app.chat.reply(message, 'no battle is taking entries right now.');
        return true;
      }
      try {
        const state = await battles.enter({ id: linkedUser.id, username: linkedUser.username, role: 'User' }, battleId);
        await app.chat.reply(message, `you are in "${state.title}".`, { topic: 'In the battle', item: state.title });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await app.chat.reply(message, err.message.charAt(0).toLowerCase() + err.message.slice(1));
      }
      return true;
    },
    mayAct: (message) => isEnter(message.content),
  };
}

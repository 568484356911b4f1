/**
 * `!enter` in the streamer's chat (docs/features/bonus-buy-battles.md#entering): a linked chatter
 * enters the battle taking entries, by the same rules as the site's button. Every refusal answers
 * the chatter with its reason; an entry is acknowledged in the bot's merged reply.
 */
import type { ChatHandler } from '../chat/service';
import { AppError, errorText } from '../../lib/errors';
import { t } from '../../lib/i18n';
import { chatLocale } from '../languages/service';
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
      // In the chat's language (docs/features/languages.md#the-chat-bot).
      const locale = chatLocale(app);
      if (!linkedUser) {
        await app.chat.reply(message, t(locale, 'bot:linkKickFirst', { site: await siteNameNow(app) }));
        return true;
      }
      const battleId = await battles.openForEntries();
      if (!battleId) {
        await app.chat.reply(message, t(locale, 'bot:enterNoBattle'));
        return true;
      }
      try {
        const state = await battles.enter({ id: linkedUser.id, username: linkedUser.username, role: 'User' }, battleId);
        await app.chat.reply(message, t(locale, 'bot:enterIn', { title: state.title }), {
          topic: t(locale, 'bot:enterTopic'),
          item: state.title,
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const text = errorText(err, locale);
        await app.chat.reply(message, text.charAt(0).toLowerCase() + text.slice(1));
      }
      return true;
    },
    mayAct: (message) => isEnter(message.content),
  };
}

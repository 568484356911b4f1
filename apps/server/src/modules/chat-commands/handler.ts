/**
 * The custom commands' chat handler (docs/features/custom-commands.md#in-chat). It runs after
 * moderation (whose handlers take orders below 60) and before every built-in command: a custom
 * command is answered here; an alias of a built-in is handed on in the built-in's own words;
 * `!points` and `!links` are answered here.
 */
import type { FastifyInstance } from 'fastify';
import { mayUse, senderLevel, type CommandPermission } from '@kickback/common/http/chat-commands';
import type { ChatHandler } from '../chat/service';
import { chatLocale, localizedCommand } from '../languages/service';
import { builtinParts, UseRefused } from './service';

/** Moderation filters run below this order; the built-in commands start at 100 (`!verify`). */
export const COMMANDS_ORDER = 60;

const WORD = /^!(\S+)/;

export function commandsHandler(app: FastifyInstance): ChatHandler {
  return {
    name: 'custom-command',
    order: COMMANDS_ORDER,
    // A "!word" of the command table as last read is recorded with a lease; any "!word" while the
    // table is not read yet (or was just changed here). Plain chat, "!betting" included, is not:
    // it keeps the one-statement path (docs/features/kick-chat.md). The table is read again every
    // few seconds, so a command saved in another process is known here within that time.
    mayAct: (message) => {
      const m = WORD.exec(message.content.trimStart());
      if (!m) return false;
      const table = app.chatCommands.cachedTable();
      const word = m[1]!.toLowerCase();
      return table === null || table.has(word) || localizedCommand(app, word) !== null;
    },
    async handle(message, { app, linkedUser, once }) {
      const m = WORD.exec(message.content.trim());
      if (!m) return false;
      const word = m[1]!.toLowerCase();
      const table = app.chatCommands.freshTable() ?? (await app.chatCommands.table());
      // A built-in's name in another language (`!apostar`), while the admin has them on: the
      // site's own words come first (docs/features/languages.md#the-chat-bot).
      const localized = table.has(word) ? null : localizedCommand(app, word);
      const entry = table.get(localized ?? word);
      if (!entry) return false;
      const commands = app.chatCommands;
      if (entry.kind === 'builtin') {
        if (!entry.parts) {
          if (word === entry.name) return false;
          return { ...message, content: message.content.trim().replace(WORD, `!${entry.name}`) };
        }
        // Answered in the chat's language (docs/features/languages.md#the-chat-bot).
        const parts = builtinParts(chatLocale(app), entry.name) ?? entry.parts;
        const text = await commands.render(parts, message, linkedUser, { uses: 0, balance: null });
        await app.chat.reply(message, text);
        return true;
      }
      const { command, parts } = entry;
      // Not for this sender, or not now: ignored without a word, as chat bots do.
      if (!mayUse(command.permission as CommandPermission, senderLevel(message.badges, message.isSubscriber))) {
        return true;
      }
      if (command.liveOnly && (await app.chat.isLive()) === false) return true;
      let result;
      try {
        result = await commands.use(command, message, linkedUser, (tx) => once(tx, 'custom-command'));
      } catch (err) {
        if (!(err instanceof UseRefused)) throw err;
        app.log.info({ messageId: message.messageId, command: command.name, why: err.why }, 'custom command refused');
        if (err.reply) await app.chat.reply(message, err.reply);
        return true;
      }
      const text = await commands.render(parts, message, linkedUser, result);
      await app.chat.reply(message, text);
      return true;
    },
  };
}

/**
 * The slot calls' chat commands (docs/features/slot-calls.md#chat): `!sr <slot>` and `!call <slot>`
 * from any viewer, `!calls open` / `!calls close` from the broadcaster or a Kick moderator (their
 * badge on the message). Accepted calls are acknowledged together ("Calls taken: @a Gates of
 * Olympus · @b …"); every refusal answers its sender with the reason.
 */
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/i18n';
import { chatLocale } from '../languages/service';
import type { ChatHandler } from '../chat/service';
import type { Actor } from '../audit/service';
import type { SlotCallService } from './service';

export type SlotCommand = { kind: 'call'; name: string } | { kind: 'queue'; open: boolean } | { kind: 'queue-usage' };

export function parseSlotCommand(content: string): SlotCommand | null {
  const call = /^!(?:sr|call)(?:\s+([\s\S]*))?$/i.exec(content.trim());
  if (call) return { kind: 'call', name: call[1] ?? '' };
  const queue = /^!calls(?:\s+(\S+))?\s*$/i.exec(content.trim());
  if (!queue) return null;
  const word = queue[1]?.toLowerCase();
  return word === 'open' || word === 'close' ? { kind: 'queue', open: word === 'open' } : { kind: 'queue-usage' };
}

/** The broadcaster or a moderator of the channel, from the badges Kick puts on the message. */
export const runsTheChannel = (message: ChatMessage) =>
  message.badges.some((b) => b === 'broadcaster' || b === 'moderator');

export function slotCallsHandler(): ChatHandler {
  return {
    name: 'slot-call',
    // A command after !bet (300) and !guess (310), before the observers (chat points 900).
    order: 320,
    async handle(message, { app, linkedUser, once }) {
      const command = parseSlotCommand(message.content);
      if (!command) return false;
      const service: SlotCallService = app.slotCalls;
      // In the chat's language (docs/features/languages.md#the-chat-bot).
      const locale = chatLocale(app);
      if (command.kind !== 'call') {
        if (!runsTheChannel(message)) {
          await app.chat.reply(message, t(locale, 'bot:callsStaffOnly'));
          return true;
        }
        if (command.kind === 'queue-usage') {
          await app.chat.reply(message, t(locale, 'bot:callsUsage'));
          return true;
        }
        const actor: Actor = { userId: linkedUser?.id ?? null, label: `kick:${message.kickUsername}` };
        try {
          await service.setOpen(actor, command.open);
          await app.chat.reply(message, t(locale, command.open ? 'bot:callsOpened' : 'bot:callsClosed'));
        } catch (err) {
          if (!(err instanceof AppError && err.statusCode === 409)) throw err;
          await app.chat.reply(message, t(locale, command.open ? 'bot:callsAlreadyOpen' : 'bot:callsAlreadyClosed'));
        }
        return true;
      }
      const outcome = await service.call(
        {
          messageId: message.messageId,
          kickUserId: message.kickUserId,
          kickUsername: message.kickUsername,
          isSubscriber: message.isSubscriber,
          linkedUser,
          typed: command.name,
        },
        (tx) => once(tx, 'slot-call'),
      );
      app.log.info({ messageId: message.messageId, kickUser: message.kickUsername, ok: outcome.ok }, 'slot call');
      if (outcome.ok) {
        const { slot, flagged } = outcome.call;
        await app.chat.reply(message, t(locale, flagged ? 'bot:callTakenUnlisted' : 'bot:callTaken', { slot }), {
          topic: t(locale, 'bot:callsTaken'),
          item: slot,
        });
      } else if ('reason' in outcome) {
        await app.chat.reply(message, outcome.reason);
      }
      return true;
    },
    mayAct: (message) => parseSlotCommand(message.content) !== null,
  };
}

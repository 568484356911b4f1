/**
 * `!guess <amount>` in the streamer's chat (docs/features/bonus-hunt.md): a linked chatter's guess of the hunt's
 * final total while guessing is open. Registered into the chat pipeline's command registry; the
 * guess and the message's handled mark commit together (`ctx.once`), so a redelivered message
 * never counts twice nor moves a guess's time.
 */
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { ChatHandler } from '../chat/service';
import type { Locale } from '@kickback/common/i18n/locales';
import { t } from '../../lib/i18n';
import type { BanView } from '../kick-bans/service';
import { chatLocale } from '../languages/service';
import { siteNameNow } from '../site/service';
import type { GuessOutcome } from './service';

/** `!guess 1,234.50` → hundredths; 'malformed' for anything else after `!guess`; null when not a guess. */
export function parseGuess(content: string): bigint | 'malformed' | null {
  const m = /^!guess(?:\s+(.*))?$/i.exec(content.trim());
  if (!m) return null;
  const amount = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.(\d{1,2}))?$/.exec((m[1] ?? '').trim());
  if (!amount) return 'malformed';
  return toCents(`${amount[1]!.replace(/,/g, '')}${amount[2] ? `.${amount[2]}` : ''}`);
}

/** What the guesser is told, without the @name, in the chat's language (docs/features/languages.md#the-chat-bot). */
export function guessAnswer(
  outcome:
    GuessOutcome | { ok: false; reason: 'malformed' | 'unlinked' } | { ok: false; reason: 'banned'; ban: BanView },
  siteName: string,
  locale: Locale = 'en',
) {
  if (outcome.ok) {
    const amount = formatAmount(centsToText(outcome.amountCents));
    return t(locale, outcome.replaced ? 'bot:guessChanged' : 'bot:guessTaken', { amount });
  }
  switch (outcome.reason) {
    case 'malformed':
      return t(locale, 'bot:guessHint');
    case 'banned':
      return outcome.ban.expiresAt
        ? t(locale, 'bot:guessTimedOut', { until: outcome.ban.expiresAt.toISOString().slice(11, 16) })
        : t(locale, 'bot:guessBanned');
    case 'unlinked':
      return t(locale, 'bot:linkKickFirst', { site: siteName });
    case 'no_hunt':
      return t(locale, 'bot:guessNoHunt');
    case 'closed':
      return t(locale, 'bot:guessClosed');
    case 'repeated':
      return null;
  }
}

export function guessHandler(): ChatHandler {
  return {
    name: 'guess',
    // A command after !bet (300), before the observers (chat points 900).
    order: 310,
    async handle(message, { app, linkedUser, once }) {
      const parsed = parseGuess(message.content);
      if (parsed === null) return false;
      const ban = linkedUser ? await app.kickBans.banOf(message.kickUserId) : null;
      const outcome: Parameters<typeof guessAnswer>[0] = !linkedUser
        ? { ok: false, reason: 'unlinked' }
        : ban
          ? { ok: false, reason: 'banned', ban }
          : parsed === 'malformed'
            ? { ok: false, reason: 'malformed' }
            : await app.hunt.guess(linkedUser, parsed, (tx) => once(tx, 'guess'));
      app.log.info({ messageId: message.messageId, kickUser: message.kickUsername, ok: outcome.ok }, 'kick hunt guess');
      // Only the unlinked answer names the site: its name is read then (a renamed site is named right).
      const locale = chatLocale(app);
      const answer = guessAnswer(outcome, linkedUser ? '' : await siteNameNow(app), locale);
      if (answer !== null) {
        const ack = outcome.ok
          ? { topic: t(locale, 'bot:guessesTaken'), item: formatAmount(centsToText(outcome.amountCents)) }
          : undefined;
        await app.chat.reply(message, answer, ack);
      }
      return true;
    },
    mayAct: (message) => parseGuess(message.content) !== null,
  };
}

/**
 * `!bet {option} {points}` in the streamer's chat (docs/product.md#live-validation): from a Kick user linked to a
 * site user, a bet on the current prediction; every other case is refused and changes nothing.
 * The bettor is answered in chat (accepted with the stake, or why not) through a replier, which
 * is the chat module's reply (Kick's chat API with a bot, else the log) unless told otherwise.
 */
import { abbreviatePoints, parseBet } from '@kickback/common/games/prediction';
import type { Locale } from '@kickback/common/i18n/locales';
import { centsToNumber, decimalToNumber } from '@kickback/common/money';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatHandler } from '../chat/service';
import { t, type TextVars } from '../../lib/i18n';
import type { BanView } from '../kick-bans/service';
import { chatLocale } from '../languages/service';
import { siteNameNow } from '../site/service';
import type { BetOutcome } from './bets';

/** Answers a chat message's sender; swappable so the bot's transport can change without touching bets. */
export type ChatReplier = (
  message: ChatMessage,
  answer: string,
  ack?: { topic: string; item: string },
) => Promise<void>;

/** An accepted bet as it folds into the queue's merged "Bets taken: @a 500 on 1 · …". */
function betAck(outcome: Parameters<typeof betAnswer>[0], locale: Locale) {
  if (!outcome.ok) return undefined;
  return {
    topic: t(locale, 'bot:betsTaken'),
    item: t(locale, 'bot:betsTakenItem', { stake: pts(outcome.stakeCents), option: outcome.answerId }),
  };
}

const pts = (cents: bigint) => abbreviatePoints(centsToNumber(cents));

/** What the bettor is told, without the @name, in the chat's language (docs/features/languages.md#the-chat-bot). */
export function betAnswer(
  outcome: BetOutcome | { ok: false; reason: 'malformed' | 'unlinked' } | { ok: false; reason: 'banned'; ban: BanView },
  siteName: string,
  locale: Locale = 'en',
): string | null {
  const say = (key: string, vars?: TextVars) => t(locale, key, vars);
  if (outcome.ok) {
    const balance = abbreviatePoints(decimalToNumber(outcome.balance));
    return say('bot:betTaken', { stake: pts(outcome.stakeCents), option: outcome.answerId, balance });
  }
  const d = 'detail' in outcome ? outcome.detail : undefined;
  switch (outcome.reason) {
    case 'malformed':
      return say('bot:betHint');
    case 'banned':
      return outcome.ban.expiresAt
        ? say('bot:betTimedOut', { until: outcome.ban.expiresAt.toISOString().slice(11, 16) })
        : say('bot:betBanned');
    case 'unlinked':
      return say('bot:linkKickFirst', { site: siteName });
    case 'excluded':
      return say('bot:betExcluded');
    case 'not_active':
      return say('bot:betNotActive');
    case 'unknown_answer':
      return say('bot:betUnknownOption');
    case 'other_answer':
      return d?.answerId ? say('bot:betOtherOption', { option: d.answerId }) : say('bot:betOtherOptionUnnamed');
    case 'not_positive':
      return say('bot:betNotPositive');
    case 'below_min':
      return say('bot:betBelowMin', { limit: pts(d?.limitCents ?? 0n) });
    case 'above_max':
      return say('bot:betAboveMax', { limit: pts(d?.limitCents ?? 0n) });
    case 'balance':
      return say('bot:betBalance', { balance: abbreviatePoints(decimalToNumber(d?.balance ?? '0')) });
    case 'runs_it':
      return say('bot:runnerCannotBet');
    case 'repeated':
      return null; // a redelivered message whose bet was taken: answered the first time
  }
}

export function betHandler(replier?: ChatReplier): ChatHandler {
  return {
    name: 'bet',
    // A command beside !verify (100), before the observers (chat points 900): a bet earns nothing.
    order: 300,
    async handle(message, { app, linkedUser, once }) {
      const parsed = parseBet(message.content);
      if (parsed === null) return false;
      const reply: ChatReplier = replier ?? ((m, answer, ack) => app.chat.reply(m, answer, ack));
      const locale = chatLocale(app);
      let outcome: Parameters<typeof betAnswer>[0];
      const ban = linkedUser ? await app.kickBans.banOf(message.kickUserId) : null;
      // Only the unlinked answer names the site: its name is read then (a renamed site is named right).
      const siteName = linkedUser ? '' : await siteNameNow(app);
      if (!linkedUser) outcome = { ok: false, reason: 'unlinked' };
      else if (ban) outcome = { ok: false, reason: 'banned', ban };
      else if (!parsed.ok)
        outcome = { ok: false, reason: parsed.error === 'not_positive' ? 'not_positive' : 'malformed' };
      else {
        const ordered = await app.predictions.betInOrder(
          linkedUser,
          { option: parsed.option, cents: parsed.cents },
          message,
          (tx) => once(tx, 'bet'),
        );
        // The sender's earlier bets that were taken first, here: their bettor is answered here too.
        for (const e of ordered.earlier) {
          const answer = betAnswer(e.outcome, siteName, locale);
          const earlier = { ...message, messageId: e.messageId, kickUsername: e.kickUsername, content: e.content };
          if (answer !== null) await reply(earlier, answer, betAck(e.outcome, locale));
        }
        outcome = ordered.outcome;
      }
      app.log.info(
        {
          messageId: message.messageId,
          kickUser: message.kickUsername,
          ok: outcome.ok,
          ...(outcome.ok ? {} : { reason: outcome.reason }),
        },
        'kick bet',
      );
      const answer = betAnswer(outcome, siteName, locale);
      if (answer !== null) await reply(message, answer, betAck(outcome, locale));
      return true;
    },
    mayAct: (message) => parseBet(message.content) !== null,
  };
}

/**
 * `!bet {option} {points}` in the streamer's chat (docs/product.md#live-validation): from a Kick user linked to a
 * site user, a bet on the current prediction; every other case is refused and changes nothing.
 * The bettor is answered in chat (accepted with the stake, or why not) through a replier, which
 * is the chat module's reply (Kick's chat API with a bot, else the log) unless told otherwise.
 */
import { abbreviatePoints, parseBet } from '@kickback/common/games/prediction';
import { predictionStaffMessages } from '@kickback/common/http/prediction';
import { centsToNumber, decimalToNumber } from '@kickback/common/money';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatHandler } from '../chat/service';
import { banReason, type BanView } from '../kick-bans/service';
import { siteNameNow } from '../site/service';
import type { BetOutcome } from './bets';

/** Answers a chat message's sender; swappable so the bot's transport can change without touching bets. */
export type ChatReplier = (
  message: ChatMessage,
  answer: string,
  ack?: { topic: string; item: string },
) => Promise<void>;

/** An accepted bet as it folds into the queue's merged "Bets taken: @a 500 on 1 · …". */
function betAck(outcome: Parameters<typeof betAnswer>[0]) {
  return outcome.ok ? { topic: 'Bets taken', item: `${pts(outcome.stakeCents)} on ${outcome.answerId}` } : undefined;
}

const HINT = 'use !bet [OPTION] [POINTS], for example !bet 1 500';

const pts = (cents: bigint) => abbreviatePoints(centsToNumber(cents));

/** What the bettor is told, without the @name. */
export function betAnswer(
  outcome: BetOutcome | { ok: false; reason: 'malformed' | 'unlinked' } | { ok: false; reason: 'banned'; ban: BanView },
  siteName: string,
): string | null {
  if (outcome.ok) {
    const balance = abbreviatePoints(decimalToNumber(outcome.balance));
    return `bet taken: ${pts(outcome.stakeCents)} points on option ${outcome.answerId}. Balance: ${balance}.`;
  }
  const d = 'detail' in outcome ? outcome.detail : undefined;
  switch (outcome.reason) {
    case 'malformed':
      return `${HINT}.`;
    case 'banned':
      return `${banReason(outcome.ban)}: no bets until it ends.`;
    case 'unlinked':
      return `link your Kick account on ${siteName} first (type !verify with the code from your profile).`;
    case 'excluded':
      return 'this account cannot take part in predictions.';
    case 'not_active':
      return 'no prediction is taking bets right now.';
    case 'unknown_answer':
      return `there is no such option; ${HINT}.`;
    case 'other_answer':
      return d?.answerId
        ? `you already bet on option ${d.answerId}: one answer per prediction.`
        : 'you already bet on another option: one answer per prediction.';
    case 'not_positive':
      return 'bet a positive number of points.';
    case 'below_min':
      return `the minimum bet is ${pts(d?.limitCents ?? 0n)} points.`;
    case 'above_max':
      return `the maximum stake is ${pts(d?.limitCents ?? 0n)} points per prediction.`;
    case 'balance':
      return `not enough points (balance: ${abbreviatePoints(decimalToNumber(d?.balance ?? '0'))}).`;
    case 'runs_it':
      return predictionStaffMessages.runnerCannotBet;
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
          const answer = betAnswer(e.outcome, siteName);
          const earlier = { ...message, messageId: e.messageId, kickUsername: e.kickUsername, content: e.content };
          if (answer !== null) await reply(earlier, answer, betAck(e.outcome));
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
      const answer = betAnswer(outcome, siteName);
      if (answer !== null) await reply(message, answer, betAck(outcome));
      return true;
    },
    mayAct: (message) => parseBet(message.content) !== null,
  };
}

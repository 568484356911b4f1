/**
 * The moderation chat handler (docs/features/chat-moderation.md): first in the Kick chat pipeline,
 * it judges each message by the filters in hand and, on a broken rule, claims the message in the
 * moderation log (one process per message) and then warns (a first offence, where the rule says
 * so) or asks Kick to delete the message, time the sender out or ban them. A message it takes
 * stops the pipeline: no command runs on it and it earns no chat points. `!permit <user>` from a
 * moderator or the broadcaster lets that user post one link for a while.
 */
import type { FastifyInstance } from 'fastify';
import { MODERATION_RULE_LABELS, type ModerationAction } from '@kickback/common/http/chat-moderation';
import { KickApiError } from '../../integrations/kick/api';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { errorReason } from '../../lib/error-reason';
import type { ChatHandler } from '../chat/service';
import type { Verdict } from './filters';
import { grantPermit, hasRecentOffence, usePermit, type ModerationLogWriter } from './log';
import type { SettingsCache } from './settings';

/** Before `!verify` (100) and every other command, so a message it takes reaches none of them. */
export const MODERATION_ORDER = 10;
const PERMIT = /^!permit\s+@?([A-Za-z0-9_]{2,25})\s*$/i;
const CAN_PERMIT = new Set(['broadcaster', 'moderator']);

type KickResult = { outcome: 'done' | 'failed'; kickStatus: number | null; kickAnswer: string };

const isPermit = (m: ChatMessage) => m.content.startsWith('!permit') && m.badges.some((b) => CAN_PERMIT.has(b));

export function moderationHandler(app: FastifyInstance, cache: SettingsCache, log: ModerationLogWriter): ChatHandler {
  // The verdict mayAct reached, kept for handle (the repeated-message rule counts a line once).
  const verdicts = new Map<string, Verdict | null>();
  const judge = (m: ChatMessage) => cache.current().verdict(m, app.clock.now().getTime());
  return {
    name: 'moderation',
    order: MODERATION_ORDER,
    mayAct(message) {
      const filters = cache.current();
      if (!filters.anyOn) return false;
      if (isPermit(message)) return true;
      const verdict = filters.verdict(message, app.clock.now().getTime());
      if (verdicts.size > 10_000) verdicts.clear();
      verdicts.set(message.messageId, verdict);
      return verdict !== null;
    },
    async handle(message) {
      const kept = verdicts.get(message.messageId);
      if (kept !== undefined) verdicts.delete(message.messageId);
      else if (!cache.current().anyOn) return false;
      if (isPermit(message)) return permit(app, cache, message);
      const verdict = kept !== undefined ? kept : judge(message);
      if (!verdict) return false;
      await moderate(app, log, message, verdict);
      return true;
    },
  };
}

async function permit(app: FastifyInstance, cache: SettingsCache, message: ChatMessage): Promise<boolean> {
  const name = PERMIT.exec(message.content)?.[1];
  if (!name) {
    await app.chat.reply(message, 'usage: !permit <user>');
    return true;
  }
  const seconds = cache.current().settings.links.permitSeconds;
  await grantPermit(app.db, name, new Date(app.clock.now().getTime() + seconds * 1000));
  await app.chat.reply(message, `@${name} may post one link in the next ${seconds} s.`);
  return true;
}

/**
 * Acts on a message that broke a rule: once per message whatever the number of processes. The
 * claim and the outcome are rows of the log's batched statement (log.ts), written together with
 * those of the other messages of the same few milliseconds.
 */
export async function moderate(
  app: FastifyInstance,
  log: ModerationLogWriter,
  message: ChatMessage,
  verdict: Verdict,
): Promise<void> {
  const now = app.clock.now();
  if (verdict.permitable && (await usePermit(app.db, message.kickUsername, now))) return;
  const warn = verdict.warnFirst && !(await hasRecentOffence(app.db, message.kickUserId, now));
  const id = await log.claim({
    messageId: message.messageId,
    kickUserId: message.kickUserId,
    kickUsername: message.kickUsername,
    rule: verdict.rule,
    content: message.content,
    action: warn ? 'warn' : verdict.action,
    timeoutMinutes: !warn && verdict.action === 'timeout' ? verdict.timeoutMinutes : null,
    at: now,
  });
  if (id === null) return; // another process took this message
  let result: KickResult;
  try {
    if (warn) {
      await app.chat.reply(
        message,
        `please follow the chat rules (${MODERATION_RULE_LABELS[verdict.rule].toLowerCase()}): next time it is removed.`,
      );
      result = { outcome: 'done', kickStatus: null, kickAnswer: 'warned in chat' };
    } else {
      result = await actOnKick(app, message, verdict);
    }
  } catch (err) {
    result = { outcome: 'failed', kickStatus: null, kickAnswer: errorReason(err) };
  }
  await log.finish(id, result);
  if (result.outcome === 'failed') {
    app.log.warn(
      { messageId: message.messageId, rule: verdict.rule, answer: result.kickAnswer },
      'moderation action failed',
    );
  }
}

async function actOnKick(app: FastifyInstance, message: ChatMessage, verdict: Verdict): Promise<KickResult> {
  const bot = app.kickBot;
  if (!bot)
    return { outcome: 'failed', kickStatus: null, kickAnswer: 'no Kick bot: set up Kick on Admin → Integrations' };
  const token = await bot.tokens.accessToken();
  if (token === null) return { outcome: 'failed', kickStatus: null, kickAnswer: 'the Kick bot is not connected' };
  // A token Kick refuses as expired is refreshed once, then the call is made again.
  const withToken = async (call: (t: string) => Promise<void>) => {
    try {
      await call(token);
    } catch (err) {
      if (!(err instanceof KickApiError) || err.status !== 401) throw err;
      await call(await bot.tokens.refresh(token));
    }
  };
  const answer = (what: string, err: unknown) =>
    err instanceof KickApiError
      ? { ok: false, status: err.status, text: `${what}: ${err.kickMessage ?? err.message}` }
      : { ok: false, status: null, text: `${what}: ${errorReason(err)}` };
  const steps: Array<{ ok: boolean; status: number | null; text: string }> = [];
  try {
    await withToken((t) => bot.api.deleteChatMessage(t, message.messageId));
    steps.push({ ok: true, status: 204, text: 'deleted' });
  } catch (err) {
    steps.push(answer('delete', err));
  }
  if (verdict.action !== 'delete') {
    const minutes = verdict.action === 'timeout' ? verdict.timeoutMinutes : null;
    const broadcasterUserId = app.credentials.kick().broadcasterUserId ?? (await bot.tokens.state()).kickUserId;
    try {
      if (!broadcasterUserId) throw new Error('the broadcaster’s Kick id is unknown');
      await withToken((t) =>
        bot.api.banUser(t, {
          broadcasterUserId,
          userId: message.kickUserId,
          durationMinutes: minutes,
          reason: `Chat filter: ${MODERATION_RULE_LABELS[verdict.rule]}`,
        }),
      );
      steps.push({ ok: true, status: 200, text: minutes === null ? 'banned' : `timed out for ${minutes} min` });
    } catch (err) {
      steps.push(answer(actionWord(verdict.action), err));
    }
  }
  // The action asked for decides the outcome: for a timeout or ban, the ban call.
  const main = steps.at(-1)!;
  return {
    outcome: main.ok ? 'done' : 'failed',
    kickStatus: main.status,
    kickAnswer: steps.map((s) => s.text).join('; '),
  };
}

const actionWord = (a: ModerationAction) => (a === 'ban' ? 'ban' : a === 'timeout' ? 'timeout' : 'delete');

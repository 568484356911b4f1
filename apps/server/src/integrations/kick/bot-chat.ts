/**
 * Posting to chat as a connected Kick account: `POST /public/v1/chat`, as `type: "bot"` (the
 * streamer's own account, into its own channel) or `type: "user"` with `broadcaster_user_id` (a
 * separate bot account). A 401 means the token expired or was revoked early: refresh once and post
 * again. Only the outgoing chat queue calls this (docs/features/kick-chat-queue.md).
 */
import type { IntegrationStatus } from '../status';
import { type ChatPostAs, type KickApi, KickApiError } from './api';
import { KickBotError, type KickBotTokens } from './bot-token';
import { errorReason } from '../../lib/error-reason';

/** Posted (with Kick's message id), or surely not: no token, or it could not be refreshed. */
export type BotPost =
  | { posted: true; messageId: string | null }
  | { posted: false; reason: 'not-connected' | 'token-failed'; detail?: string };

export async function postAsBot(
  tokens: KickBotTokens,
  api: KickApi,
  content: string,
  replyToMessageId: string | undefined,
  as: ChatPostAs,
  status?: IntegrationStatus,
): Promise<BotPost> {
  try {
    // A token that cannot be had (unreadable, or its refresh refused) means nothing was posted.
    const usable = async (get: () => Promise<string | null>) => {
      try {
        return await get();
      } catch (err) {
        if (!(err instanceof KickBotError)) throw err;
        status?.failed('kick.bot', `chat reply: ${err.message}`);
        return { failed: err.message };
      }
    };
    const token = await usable(() => tokens.accessToken());
    if (token === null) return { posted: false, reason: 'not-connected' };
    if (typeof token !== 'string') return { posted: false, reason: 'token-failed', detail: token.failed };
    let messageId: string | null;
    try {
      messageId = await api.sendChat(token, content, replyToMessageId, as);
    } catch (err) {
      if (!(err instanceof KickApiError) || err.status !== 401) throw err;
      const fresh = await usable(() => tokens.refresh(token));
      if (typeof fresh !== 'string') {
        return { posted: false, reason: 'token-failed', detail: fresh?.failed ?? 'no token' };
      }
      messageId = await api.sendChat(fresh, content, replyToMessageId, as);
    }
    status?.succeeded('kick.bot', 'reply posted');
    return { posted: true, messageId };
  } catch (err) {
    status?.failed('kick.bot', `chat reply: ${errorReason(err)}`);
    throw err;
  }
}

/**
 * Posting to chat as the connected Kick bot: `POST /public/v1/chat` with `type: "bot"` (Kick posts
 * into the channel of the token's owner). A 401 means the token expired or was revoked early:
 * refresh once and post again.
 */
import type { IntegrationStatus } from '../status';
import { type KickApi, KickApiError } from './api';
import type { KickBotTokens } from './bot-token';

export type BotPost = 'posted' | 'not-connected';

export async function postAsBot(
  tokens: KickBotTokens,
  api: KickApi,
  content: string,
  replyToMessageId: string | undefined,
  status?: IntegrationStatus,
): Promise<BotPost> {
  try {
    const token = await tokens.accessToken();
    if (!token) return 'not-connected';
    try {
      await api.sendChat(token, content, replyToMessageId);
    } catch (err) {
      if (!(err instanceof KickApiError) || err.status !== 401) throw err;
      await api.sendChat(await tokens.refresh(token), content, replyToMessageId);
    }
    status?.succeeded('kick.bot', 'reply posted');
    return 'posted';
  } catch (err) {
    status?.failed('kick.bot', `chat reply: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
}

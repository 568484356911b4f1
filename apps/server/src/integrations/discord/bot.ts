/**
 * Our Discord bot's direct messages through `@discordjs/rest` (which queues per rate-limit bucket,
 * waits out 429s and the global limit, and retries 5xx): open the DM channel with
 * `POST /users/@me/channels`, then `POST /channels/{id}/messages` with mentions disabled. Each
 * outcome is sorted into what the caller must do with it: 50007 (DMs closed) and 50278 (no mutual
 * server) mean "do not try this user again", 401 means the token is wrong (stop everything).
 */
import { DiscordAPIError, REST, type ResponseLike } from '@discordjs/rest';
import { RESTJSONErrorCodes, Routes, type RESTPostAPIChannelMessageJSONBody } from 'discord-api-types/v10';
import type { DiscordBotConfig } from '../../config';
import { errorReason } from '../../lib/error-reason';

export type DmFailure = 'dms_closed' | 'no_mutual_guild' | 'unknown_user' | 'unauthorized' | 'error';
/** `unreached`: Discord never answered (the request failed on the way: DNS, network, proxy). */
export type DmOutcome =
  | { ok: true; messageId: string }
  | { ok: false; reason: DmFailure; detail: string; unreached?: true };

export interface DiscordDmSender {
  send(discordId: string, content: string): Promise<DmOutcome>;
  close(): void;
}

const CHANNEL_CACHE = 10_000;

function failure(err: unknown): { reason: DmFailure; detail: string; unreached?: true } {
  if (err instanceof DiscordAPIError) {
    const detail = `${err.status} ${String(err.code)}: ${err.message}`.slice(0, 300);
    if (err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser) return { reason: 'dms_closed', detail };
    if (err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUserDueToHavingNoMutualGuilds) {
      return { reason: 'no_mutual_guild', detail };
    }
    if (err.code === RESTJSONErrorCodes.UnknownUser) return { reason: 'unknown_user', detail };
    if (err.status === 401) return { reason: 'unauthorized', detail };
    return { reason: 'error', detail };
  }
  const status = (err as { status?: unknown }).status;
  if (status === 401) return { reason: 'unauthorized', detail: '401 Unauthorized' };
  const detail = errorReason(err);
  // An answer carries a status; an error without one is a request that never reached Discord.
  return typeof status === 'number' ? { reason: 'error', detail } : { reason: 'error', detail, unreached: true };
}

export function createDiscordDmSender(
  config: Extract<DiscordBotConfig, { mode: 'discord' | 'simulator' }>,
  http: typeof fetch,
): DiscordDmSender {
  const rest = new REST({
    api: config.api,
    version: config.version,
    // Through the app's outbound HTTP: our own origin (the simulator) is answered in-process.
    makeRequest: (url, init) => http(url, init as RequestInit) as Promise<ResponseLike>,
    retries: 2,
    timeout: 15_000,
  }).setToken(config.token);
  const channels = new Map<string, string>();

  const channelFor = async (discordId: string): Promise<string> => {
    const known = channels.get(discordId);
    if (known) return known;
    const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: discordId } })) as { id: string };
    if (channels.size >= CHANNEL_CACHE) channels.clear();
    channels.set(discordId, channel.id);
    return channel.id;
  };

  return {
    async send(discordId, content) {
      try {
        const channelId = await channelFor(discordId);
        const body: RESTPostAPIChannelMessageJSONBody = { content, allowed_mentions: { parse: [] } };
        const message = (await rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
        return { ok: true, messageId: message.id };
      } catch (err) {
        if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownChannel)
          channels.delete(discordId);
        return { ok: false, ...failure(err) };
      }
    },
    close() {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },
  };
}

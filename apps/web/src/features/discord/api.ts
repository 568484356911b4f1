/** Typed calls of the Discord message sender. */
import { discordEndpoints, type BroadcastResult, type SendDiscordMessageBody } from '@kickback/common/http/discord';
import { api } from '../../lib/api';

export const sendDiscordMessage = (body: SendDiscordMessageBody) => api(discordEndpoints.send, { body });

export const getBroadcast = (id: string, signal?: AbortSignal): Promise<BroadcastResult> =>
  api(discordEndpoints.broadcast, {
    params: { id },
    silent: true,
    ...(signal ? { signal } : {}),
  });

export const getRecentBroadcasts = (signal?: AbortSignal) =>
  api(discordEndpoints.recent, { silent: true, ...(signal ? { signal } : {}) });

export const getDiscordBot = (signal?: AbortSignal) =>
  api(discordEndpoints.bot, { silent: true, ...(signal ? { signal } : {}) });

/** Typed calls of the Discord message sender. */
import {
  broadcastList,
  broadcastResult,
  discordBotInfo,
  type BroadcastResult,
  type SendDiscordMessageBody,
} from '@kickback/common/http/discord';
import { api } from '../../lib/api';

export const sendDiscordMessage = (body: SendDiscordMessageBody) =>
  api('/api/Discord/sendmessage', { method: 'POST', body, schema: broadcastResult });

export const getBroadcast = (id: string, signal?: AbortSignal): Promise<BroadcastResult> =>
  api(`/api/Discord/broadcasts/${encodeURIComponent(id)}`, {
    schema: broadcastResult,
    silent: true,
    ...(signal ? { signal } : {}),
  });

export const getRecentBroadcasts = (signal?: AbortSignal) =>
  api('/api/Discord/broadcasts', { schema: broadcastList, silent: true, ...(signal ? { signal } : {}) });

export const getDiscordBot = (signal?: AbortSignal) =>
  api('/api/Discord/bot', { schema: discordBotInfo, silent: true, ...(signal ? { signal } : {}) });

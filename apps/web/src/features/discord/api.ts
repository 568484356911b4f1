/**
 * The Discord message sender's calls: the recent broadcasts and where DMs go are queries (silent:
 * the page shows its empty state); a send invalidates the recent list. A running broadcast is
 * followed by polling `getBroadcast` (use-broadcast-poll), its readings patched into the list.
 */
import { useQueryClient } from '@tanstack/react-query';
import { discordEndpoints, type BroadcastResult, type BroadcastSummary } from '@kickback/common/http/discord';
import { api } from '../../lib/api';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useRecentBroadcasts = () => useEndpointQuery(discordEndpoints.recent, { silent: true });

export const useDiscordBot = () => useEndpointQuery(discordEndpoints.bot, { silent: true });

export const useSendDiscordMessage = () =>
  useEndpointMutation(discordEndpoints.send, { invalidates: [discordEndpoints.recent] });

/** Puts a polled reading of a running broadcast into the cached recent list (no refetch per tick). */
export function usePatchRecent() {
  const client = useQueryClient();
  return (next: BroadcastResult) =>
    client.setQueryData<BroadcastSummary[]>(endpointKey(discordEndpoints.recent), (list) =>
      list?.map((b) => (b.id === next.id ? next : b)),
    );
}

export const getBroadcast = (id: string, signal?: AbortSignal): Promise<BroadcastResult> =>
  api(discordEndpoints.broadcast, {
    params: { id },
    silent: true,
    ...(signal ? { signal } : {}),
  });

/**
 * The Discord message sender's calls: the recent broadcasts and where DMs go are queries (silent:
 * the page shows its empty state); a send invalidates the recent list. A running broadcast is
 * followed by a polled query of it (use-broadcast-poll), its readings patched into the list.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  discordEndpoints,
  isFinished,
  type BroadcastResult,
  type BroadcastSummary,
} from '@kickback/common/http/discord';
import { callEndpoint } from '../../lib/api';
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

const POLL_MS = 1000;

const broadcastQuery = (id: string) => ({
  queryKey: endpointKey(discordEndpoints.broadcast, { params: { id } }),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    callEndpoint(discordEndpoints.broadcast, { params: { id }, signal, silent: true }),
});

/**
 * A running broadcast's progress, read every POLL_MS until a reading says it finished (a failed
 * read is tried again at the next tick); nothing while `id` is null.
 */
export const useBroadcast = (id: string | null) =>
  useQuery<BroadcastResult>({
    ...broadcastQuery(id ?? ''),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : POLL_MS),
  });

/** One broadcast read now (to resume following it, or to show its result). */
export function useFetchBroadcast() {
  const client = useQueryClient();
  return (id: string) => client.fetchQuery({ ...broadcastQuery(id), staleTime: 0 });
}

/** A broadcast ended on the server: the recent list refetches. */
export function useRecentChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: endpointKey(discordEndpoints.recent) });
}

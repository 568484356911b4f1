/**
 * The public leaderboards as server state, with the contract's client behaviour: results stay cached
 * after the first load (a revisit shows them at once; one older than a few minutes is refreshed in
 * the background), and a failed load is silent and shows an empty list (not retried).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  boardEndpoint,
  boardTypes,
  leaderboardEndpoints,
  type BoardType,
  type LeaderboardResponse,
  type PublicSite,
  type SiteId,
} from '@kickback/common/http/leaderboards';
import { callEndpoint } from '../../lib/api';
import { endpointKey, useEndpointQuery } from '../../lib/query';

const FRESH_MS = 3 * 60_000;
const cachedRead = { staleTime: FRESH_MS, gcTime: Infinity, retry: false } as const;

export function emptyBoard(type: BoardType): LeaderboardResponse {
  return { data: [], rewards: [], type, countdown: null, period: null, rewardUnit: 'USD' };
}

const noSites: PublicSite[] = [];

/** The partner sites with a board (undefined until the first answer; none when it failed). */
export function useSites(): PublicSite[] | undefined {
  const sites = useEndpointQuery(leaderboardEndpoints.sites, { silent: true }, cachedRead);
  return sites.data?.sites ?? (sites.isError ? noSites : undefined);
}

/** A board's key: its endpoint's, or the site and type for a board no endpoint serves (always empty). */
const boardKey = (site: SiteId, type: BoardType) => {
  const endpoint = boardEndpoint(site, type);
  return endpoint ? endpointKey(endpoint) : ['leaderboard', site, type];
};

/** A site's board (undefined until the first answer; empty when it failed or none is served). */
export function useBoard(site: SiteId | null, type: BoardType): LeaderboardResponse | undefined {
  const board = useQuery<LeaderboardResponse>({
    queryKey: site === null ? ['leaderboard', 'none'] : boardKey(site, type),
    queryFn: ({ signal }) => {
      const endpoint = site === null ? null : boardEndpoint(site, type);
      return endpoint ? callEndpoint(endpoint, { signal, silent: true }) : Promise.resolve(emptyBoard(type));
    },
    enabled: site !== null,
    ...cachedRead,
  });
  return board.data ?? (board.isError ? emptyBoard(type) : undefined);
}

/** A site's period ended: both its boards are read again (now, or at their next view). */
export function useBoardPeriodEnded() {
  const client = useQueryClient();
  return (site: SiteId) =>
    void Promise.all(boardTypes.map((type) => client.invalidateQueries({ queryKey: boardKey(site, type) })));
}

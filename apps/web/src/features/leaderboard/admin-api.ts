/**
 * Admin → Leaderboards calls as server state: the sites with their settings and poller health are
 * one query; saving a site's settings and "Refresh now" invalidate it, so the page refetches
 * instead of counting versions by hand; a save also invalidates the public sites (codes, links).
 */
import { useQueryClient } from '@tanstack/react-query';
import { leaderboardEndpoints } from '@kickback/common/http/leaderboards';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../lib/query';

export const useAdminSites = () => useEndpointQuery(leaderboardEndpoints.adminSites);

const changes = [leaderboardEndpoints.adminSites] as const;

export const useSaveSiteSettings = () =>
  useEndpointMutation(leaderboardEndpoints.updateSettings, {
    invalidates: [...changes, leaderboardEndpoints.sites],
  });

export const useRefreshSite = () => useEndpointMutation(leaderboardEndpoints.refresh, { invalidates: changes });

/** Reads the sites again (after a refused "Refresh now": the poller's status may have changed). */
export function useReloadAdminSites() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: endpointKey(leaderboardEndpoints.adminSites) });
}

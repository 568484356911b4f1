/**
 * Roobet's public board settings (code and referral link) from the leaderboard sites, shared by the
 * pages that name the streamer's code (VIP, Roobet daily rewards). Silent: without them a page says
 * "the streamer's code".
 */
import { leaderboardEndpoints } from '@kickback/common/http/leaderboards';
import { useEndpointQuery } from './query';

export const useRoobetSite = () =>
  useEndpointQuery(leaderboardEndpoints.sites, { silent: true }).data?.sites.find((s) => s.slug === 'roobet') ?? null;

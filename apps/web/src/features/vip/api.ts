/** The VIP page's one read: Roobet's public board settings (code and referral link). */
import { leaderboardEndpoints } from '@kickback/common/http/leaderboards';
import { useEndpointQuery } from '../../lib/query';

/** Silent: without them the page says "the streamer's code" and leaves out the Roobet link. */
export const useRoobetSite = () =>
  useEndpointQuery(leaderboardEndpoints.sites, { silent: true }).data?.sites.find((s) => s.slug === 'roobet') ?? null;

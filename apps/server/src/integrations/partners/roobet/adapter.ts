/**
 * Roobet affiliate stats: `GET /affiliate/v2/stats?userId=<affiliate UUID>&startDate=&endDate=`
 * with a Bearer JWT. An array of `{uid, username, wagered, weightedWagered, favoriteGameTitle, …}`
 * in USD floats (some deployments wrap it in `{data: […]}`). The board ranks on the API's
 * `weightedWagered` and never recomputes it (the RTP rule is applied per bet by Roobet; our
 * simulator applies it the same way). `endDate` is reported to be exclusive, so the period's end
 * instant is sent as is.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import type { PartnerAdapter, PartnerStanding, PartnerWindow } from '../types';

export function parseRoobet(json: unknown, site: SiteId, window: PartnerWindow): PartnerStanding[] {
  const rows = listFrom(json, ['data', 'users', 'results', 'stats']);
  return standingsFrom(
    rows,
    {
      site,
      unit: 'USD',
      scale: 'units',
      name: ['username', 'name', 'userName'],
      id: ['uid', 'userId', 'id'],
      // Only real avatar fields: `rankLevelImage` is the rank badge, the same picture for a whole rank.
      avatar: ['avatar', 'avatarUrl'],
      wagered: ['wagered', 'wager', 'totalWagered'],
      weighted: ['weightedWagered', 'weighted_wagered', 'weightedWager'],
      avatarOrigin: 'https://roobet.com',
    },
    window,
  );
}

export function roobetAdapter(opts: {
  site: SiteId;
  http: typeof fetch;
  baseUrl: string;
  apiKey: string;
  affiliateId: string;
}): PartnerAdapter {
  return {
    site: opts.site,
    window: 'bounded',
    minIntervalSeconds: 60,
    async fetchStandings(window, signal) {
      const url = joinUrl(opts.baseUrl, 'affiliate/v2/stats');
      url.searchParams.set('userId', opts.affiliateId);
      url.searchParams.set('startDate', window.start.toISOString());
      url.searchParams.set('endDate', window.end.toISOString());
      const json = await getJson(opts.http, url, { authorization: `Bearer ${opts.apiKey}` }, signal);
      return parseRoobet(json, opts.site, window);
    },
  };
}

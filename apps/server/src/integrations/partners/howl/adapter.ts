/**
 * Howl.gg affiliate leaderboard: `GET /api/user/affiliate/lb?from=<ISO>&to=<ISO>&limit=1000` with
 * the raw key in `Authorization` (no "Bearer"). `{success: true, data: [{userId, name, wageredUSD,
 * …}]}`.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import { PartnerResponseError, type PartnerAdapter, type PartnerStanding, type PartnerWindow } from '../types';

export function parseHowl(json: unknown, site: SiteId, window: PartnerWindow): PartnerStanding[] {
  if (json && typeof json === 'object' && !Array.isArray(json) && (json as { success?: unknown }).success === false) {
    throw new PartnerResponseError('success: false');
  }
  const rows = listFrom(json, ['data', 'users', 'results', 'leaderboard']);
  return standingsFrom(
    rows,
    {
      site,
      unit: 'USD',
      scale: 'units',
      name: ['name', 'username', 'displayName'],
      id: ['userId', 'id', 'steamId', 'steamid'],
      avatar: ['avatar', 'avatarUrl', 'image'],
      wagered: ['wageredUSD', 'wagered', 'wager', 'wageredUsd'],
      avatarOrigin: 'https://howl.gg',
    },
    window,
  );
}

export function howlAdapter(opts: {
  site: SiteId;
  http: typeof fetch;
  baseUrl: string;
  apiKey: string;
}): PartnerAdapter {
  return {
    site: opts.site,
    window: 'bounded',
    minIntervalSeconds: 60,
    async fetchStandings(window, signal) {
      const url = joinUrl(opts.baseUrl, 'api/user/affiliate/lb');
      url.searchParams.set('from', window.start.toISOString());
      url.searchParams.set('to', window.end.toISOString());
      url.searchParams.set('limit', '1000');
      const json = await getJson(opts.http, url, { authorization: opts.apiKey }, signal);
      return parseHowl(json, opts.site, window);
    },
  };
}

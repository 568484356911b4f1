/**
 * RustMagic affiliate data: `GET /api/affiliates-data/users?fromTime=&toTime=` (epoch seconds) with
 * an `x-api-key` header. The answer varies: an array, `{users: […]}` or `{data: [{…, board}]}`,
 * with `username|name` and `wager|wagered`. `board: false` marks a player who left the code.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import type { PartnerAdapter, PartnerStanding, PartnerWindow } from '../types';

export function parseRustMagic(json: unknown, site: SiteId, window: PartnerWindow): PartnerStanding[] {
  const rows = listFrom(json, ['users', 'data', 'results', 'affiliates']);
  return standingsFrom(
    rows,
    {
      site,
      unit: 'USD',
      scale: 'units',
      name: ['username', 'name', 'displayName'],
      id: ['id', 'userId', 'steamId', 'steamid', 'uid'],
      avatar: ['avatar', 'avatarUrl', 'image'],
      wagered: ['wagered', 'wager', 'totalWagered', 'amount'],
      onCode: ['board', 'onCode', 'active'],
      avatarOrigin: 'https://rustmagic.com',
    },
    window,
  );
}

export function rustMagicAdapter(opts: {
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
      const url = joinUrl(opts.baseUrl, 'api/affiliates-data/users');
      url.searchParams.set('fromTime', String(Math.floor(window.start.getTime() / 1000)));
      url.searchParams.set('toTime', String(Math.floor(window.end.getTime() / 1000)));
      const json = await getJson(opts.http, url, { 'x-api-key': opts.apiKey }, signal);
      return parseRustMagic(json, opts.site, window);
    },
  };
}

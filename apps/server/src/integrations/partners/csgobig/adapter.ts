/**
 * CSGOBig partner stats: `GET /api/partners/getRefDetails/{refCode}?from={epochMs}&to={epochMs}`,
 * no auth header (the referral code is the secret). `{success: true, results: [{id, name, img,
 * wagerTotal, depositTotal, level, lastActive}]}`; `img` may be a relative path. A strict rate
 * limit (about one call per 15 minutes per IP) sets the minimum poll interval.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import { PartnerResponseError, type PartnerAdapter, type PartnerStanding, type PartnerWindow } from '../types';

export function parseCsgoBig(
  json: unknown,
  site: SiteId,
  window: PartnerWindow,
  avatarOrigin: string,
): PartnerStanding[] {
  if (json && typeof json === 'object' && !Array.isArray(json) && (json as { success?: unknown }).success === false) {
    const error = (json as { error?: unknown; message?: unknown }).error ?? (json as { message?: unknown }).message;
    throw new PartnerResponseError(`success: false${typeof error === 'string' ? ` (${error.slice(0, 80)})` : ''}`);
  }
  const rows = listFrom(json, ['results', 'data', 'users']);
  return standingsFrom(
    rows,
    {
      site,
      unit: 'USD',
      scale: 'units',
      name: ['name', 'username'],
      id: ['id', 'steamid', 'steamId', 'userId'],
      avatar: ['img', 'avatar', 'image'],
      wagered: ['wagerTotal', 'wagered', 'wager', 'total'],
      avatarOrigin,
    },
    window,
  );
}

export function csgoBigAdapter(opts: {
  site: SiteId;
  http: typeof fetch;
  baseUrl: string;
  refCode: string;
}): PartnerAdapter {
  const origin = new URL(opts.baseUrl).origin;
  return {
    site: opts.site,
    window: 'bounded',
    minIntervalSeconds: 15 * 60,
    async fetchStandings(window, signal) {
      const url = joinUrl(opts.baseUrl, `api/partners/getRefDetails/${encodeURIComponent(opts.refCode)}`);
      url.searchParams.set('from', String(window.start.getTime()));
      url.searchParams.set('to', String(window.end.getTime()));
      const json = await getJson(opts.http, url, {}, signal);
      return parseCsgoBig(json, opts.site, window, origin);
    },
  };
}

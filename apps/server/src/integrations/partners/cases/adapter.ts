/**
 * Cases.gg affiliate stats: the Clash API family (`/affiliates/detailed-summary/v2/{date}`, Bearer
 * JWT, amounts in cents, a "since" date). Cases.gg answers 403 to a date in the future, so the
 * since-date is never later than today.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { clashFamilyAdapter } from '../clash/adapter';
import type { PartnerAdapter } from '../types';

export function casesAdapter(opts: {
  site: SiteId;
  http: typeof fetch;
  baseUrl: string;
  apiKey: string;
}): PartnerAdapter {
  const inner = clashFamilyAdapter({ ...opts, unit: 'USD', avatarOrigin: 'https://cases.gg' });
  return {
    ...inner,
    fetchStandings(window, signal) {
      const start = window.start > window.now ? window.now : window.start;
      return inner.fetchStandings({ ...window, start }, signal);
    },
  };
}

/**
 * Clash.gg affiliate stats (`GET /affiliates/detailed-summary/v2/{YYYY-MM-DD}`, Bearer JWT with
 * scope "affiliates"). The date is a "since" date with no end, and amounts are gem cents. Usually
 * an array of `{name, avatar, wagered, deposited, earned, …}`; variants seen are
 * `{players: [{…, xp, deposits}]}` and `{referralSummaries: […]}`. Cases.gg runs the same API
 * family (cases/adapter.ts); site 2 ("royale") is a second Clash.gg affiliate account.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import type { PartnerAdapter, PartnerStanding, PartnerWindow, WagerUnit } from '../types';

export interface ClashFamilyOptions {
  site: SiteId;
  http: typeof fetch;
  baseUrl: string;
  apiKey: string;
  unit: WagerUnit;
  /** Where relative avatar paths point. */
  avatarOrigin: string;
}

/** The "since" date of a period: its start's UTC day. */
export function sinceDate(start: Date): string {
  return start.toISOString().slice(0, 10);
}

export function parseClashFamily(
  json: unknown,
  opts: Pick<ClashFamilyOptions, 'site' | 'unit' | 'avatarOrigin'>,
  window: PartnerWindow,
): PartnerStanding[] {
  const rows = listFrom(json, ['players', 'referralSummaries', 'data', 'users', 'results', 'summary']);
  return standingsFrom(
    rows,
    {
      site: opts.site,
      unit: opts.unit,
      scale: 'cents',
      name: ['name', 'username', 'displayName', 'userName'],
      id: ['id', 'userId', 'user_id', 'steamId', 'steamid', 'uid'],
      avatar: ['avatar', 'avatarUrl', 'image', 'img'],
      wagered: ['wagered', 'wager', 'totalWagered', 'xp'],
      avatarOrigin: opts.avatarOrigin,
    },
    window,
  );
}

export function clashFamilyAdapter(opts: ClashFamilyOptions): PartnerAdapter {
  return {
    site: opts.site,
    window: 'since',
    minIntervalSeconds: 60,
    async fetchStandings(window, signal) {
      const url = joinUrl(opts.baseUrl, `affiliates/detailed-summary/v2/${sinceDate(window.start)}`);
      const json = await getJson(opts.http, url, { authorization: `Bearer ${opts.apiKey}` }, signal);
      return parseClashFamily(json, opts, window);
    },
  };
}

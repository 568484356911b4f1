/**
 * RustMagic affiliate data: `GET /api/affiliates-data/users?fromTime=&toTime=` (epoch seconds) with
 * an `x-api-key` header. The answer varies: an array, `{users: […]}` or `{data: [{…, board}]}`,
 * with `username|name` and `wager|wagered`. `board` is the NAME of the affiliate board a row belongs
 * to (the one public client that reads it compares `u.board?.toLowerCase()` with its board), and
 * one answer lists every board of the account: only rows of the configured board (RUSTMAGIC_BOARD,
 * case-insensitive) are ours. Rows without a board (the variants that carry none) are kept. With no
 * board configured, an answer naming several boards is refused rather than merged.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { getJson, joinUrl, listFrom, standingsFrom } from '../lenient';
import { PartnerResponseError, type PartnerAdapter, type PartnerStanding, type PartnerWindow } from '../types';

function boardOf(row: unknown): string | null {
  if (!row || typeof row !== 'object') return null;
  const board = (row as Record<string, unknown>).board;
  return typeof board === 'string' && board.trim() !== '' ? board.trim() : null;
}

/** The rows of `board` (and rows naming none); with no board, refuses an answer that names several. */
export function rowsOfBoard(rows: unknown[], board: string | null): unknown[] {
  if (board === null) {
    const byKey = new Map<string, string>();
    for (const name of rows.map(boardOf))
      if (name !== null && !byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), name);
    const names = [...byKey.values()];
    if (names.length > 1) {
      throw new PartnerResponseError(
        `the answer lists ${names.length} boards (${names.slice(0, 5).join(', ')}); set RUSTMAGIC_BOARD to yours`,
      );
    }
    return rows;
  }
  const wanted = board.trim().toLowerCase();
  return rows.filter((r) => {
    const name = boardOf(r);
    return name === null || name.toLowerCase() === wanted;
  });
}

export function parseRustMagic(
  json: unknown,
  site: SiteId,
  window: PartnerWindow,
  board: string | null = null,
): PartnerStanding[] {
  const rows = rowsOfBoard(listFrom(json, ['users', 'data', 'results', 'affiliates']), board);
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
      onCode: ['onCode', 'active'],
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
  /** The configured board name; null takes the answer's only board. */
  board?: string | null;
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
      return parseRustMagic(json, opts.site, window, opts.board ?? null);
    },
  };
}

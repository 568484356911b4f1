/**
 * Leaderboard calls with the spec's client behaviour: results are cached after the first load (a
 * revisit shows them at once; one older than a few minutes is refreshed in the background), and a
 * failed load is silent and shows an empty list.
 */
import {
  boardEndpoint,
  boardPath,
  leaderboardEndpoints,
  type BoardType,
  type LeaderboardResponse,
  type PublicSite,
  type SiteId,
} from '@kickback/common/http/leaderboards';
import { api } from '../../lib/api';

const FRESH_MS = 3 * 60_000;

interface Entry<T> {
  at: number;
  value: Promise<T>;
  settled: T | undefined;
}

const cache = new Map<string, Entry<unknown>>();

function cached<T>(key: string, load: () => Promise<T>): { now: T | undefined; next: Promise<T> } {
  const hit = cache.get(key) as Entry<T> | undefined;
  if (hit && Date.now() - hit.at < FRESH_MS) return { now: hit.settled, next: hit.value };
  const entry: Entry<T> = { at: Date.now(), value: load(), settled: hit?.settled };
  entry.value.then((v) => {
    entry.settled = v;
  });
  cache.set(key, entry as Entry<unknown>);
  return { now: hit?.settled, next: entry.value };
}

/** What a path's last finished load answered, without loading anything. */
export function peek<T>(key: string): T | undefined {
  return (cache.get(key) as Entry<T> | undefined)?.settled;
}

export function emptyBoard(type: BoardType): LeaderboardResponse {
  return { data: [], rewards: [], type, countdown: null, period: null, rewardUnit: 'USD' };
}

/** The board of a site: what is cached now (if anything) and the promise of a fresh one. */
export function loadBoard(site: SiteId, type: BoardType) {
  const path = boardPath(site, type);
  const endpoint = boardEndpoint(site, type);
  return cached(path, () =>
    endpoint ? api(endpoint, { silent: true }).catch(() => emptyBoard(type)) : Promise.resolve(emptyBoard(type)),
  );
}

export function loadSites() {
  return cached(leaderboardEndpoints.sites.path, () =>
    api(leaderboardEndpoints.sites, { silent: true })
      .then((r) => r.sites)
      .catch((): PublicSite[] => []),
  );
}

/** Forgets a board (its period ended: the next view loads the new one). */
export function forgetBoard(site: SiteId, type: BoardType) {
  cache.delete(boardPath(site, type));
}

/**
 * Who ranks where: partner players are matched to site users through verified partner links
 * (partner-links/matching), excluded accounts and excluded names are dropped, and the rest are
 * ordered by the site's ranked amount (Roobet: weighted wager). Also the public name mask.
 */
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { linksForPlayers, type LinkedUser } from '../partner-links/service';

export interface PlayerRow {
  playerKey: string;
  username: string;
  externalId: string | null;
  avatarUrl: string | null;
  /** Hundredths of the site's ranked amount (weighted wager on Roobet); null when not reported. */
  ranked: bigint | null;
  isActive: boolean;
}

export interface MatchedUser {
  id: string;
  username: string;
  avatarUrl: string | null;
  excluded: boolean;
  showName: boolean;
}

/** The stable key of a partner player within a period: the partner id when there is one, else the name. */
export function playerKeyOf(p: { externalId: string | null; username: string }): string {
  return p.externalId ? `id:${p.externalId.toLowerCase()}` : `name:${p.username.toLowerCase()}`;
}

/**
 * Site users whose link to these players is verified (partner-links/matching): only they show on
 * a board with their own name and avatar or win its prizes. A claimed link ranks as the plain
 * partner row.
 */
export async function matchUsers(
  db: DbOrTx,
  site: SiteId,
  players: ReadonlyArray<Pick<PlayerRow, 'playerKey' | 'username' | 'externalId'>>,
): Promise<Map<string, MatchedUser>> {
  const out = new Map<string, MatchedUser>();
  for (const [key, linked] of await matchLinks(db, site, players)) {
    if (linked.state === 'verified') out.set(key, linked);
  }
  return out;
}

/** Claimed and verified links of these players (wager points: credited or held). */
export async function matchLinks(
  db: DbOrTx,
  site: SiteId,
  players: ReadonlyArray<Pick<PlayerRow, 'playerKey' | 'username' | 'externalId'>>,
): Promise<Map<string, LinkedUser>> {
  const field = siteById(site)?.linkField;
  if (!field) return new Map();
  return linksForPlayers(db, field, players);
}

export interface RankedRow extends PlayerRow {
  rank: number;
  user: MatchedUser | null;
}

/**
 * Orders the players: ranked amount, then name for a stable order. Excluded accounts and names
 * never rank, and neither does a player with nothing to rank on.
 */
export function rankPlayers(
  players: readonly PlayerRow[],
  matches: ReadonlyMap<string, MatchedUser>,
  excludedNames: readonly string[],
): RankedRow[] {
  const excluded = new Set(excludedNames.map((n) => n.trim().toLowerCase()));
  return players
    .filter((p) => {
      if (matches.get(p.playerKey)?.excluded) return false;
      if (excluded.has(p.username.toLowerCase())) return false;
      if (p.externalId && excluded.has(p.externalId.toLowerCase())) return false;
      return p.ranked !== null && p.ranked > 0n;
    })
    .sort((a, b) => {
      const diff = (b.ranked ?? 0n) - (a.ranked ?? 0n);
      if (diff !== 0n) return diff > 0n ? 1 : -1;
      return a.username.localeCompare(b.username);
    })
    .map((p, i) => ({ ...p, rank: i + 1, user: matches.get(p.playerKey) ?? null }));
}

/** `abcdef` → `ab***ef`; short names keep less: `abcd` → `a***d`, `ab` → `a***`. */
export function maskName(name: string): string {
  const chars = [...name];
  if (chars.length >= 5) return `${chars.slice(0, 2).join('')}***${chars.slice(-2).join('')}`;
  if (chars.length >= 3) return `${chars[0]}***${chars[chars.length - 1]}`;
  return `${chars[0] ?? ''}***`;
}

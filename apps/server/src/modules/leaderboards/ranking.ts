/**
 * Who ranks where: partner players are matched to site users by the partner id those users saved
 * (users.clash_id, rustmagic_id, roobet_name, cases_id; compared case-insensitively with the
 * player's partner id or name), excluded accounts and excluded names are dropped, and the rest are
 * ordered by the site's ranked amount (Roobet: weighted wager). Also the public name mask.
 */
import { sql } from 'drizzle-orm';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';

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

const linkColumns = {
  clashId: 'clash_id',
  rustMagicId: 'rustmagic_id',
  roobetName: 'roobet_name',
  casesId: 'cases_id',
} as const;

/** The stable key of a partner player within a period: the partner id when there is one, else the name. */
export function playerKeyOf(p: { externalId: string | null; username: string }): string {
  return p.externalId ? `id:${p.externalId.toLowerCase()}` : `name:${p.username.toLowerCase()}`;
}

/** Site users who linked these players (by partner id first, then by name); one user per player. */
export async function matchUsers(
  db: DbOrTx,
  site: SiteId,
  players: ReadonlyArray<Pick<PlayerRow, 'playerKey' | 'username' | 'externalId'>>,
): Promise<Map<string, MatchedUser>> {
  const field = siteById(site)?.linkField;
  const out = new Map<string, MatchedUser>();
  if (!field || players.length === 0) return out;
  const column = sql.raw(linkColumns[field]);
  const keys = new Set<string>();
  for (const p of players) {
    keys.add(p.username.toLowerCase());
    if (p.externalId) keys.add(p.externalId.toLowerCase());
  }
  const rows = rowsOf<{
    id: string;
    username: string;
    avatar_url: string | null;
    excluded: boolean;
    show_name_on_boards: boolean;
    link: string;
  }>(
    await db.execute(sql`
      SELECT id, username, avatar_url, excluded, show_name_on_boards, lower(trim(${column})) AS link
      FROM users
      WHERE ${column} IS NOT NULL
        AND lower(trim(${column})) IN (SELECT jsonb_array_elements_text(${JSON.stringify([...keys])}::jsonb))
      ORDER BY created_at, id
    `),
  );
  const byLink = new Map<string, MatchedUser>();
  for (const r of rows) {
    if (byLink.has(r.link)) continue;
    byLink.set(r.link, {
      id: r.id,
      username: r.username,
      avatarUrl: r.avatar_url,
      excluded: r.excluded,
      showName: r.show_name_on_boards,
    });
  }
  const taken = new Set<string>();
  // Partner-id matches first, so a name that happens to equal someone's id never steals it.
  for (const pass of ['id', 'name'] as const) {
    for (const p of players) {
      if (out.has(p.playerKey)) continue;
      const key = pass === 'id' ? p.externalId?.toLowerCase() : p.username.toLowerCase();
      const user = key ? byLink.get(key) : undefined;
      if (!user || taken.has(user.id)) continue;
      taken.add(user.id);
      out.set(p.playerKey, user);
    }
  }
  return out;
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

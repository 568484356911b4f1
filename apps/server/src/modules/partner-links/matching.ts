/**
 * Which site user a partner player belongs to: through partner links only. A verified link makes
 * the player that user's (board name and avatar, prizes, wager points, giveaway filters); a
 * claimed link only holds what it would have earned. A link with a pinned partner id matches that
 * id only; one without matches an id the user typed, then the normalised name. One player per link
 * and one link per player.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { PartnerLinkField, PartnerLinkState } from '../../db/schema/partner-links';
import { rowsOf } from '../../db/rows';
import { nameKeyOf } from './keys';

export interface LinkedUser {
  linkId: number;
  state: Extract<PartnerLinkState, 'claimed' | 'verified'>;
  externalId: string | null;
  id: string;
  username: string;
  avatarUrl: string | null;
  excluded: boolean;
  showName: boolean;
}

export interface PlayerIdentity {
  playerKey: string;
  username: string;
  externalId: string | null;
}

/**
 * A poll's players matched to their links (made in the standings write after its proofs and
 * pins: `checkPartnerLinks`), which a later reader of the same poll may reuse instead of reading all
 * the links again. Its pins only fixed each link to the player it matched, so matching the same
 * players again gives the same links and states; only a link's `externalId` may be older.
 */
export interface PlayersMatch {
  players: readonly PlayerIdentity[];
  links: ReadonlyMap<string, LinkedUser>;
}

/**
 * Whether `match` was made of exactly these players — the same keys with the same names and ids:
 * which link a player matches depends on every other player listed, so only the same list may
 * reuse it.
 */
export function sameMatch(match: PlayersMatch, players: readonly PlayerIdentity[]): boolean {
  if (match.players.length !== players.length) return false;
  const byKey = new Map(match.players.map((p) => [p.playerKey, p]));
  return players.every((p) => {
    const q = byKey.get(p.playerKey);
    return q !== undefined && q.username === p.username && (q.externalId ?? null) === (p.externalId ?? null);
  });
}

/** Each player's claimed or verified link. */
export async function linksForPlayers(
  db: DbOrTx,
  field: PartnerLinkField,
  players: readonly PlayerIdentity[],
): Promise<Map<string, LinkedUser>> {
  const out = new Map<string, LinkedUser>();
  if (players.length === 0) return out;
  const keys = new Set<string>();
  for (const p of players) {
    keys.add(nameKeyOf(p.username));
    if (p.externalId) keys.add(p.externalId.toLowerCase());
  }
  const rows = rowsOf<{
    link_id: string | number;
    state: 'claimed' | 'verified';
    name_key: string;
    external_id: string | null;
    id: string;
    username: string;
    avatar_url: string | null;
    excluded: boolean;
    show_name_on_boards: boolean;
  }>(
    await db.execute(sql`
      SELECT l.id AS link_id, l.state, l.name_key, l.external_id,
             u.id, u.username, u.avatar_url, u.excluded, u.show_name_on_boards
      FROM partner_links l JOIN users u ON u.id = l.user_id
      WHERE l.field = ${field} AND l.state IN ('claimed', 'verified')
        AND (l.name_key IN (SELECT jsonb_array_elements_text(${JSON.stringify([...keys])}::jsonb))
             OR l.external_id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...keys])}::jsonb)))
      ORDER BY l.id
    `),
  );
  const byExternal = new Map<string, LinkedUser>();
  const byName = new Map<string, LinkedUser>();
  for (const r of rows) {
    const linked: LinkedUser = {
      linkId: Number(r.link_id),
      state: r.state,
      externalId: r.external_id,
      id: r.id,
      username: r.username,
      avatarUrl: r.avatar_url,
      excluded: r.excluded,
      showName: r.show_name_on_boards,
    };
    // A link with a pinned partner id is that player's, whatever they are called now: a new player
    // under the old name (or under the id the user typed) never matches it.
    if (r.external_id) byExternal.set(r.external_id, linked);
    else byName.set(r.name_key, linked);
  }
  const taken = new Set<number>();
  const passes: Array<(p: PlayerIdentity) => LinkedUser | undefined> = [
    (p) => (p.externalId ? byExternal.get(p.externalId.toLowerCase()) : undefined),
    (p) => (p.externalId ? byName.get(p.externalId.toLowerCase()) : undefined),
    (p) => byName.get(nameKeyOf(p.username)),
  ];
  for (const pass of passes) {
    for (const p of players) {
      if (out.has(p.playerKey)) continue;
      const linked = pass(p);
      if (!linked || taken.has(linked.linkId)) continue;
      taken.add(linked.linkId);
      out.set(p.playerKey, linked);
    }
  }
  return out;
}

export interface VerifiedPartnerLink {
  userId: string;
  field: PartnerLinkField;
  value: string;
  externalId: string | null;
  verifiedAt: string | null;
}

/**
 * The verified partner links of these users: what a giveaway filter ("linked Clash account") must
 * check, so that a claimed or rejected id never makes a chatter eligible.
 */
export async function verifiedPartnerLinks(
  db: DbOrTx,
  userIds: readonly string[],
  field?: PartnerLinkField,
): Promise<VerifiedPartnerLink[]> {
  if (userIds.length === 0) return [];
  const rows = rowsOf<{
    user_id: string;
    field: PartnerLinkField;
    value: string;
    external_id: string | null;
    decided_at: string | Date | null;
  }>(
    await db.execute(sql`
      SELECT user_id, field, value, external_id, decided_at
      FROM partner_links
      WHERE state = 'verified'
        AND user_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::uuid)
        ${field ? sql`AND field = ${field}` : sql``}
      ORDER BY user_id, field
    `),
  );
  return rows.map((r) => ({
    userId: r.user_id,
    field: r.field,
    value: r.value,
    externalId: r.external_id,
    verifiedAt: r.decided_at === null ? null : new Date(r.decided_at).toISOString(),
  }));
}

/** The user's verified id for one field (what a daily reward pays out to), or null. */
export async function verifiedValue(db: DbOrTx, userId: string, field: PartnerLinkField): Promise<string | null> {
  const [link] = await verifiedPartnerLinks(db, [userId], field);
  return link?.value ?? null;
}

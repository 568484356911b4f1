/**
 * What the giveaway knows about chatters, read from stored data only — never a call to a partner
 * (docs/features/giveaway.md#entering-and-the-roll): the Kick chat activity (name, colour,
 * subscriber mark, last message), the site user who linked that Kick account (excluded or not,
 * avatar, Steam id), that user's VERIFIED partner links (a claimed or rejected id never counts),
 * the stored standings of the current leaderboard period for those links, and the chatters' recent
 * giveaway wins.
 *
 * Two readers: `load` gives whole participants (the entry, the list, the winners), `rollFacts` only
 * what a roll decides on, for a whole round in one aggregated value (a roll over 50,000 entries).
 *
 * Partner flags: "active on X" means a verified link to X and a standing on the code in X's current
 * period. `wagered10k`: wagered at least 10,000 (the site's unit) under the code in the current
 * period on one linked site. CSGOBig and Howl have no partner link on this site (leaderboards
 * `linkField: null`), so their flags stay false and `howlId` null.
 */
import { sql, type SQL } from 'drizzle-orm';
import { leaderboardSites } from '@kickback/common/http/leaderboards';
import type { GiveawayParticipant } from '@kickback/common/hubs/giveaway';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { activeBanSql } from '../kick-bans/service';
import type { ChatterFacts, FilterFacts, RollSettings } from './eligibility';
import { readStoredEntry, type StoredDrawEntry } from './snapshot';

export const WAGERED_10K = 10_000;

export interface Candidate {
  kickUserId: string;
  username: string;
  color: string | null;
}

export interface Chatter {
  candidate: Candidate;
  /** The site user who linked this Kick account, if any. */
  userId: string | null;
  /** When that user linked this Kick account (their sign-up for a link older than the column); null when unlinked. */
  kickLinkedAt: Date | null;
  facts: FilterFacts;
  view: GiveawayParticipant;
}

interface FactsRow {
  kick_user_id: string;
  username: string;
  color: string | null;
  user_id: string | null;
  kick_linked_at: string | Date | null;
  excluded: boolean | null;
  banned: boolean;
  avatar_url: string | null;
  steam_id: string | null;
  is_subscriber: boolean | null;
  clash_id: string | null;
  rustmagic_id: string | null;
  roobet_name: string | null;
  on_clash: boolean | null;
  on_rustmagic: boolean | null;
  on_roobet: boolean | null;
  wagered_10k: boolean | null;
}

const clashSites = sql.join(
  leaderboardSites.filter((s) => s.linkField === 'clashId').map((s) => sql`${s.id}`),
  sql`, `,
);
const siteOf = (slug: string) => leaderboardSites.find((s) => s.slug === slug)!.id;
const RUSTMAGIC = siteOf('rustmagic');
const ROOBET = siteOf('roobet');

/** (site, link field) of every site a partner link can belong to. */
const linkedSites = sql.join(
  leaderboardSites.filter((s) => s.linkField !== null).map((s) => sql`(${s.id}::smallint, ${s.linkField}::text)`),
  sql`, `,
);

/**
 * Current-period partner standings of the VERIFIED links of the users listed by `users` (a query
 * yielding user ids), per user. A link matches a standing on its site by the partner's id (the
 * link's resolved external id or its value) or by the name with spaces removed. Set-wise: each
 * standing's name key is computed once and the keys are hash-joined, never compared pair by pair.
 */
function partnerStandings(users: SQL, now: Date): SQL {
  return sql`
    WITH lk AS (
      SELECT l.user_id, ls.site, k.key
      FROM partner_links l
      JOIN (VALUES ${linkedSites}) AS ls (site, field) ON ls.field = l.field
      CROSS JOIN LATERAL (VALUES ('x:' || lower(l.external_id)), ('x:' || lower(l.value)), ('n:' || l.name_key)) AS k (key)
      WHERE l.state = 'verified' AND l.user_id IN (${users}) AND k.key IS NOT NULL
    ), sk AS (
      SELECT p.site, s.on_code, s.wagered, k.key
      FROM leaderboard_periods p
      JOIN leaderboard_standings s ON s.period_id = p.id
      CROSS JOIN LATERAL (VALUES ('x:' || lower(s.external_id)),
                                 ('n:' || regexp_replace(lower(s.username), '\\s', '', 'g'))) AS k (key)
      WHERE p.site IN (SELECT site FROM lk) AND p.start_at <= ${now} AND p.end_at > ${now} AND k.key IS NOT NULL
    )
    SELECT lk.user_id,
           bool_or(sk.site IN (${clashSites}) AND sk.on_code) AS on_clash,
           bool_or(sk.site = ${RUSTMAGIC} AND sk.on_code) AS on_rustmagic,
           bool_or(sk.site = ${ROOBET} AND sk.on_code) AS on_roobet,
           bool_or(sk.on_code AND sk.wagered >= ${WAGERED_10K}) AS wagered_10k
    FROM lk JOIN sk ON sk.site = lk.site AND sk.key = lk.key
    GROUP BY lk.user_id`;
}

/**
 * Facts for the chatters listed by `source`: a query yielding (kick_user_id, username, color,
 * ord) — the round's participants, or one chatter about to enter.
 */
async function load(db: DbOrTx, source: SQL, now: Date): Promise<Chatter[]> {
  const rows = rowsOf<FactsRow>(
    await db.execute(sql`
      WITH c AS (${source})
      SELECT c.kick_user_id, c.username, coalesce(a.color, c.color) AS color,
             u.id AS user_id, coalesce(u.kick_linked_at, u.created_at) AS kick_linked_at,
             u.excluded, u.avatar_url, u.steam_id,
             ${activeBanSql(sql`c.kick_user_id`, now)} AS banned,
             (a.is_subscriber OR coalesce(a.subscribed_until > ${now}, false)) AS is_subscriber,
             lv.clash_id, lv.rustmagic_id, lv.roobet_name,
             st.on_clash, st.on_rustmagic, st.on_roobet, st.wagered_10k
      FROM c
      LEFT JOIN kick_chat_activity a ON a.kick_user_id = c.kick_user_id
      LEFT JOIN users u ON u.kick_id = c.kick_user_id
      LEFT JOIN LATERAL (
        SELECT max(l.value) FILTER (WHERE l.field = 'clashId') AS clash_id,
               max(l.value) FILTER (WHERE l.field = 'rustMagicId') AS rustmagic_id,
               max(l.value) FILTER (WHERE l.field = 'roobetName') AS roobet_name
        FROM partner_links l WHERE l.user_id = u.id AND l.state = 'verified'
      ) lv ON u.id IS NOT NULL
      LEFT JOIN (${partnerStandings(sql`SELECT u2.id FROM c JOIN users u2 ON u2.kick_id = c.kick_user_id`, now)}) st
        ON st.user_id = u.id
      ORDER BY c.ord, c.kick_user_id
    `),
  );
  return rows.map((r) => {
    const linked = r.user_id !== null;
    const facts: FilterFacts = {
      excluded: r.excluded === true,
      banned: r.banned === true,
      isSubscriber: r.is_subscriber === true,
      hasVerifiedClash: r.clash_id !== null,
      isActiveRustMagic: r.on_rustmagic === true,
      isActiveOnRoobet: r.on_roobet === true,
    };
    const view: GiveawayParticipant = {
      kickUserId: r.kick_user_id,
      username: r.username,
      identity: { color: r.color },
      isSubscriber: facts.isSubscriber,
      account: linked
        ? {
            avatarUrl: r.avatar_url,
            clashId: r.clash_id,
            steam64id: r.steam_id,
            rustMagicId: r.rustmagic_id,
            howlId: null,
            roobetName: r.roobet_name,
          }
        : null,
      isActiveOnClash: r.on_clash === true,
      isActiveOnCsGoBig: false,
      isActiveRustMagic: facts.isActiveRustMagic,
      isActiveOnHowl: false,
      isActiveOnRoobet: facts.isActiveOnRoobet,
      wagered10k: r.wagered_10k === true,
    };
    return {
      candidate: { kickUserId: r.kick_user_id, username: r.username, color: r.color },
      userId: r.user_id,
      kickLinkedAt: r.kick_linked_at === null ? null : new Date(r.kick_linked_at),
      facts,
      view,
    };
  });
}

/** One chatter about to enter with a key. */
export async function chatterFacts(db: DbOrTx, candidate: Candidate, now: Date): Promise<Chatter | null> {
  const [one] = await load(
    db,
    sql`SELECT ${candidate.kickUserId}::text AS kick_user_id, ${candidate.username}::text AS username,
               ${candidate.color}::text AS color, 0::bigint AS ord`,
    now,
  );
  return one ?? null;
}

/** Every participant of a round, in the order they entered. */
export function roundFacts(db: DbOrTx, roundId: number, now: Date): Promise<Chatter[]> {
  return load(
    db,
    sql`SELECT kick_user_id, kick_username AS username, color,
               extract(epoch FROM entered_at)::float8 AS ord
        FROM giveaway_participants WHERE round_id = ${roundId}`,
    now,
  );
}

/** The participants (in the order they entered) whose Kick ids are listed. */
export function participantsFacts(db: DbOrTx, roundId: number, kickUserIds: readonly string[], now: Date) {
  return load(
    db,
    sql`SELECT kick_user_id, kick_username AS username, color,
               extract(epoch FROM entered_at)::float8 AS ord
        FROM giveaway_participants
        WHERE round_id = ${roundId}
          AND kick_user_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(kickUserIds)}::jsonb)))`,
    now,
  );
}

const EXCLUDED = 1;
const SUBSCRIBER = 2;
const VERIFIED_CLASH = 4;
const ON_RUSTMAGIC = 8;
const ON_ROOBET = 16;
const BANNED = 32;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const ZERO = 0x30;
const MINUS = 0x2d;

/**
 * Every participant of a round with the facts a roll under `settings` decides on, handed to
 * `visit` one by one in Kick user id order (`COLLATE "C"`; ./snapshot checks it). Built for 50,000
 * participants: the database sends the round as ONE aggregated text rather than 50,000 rows, a line
 * per participant (`flags,lastMessageMs,draw_entry`, the stored draw entry last and untouched, so
 * the snapshot is built from it without a JSON round trip), everyone's recent wins come from a
 * second small query, and `facts` is a single object refilled for each participant — read it during
 * the call, never keep it. Returns the number of participants.
 *
 * Only the facts these settings look at are read; the others are left at what makes no filter
 * refuse (false, or no date): the partner facts when their filter is off (the costly standings
 * join), `lastMessageAt` when the chat activity filter is off, and `lastWonAt` for wins older than
 * the cooldown. `rollRefusal` then answers as it would on complete facts.
 */
export async function eachRollFact(
  db: DbOrTx,
  roundId: number,
  settings: RollSettings,
  now: Date,
  visit: (entry: StoredDrawEntry, facts: Readonly<ChatterFacts>) => void,
): Promise<number> {
  const clash = settings.isClashIdLinkedOnly
    ? sql` + CASE WHEN u.id IS NOT NULL AND EXISTS (SELECT 1 FROM partner_links l
             WHERE l.user_id = u.id AND l.field = 'clashId' AND l.state = 'verified') THEN ${VERIFIED_CLASH} ELSE 0 END`
    : sql``;
  const standings = settings.isRustMagicCodeOnly || settings.isRoobetCodeOnly;
  const partner = standings
    ? sql` + CASE WHEN st.on_rustmagic THEN ${ON_RUSTMAGIC} ELSE 0 END + CASE WHEN st.on_roobet THEN ${ON_ROOBET} ELSE 0 END`
    : sql``;
  const standingsJoin = standings
    ? sql`LEFT JOIN (${partnerStandings(
        sql`SELECT u2.id FROM giveaway_participants p2 JOIN users u2 ON u2.kick_id = p2.kick_user_id WHERE p2.round_id = ${roundId}`,
        now,
      )}) st ON st.user_id = u.id`
    : sql``;
  const activity = settings.chatActivityFilterInSeconds > 0;
  const lastMessage = activity ? sql`floor(extract(epoch FROM a.last_message_at) * 1000)::bigint::text` : sql`''`;
  // The ordered aggregate sorts the whole round at once: in memory, not in a temporary file.
  await db.execute(sql`SET LOCAL work_mem = '64MB'`);
  const [row] = rowsOf<{ n: number | string; list: string | null }>(
    await db.execute(sql`
      SELECT count(*) AS n, string_agg(
               (CASE WHEN u.excluded THEN ${EXCLUDED} ELSE 0 END
                + CASE WHEN b.kick_user_id IS NOT NULL THEN ${BANNED} ELSE 0 END
                + CASE WHEN a.is_subscriber OR a.subscribed_until > ${now} THEN ${SUBSCRIBER} ELSE 0 END
                ${clash}${partner})::text
               || ',' || coalesce(${lastMessage}, '') || ',' || p.draw_entry,
               E'\n' ORDER BY p.kick_user_id COLLATE "C") AS list
      FROM giveaway_participants p
      LEFT JOIN kick_chat_activity a ON a.kick_user_id = p.kick_user_id
      LEFT JOIN users u ON u.kick_id = p.kick_user_id
      LEFT JOIN kick_bans b ON b.kick_user_id = p.kick_user_id AND b.lifted_at IS NULL
                            AND (b.expires_at IS NULL OR b.expires_at > ${now})
      ${standingsJoin}
      WHERE p.round_id = ${roundId}
    `),
  );
  const count = Number(row?.n ?? 0);
  if (count === 0) return 0;
  const wonAt = new Map<string, Date>();
  if (settings.rewinCooldownInSeconds > 0) {
    const since = new Date(now.getTime() - settings.rewinCooldownInSeconds * 1000);
    const won = rowsOf<{ kick_user_id: string; won_at: string | Date }>(
      await db.execute(sql`
        SELECT w.kick_user_id, max(w.won_at) AS won_at
        FROM giveaway_winners w
        WHERE w.won_at > ${since}
        GROUP BY w.kick_user_id
      `),
    );
    for (const w of won) wonAt.set(w.kick_user_id, new Date(w.won_at));
  }
  const bytes = Buffer.from(row?.list ?? '', 'utf8');
  const lastMessageAt = new Date(0);
  const facts: ChatterFacts = {
    excluded: false,
    banned: false,
    isSubscriber: false,
    hasVerifiedClash: false,
    isActiveRustMagic: false,
    isActiveOnRoobet: false,
    lastMessageAt: null,
    lastWonAt: null,
  };
  const entry: StoredDrawEntry = { bytes, start: 0, end: 0, idEnd: -1, kickUserId: '' };
  let seen = 0;
  for (let at = 0; at < bytes.length; seen++) {
    // A byte loop: Buffer#indexOf costs more per call than these few dozen bytes.
    let end = at;
    while (end < bytes.length && bytes[end] !== NEWLINE) end++;
    let i = at;
    let flags = 0;
    for (; i < end && bytes[i] !== COMMA; i++) flags = flags * 10 + bytes[i]! - ZERO;
    // The last message's epoch milliseconds, or nothing (no activity, or the filter is off).
    const digits = ++i;
    const negative = bytes[i] === MINUS;
    let ms = 0;
    for (i += negative ? 1 : 0; i < end && bytes[i] !== COMMA; i++) ms = ms * 10 + bytes[i]! - ZERO;
    if (i >= end) throw new Error('a giveaway draw entry holds a raw line break');
    const lastMessageMs = i === digits ? null : negative ? -ms : ms;
    readStoredEntry(entry, i + 1, end);
    facts.excluded = (flags & EXCLUDED) !== 0;
    facts.banned = (flags & BANNED) !== 0;
    facts.isSubscriber = (flags & SUBSCRIBER) !== 0;
    facts.hasVerifiedClash = (flags & VERIFIED_CLASH) !== 0;
    facts.isActiveRustMagic = (flags & ON_RUSTMAGIC) !== 0;
    facts.isActiveOnRoobet = (flags & ON_ROOBET) !== 0;
    facts.lastMessageAt = lastMessageMs === null ? null : (lastMessageAt.setTime(lastMessageMs), lastMessageAt);
    facts.lastWonAt = wonAt.size > 0 ? (wonAt.get(entry.kickUserId) ?? null) : null;
    visit(entry, facts);
    at = end + 1;
  }
  // A stored entry is JSON, which holds no raw line break: a count that differs means one did.
  if (seen !== count) throw new Error('a giveaway draw entry holds a raw line break');
  return count;
}

/** A participant's `draw_entry`: the JSON of their Kick id and name, comma-separated. */
export function drawEntryOf(kickUserId: string, username: string): string {
  return `${JSON.stringify(kickUserId)},${JSON.stringify(username)}`;
}

/** The name, colour and avatar of the listed participants (the overlay's reel). */
export async function reelNames(
  db: DbOrTx,
  roundId: number,
  kickUserIds: readonly string[],
): Promise<Array<{ username: string; color: string | null; avatarUrl: string | null }>> {
  if (kickUserIds.length === 0) return [];
  return rowsOf<{ username: string; color: string | null; avatarUrl: string | null }>(
    await db.execute(sql`
      SELECT p.kick_username AS username, coalesce(a.color, p.color) AS color, u.avatar_url AS "avatarUrl"
      FROM giveaway_participants p
      LEFT JOIN kick_chat_activity a ON a.kick_user_id = p.kick_user_id
      LEFT JOIN users u ON u.kick_id = p.kick_user_id
      WHERE p.round_id = ${roundId}
        AND p.kick_user_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(kickUserIds)}::jsonb)))
    `),
  );
}

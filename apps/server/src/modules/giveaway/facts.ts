/**
 * What the giveaway knows about chatters, read in one query from stored data only — never a call
 * to a partner (DESIGN §10): the Kick chat activity (name, colour, subscriber mark, last message),
 * the site user who linked that Kick account (excluded or not, avatar, Steam id), that user's
 * VERIFIED partner links (a claimed or rejected id never counts), the stored standings of the
 * current leaderboard period for those links, and the chatter's last giveaway win.
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
import type { ChatterFacts } from './eligibility';

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
  facts: ChatterFacts;
  view: GiveawayParticipant;
}

interface FactsRow {
  kick_user_id: string;
  username: string;
  color: string | null;
  user_id: string | null;
  excluded: boolean | null;
  avatar_url: string | null;
  steam_id: string | null;
  is_subscriber: boolean | null;
  last_message_at: string | Date | null;
  last_won_at: string | Date | null;
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

const toDate = (v: string | Date | null): Date | null => (v === null ? null : new Date(v));

/**
 * Facts for the chatters listed by `source`: a query yielding (kick_user_id, username, color,
 * ord) — the round's participants, or one chatter about to enter.
 */
async function load(db: DbOrTx, source: SQL, now: Date): Promise<Chatter[]> {
  const rows = rowsOf<FactsRow>(
    await db.execute(sql`
      WITH c AS (${source})
      SELECT c.kick_user_id, c.username, coalesce(a.color, c.color) AS color,
             u.id AS user_id, u.excluded, u.avatar_url, u.steam_id,
             (a.is_subscriber OR coalesce(a.subscribed_until > ${now}, false)) AS is_subscriber,
             a.last_message_at,
             (SELECT max(w.won_at) FROM giveaway_winners w WHERE w.kick_user_id = c.kick_user_id) AS last_won_at,
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
      LEFT JOIN LATERAL (
        SELECT bool_or(ls.site IN (${clashSites}) AND s.on_code) AS on_clash,
               bool_or(ls.site = ${RUSTMAGIC} AND s.on_code) AS on_rustmagic,
               bool_or(ls.site = ${ROOBET} AND s.on_code) AS on_roobet,
               bool_or(s.on_code AND s.wagered >= ${WAGERED_10K}) AS wagered_10k
        FROM partner_links l
        JOIN (VALUES ${linkedSites}) AS ls (site, field) ON ls.field = l.field
        JOIN leaderboard_periods p ON p.site = ls.site AND p.start_at <= ${now} AND p.end_at > ${now}
        JOIN leaderboard_standings s ON s.period_id = p.id
          AND ((l.external_id IS NOT NULL AND lower(s.external_id) = lower(l.external_id))
               OR lower(s.external_id) = lower(l.value)
               OR regexp_replace(lower(s.username), '\\s', '', 'g') = l.name_key)
        WHERE l.user_id = u.id AND l.state = 'verified'
      ) st ON u.id IS NOT NULL
      ORDER BY c.ord, c.kick_user_id
    `),
  );
  return rows.map((r) => {
    const linked = r.user_id !== null;
    const facts: ChatterFacts = {
      excluded: r.excluded === true,
      isSubscriber: r.is_subscriber === true,
      hasVerifiedClash: r.clash_id !== null,
      isActiveRustMagic: r.on_rustmagic === true,
      isActiveOnRoobet: r.on_roobet === true,
      lastMessageAt: toDate(r.last_message_at),
      lastWonAt: toDate(r.last_won_at),
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

/**
 * Key entries from chat, batched: the keys typed within a few milliseconds (or up to a few hundred)
 * go to PostgreSQL in ONE statement, which for each checks that the text is an active key, reads
 * the round and its filters and the sender's stored chat activity (colour, subscription), and —
 * for a chatter no site user linked, while no filter is on (the usual case) — inserts the entry
 * (once per chatter and round: the primary key) — never for a chatter banned on Kick at that time,
 * nor for one the ages refuse (docs/features/fair-earning.md#account-and-link-age): the fair-earning
 * minimum Kick account age, and the giveaway's "linked at least N days", which an unlinked chatter
 * never meets. Each caller gets its own row back once the statement committed, so nothing is
 * announced or answered before the entry is durable.
 */
import type { Database } from '../../db/client';
import { StatementBatcher } from '../../lib/statement-batcher';
import { AGE_SETTINGS_SQL } from '../fair-earning/service';

export interface EntryRequest {
  /** The message text, trimmed and lower case. */
  key: string;
  kickUserId: string;
  kickUsername: string;
  drawEntry: string;
  color: string | null;
  at: Date;
  /** Whether the statement may insert the entry (an unlinked chatter: no partner facts to check). */
  mayInsert: boolean;
}

/** Null: the text is not an active key. */
export interface EntryRow extends Record<string, unknown> {
  n: number;
  round_id: string | number;
  is_sub_only: boolean;
  is_clash_id_linked_only: boolean;
  is_rust_magic_code_only: boolean;
  is_roobet_code_only: boolean;
  /** The giveaway's "linked at least N days" (0: off). */
  min_linked_days: number;
  /** The fair-earning minimum link age (0: off); the statement leaves it to the caller (a linked chatter). */
  min_link_days: number;
  color: string | null;
  is_subscriber: boolean | null;
  /** Banned on Kick at the entry's time (never inserted). */
  banned: boolean;
  /** Known to this channel for less than the fair-earning minimum Kick account age (never inserted). */
  account_too_new: boolean;
  inserted: boolean;
}

/**
 * $1 the requests as JSON (n: the position in the batch). The insert happens only when no filter is
 * on: then the entry filters refuse only an excluded account, and an unlinked chatter is never one.
 * "Linked at least N days" on is a filter an unlinked chatter fails, so it turns the insert off too;
 * the fair-earning Kick account age is decided here for every chatter, from the stored first sight
 * (`first_seen_at`, else the activity row's `updated_at`, as ../fair-earning/ages does), read by the
 * same primary-key probe as the colour. Two requests of one chatter in a batch: the first (lowest n)
 * is the one that may insert. The colour and subscriber mark are the stored chat activity's, as in
 * ./facts.
 */
export const ENTRY_STATEMENT = `
  WITH i AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (
      n int, key text, kick_user_id text, kick_username text, draw_entry text, color text, at timestamptz,
      may_insert boolean)
  ), s AS (
    SELECT g.round_id, g.is_sub_only, g.is_clash_id_linked_only, g.is_rust_magic_code_only, g.is_roobet_code_only,
           g.min_linked_days, coalesce(f.min_kick_account_days, 0) AS min_kick_account_days,
           coalesce(f.min_link_days, 0) AS min_link_days
    FROM giveaway_settings g LEFT JOIN (${AGE_SETTINGS_SQL}) f ON true
    WHERE g.id = 1
  ), k AS (
    SELECT i.*, coalesce(a.color, i.color) AS entry_color,
           (a.is_subscriber OR coalesce(a.subscribed_until > i.at, false)) AS is_subscriber,
           coalesce(a.first_seen_at, a.updated_at) AS first_seen_at,
           row_number() OVER (PARTITION BY i.kick_user_id ORDER BY i.n) AS nth,
           EXISTS (SELECT 1 FROM kick_bans b WHERE b.kick_user_id = i.kick_user_id AND b.lifted_at IS NULL
                   AND (b.expires_at IS NULL OR b.expires_at > i.at)) AS banned
    FROM i
    JOIN giveaway_keys gk ON gk.key_lower = i.key AND gk.is_active
    -- One primary-key probe per request, whatever the table's size was when the plan was made
    -- (OFFSET 0 keeps it a per-row lookup: as a plain join, a plan made on a fresh table hashes
    -- the WHOLE table for every batch once it has grown).
    LEFT JOIN LATERAL (
      SELECT a.color, a.is_subscriber, a.subscribed_until, a.first_seen_at, a.updated_at FROM kick_chat_activity a
      WHERE a.kick_user_id = i.kick_user_id OFFSET 0
    ) a ON true
  ), ks AS (
    SELECT k.*, s.*,
           (s.min_kick_account_days > 0
            AND (k.first_seen_at IS NULL OR k.first_seen_at > k.at - make_interval(days => s.min_kick_account_days)))
             AS account_too_new
    FROM k CROSS JOIN s
  ), ins AS (
    INSERT INTO giveaway_participants (round_id, kick_user_id, kick_username, draw_entry, color, entered_at)
    SELECT ks.round_id, ks.kick_user_id, ks.kick_username, ks.draw_entry, ks.entry_color, ks.at
    FROM ks
    WHERE ks.may_insert AND ks.nth = 1 AND NOT ks.banned AND NOT ks.account_too_new
      AND NOT (ks.is_sub_only OR ks.is_clash_id_linked_only OR ks.is_rust_magic_code_only OR ks.is_roobet_code_only
               OR ks.min_linked_days > 0)
    ON CONFLICT DO NOTHING
    RETURNING kick_user_id
  )
  SELECT ks.n, ks.round_id, ks.is_sub_only, ks.is_clash_id_linked_only, ks.is_rust_magic_code_only,
         ks.is_roobet_code_only, ks.min_linked_days, ks.min_link_days, ks.entry_color AS color, ks.is_subscriber,
         ks.banned, ks.account_too_new,
         (ks.nth = 1 AND EXISTS (SELECT 1 FROM ins WHERE ins.kick_user_id = ks.kick_user_id)) AS inserted
  FROM ks`;

export class GiveawayEntries {
  private readonly batcher: StatementBatcher<EntryRequest, EntryRow | null>;

  constructor(database: Database) {
    this.batcher = new StatementBatcher(async (requests) => {
      const rows = await database.query<EntryRow>(
        ENTRY_STATEMENT,
        [
          JSON.stringify(
            requests.map((r, n) => ({
              n,
              key: r.key,
              kick_user_id: r.kickUserId,
              kick_username: r.kickUsername,
              draw_entry: r.drawEntry,
              color: r.color,
              at: r.at.toISOString(),
              may_insert: r.mayInsert,
            })),
          ),
        ],
        'kickback_giveaway_enter_batch',
      );
      const byN = new Map(rows.map((r) => [Number(r.n), r]));
      return requests.map((_, n) => byN.get(n) ?? null);
    });
  }

  /** Checks the key and (when allowed) enters; settles once committed. */
  enter(request: EntryRequest): Promise<EntryRow | null> {
    return this.batcher.add(request);
  }

  /** Statements written so far (tests read it). */
  get batches(): number {
    return this.batcher.batches;
  }

  drain(): Promise<void> {
    return this.batcher.drain();
  }
}

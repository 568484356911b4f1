/**
 * What happens to each row that points at a user when the account is removed
 * (docs/features/site-and-admin-tools.md#removing-an-account): one entry per foreign key to
 * `users`, so a new one cannot be added without deciding (policy.test.ts reads the database's
 * foreign keys and fails on one missing here).
 *
 * The rule: a finished draw, game or board is history. Its rows stay, pointing at the removed
 * account (the user row is kept as a tombstone named "removed account"), so what was announced
 * and what a verify page recomputes never change. What is only the person's own (sessions,
 * balance, orders, links) is deleted. An event still running loses the person's part in it when
 * that part is not yet published (an open raffle's tickets, an open hunt's guess, an unsettled
 * prediction's bet); a game already under way keeps its seat and runs to its end.
 */
import { sql, type SQL } from 'drizzle-orm';

export type RemovalPolicy =
  /** The rows stay and point at the tombstone. */
  | { keep: 'always'; why: string }
  /** The rows are deleted (`remove`, or a plain delete by the column). */
  | { keep: 'never'; why: string; remove?: (ids: SQL) => SQL }
  /** The rows of finished events stay; `remove` deletes those of events still open. */
  | { keep: 'finished'; why: string; remove: (ids: SQL) => SQL };

const history = (why: string): RemovalPolicy => ({ keep: 'always', why });
const own = (why: string, remove?: (ids: SQL) => SQL): RemovalPolicy => ({ keep: 'never', why, remove });
const staffMark = history('who did an admin action: the record of it stays');

/** Keyed `table.column`, in the order the deletions run. */
export const removalPolicies: Record<string, RemovalPolicy> = {
  'sessions.user_id': own('sign-ins'),
  'kick_link_codes.user_id': own('pending Kick link codes'),
  'discord_oauth_states.user_id': own('pending Discord sign-ins'),
  'kick_bot_oauth_states.created_by': own('a pending bot authorisation'),
  'chat_point_minutes.user_id': own('chat minutes not yet paid'),
  'earning_daily_totals.user_id': own("the day's earning totals the daily caps read"),
  'account_signals.user_id': own('hashed sign-in signals (possible alts)'),
  'daily_reward_claims.user_id': own('daily reward claims'),
  'partner_disputes.user_id': own('partner disputes'),
  'partner_links.user_id': own('partner account links'),
  'milestone_progress.user_id': own('milestone ladder progress'),
  'game_chat_messages.user_id': own('game chat lines'),
  'store_purchase_slots.user_id': own('store limit bookkeeping (last purchase of a limited product)'),
  'store_restock_requests.user_id': own('"notify me when back in stock" requests'),
  'notifications.user_id': own('site notifications'),
  'orders.user_id': own(
    'store orders (a code sold on one goes with it: it has no cascade)',
    (ids) => sql`
      WITH gone AS (SELECT id FROM orders WHERE user_id IN (${ids})),
           codes AS (DELETE FROM product_codes WHERE order_id IN (SELECT id FROM gone))
      DELETE FROM orders WHERE id IN (SELECT id FROM gone)`,
  ),
  'fulfilment_items.user_id': own('deliveries and held prizes nobody can receive'),
  'ledger.user_id': own('the balance and its ledger (the balance is set to zero with it)'),

  'raffle_entries.user_id': {
    keep: 'finished',
    why: "a closed raffle's snapshot is hashed: its entries stay; an open raffle's are taken out",
    remove: (ids) =>
      sql`DELETE FROM raffle_entries e USING raffles r WHERE r.id = e.raffle_id AND r.status IN ('draft', 'open') AND e.user_id IN (${ids})`,
  },
  'raffle_tickets.user_id': {
    keep: 'finished',
    why: "tickets sold stay as announced once the raffle closed; an open raffle's are taken out",
    remove: (ids) =>
      sql`DELETE FROM raffle_tickets t USING raffles r WHERE r.id = t.raffle_id AND r.status IN ('draft', 'open') AND t.user_id IN (${ids})`,
  },
  'raffle_winners.user_id': history('announced winners'),
  'hunt_guesses.user_id': {
    keep: 'finished',
    why: 'a closed guess list is hashed and published: it stays; a guess while guessing is open is taken out',
    remove: (ids) =>
      sql`DELETE FROM hunt_guesses g USING hunts h WHERE h.id = g.hunt_id AND h.guessing = 'open' AND g.user_id IN (${ids})`,
  },
  'hunts.winner_user_id': history("a finished hunt's winner"),
  'prediction_bets.user_id': {
    keep: 'finished',
    why: "a settled prediction's pool stays; a bet on an unsettled one is taken out",
    remove: (ids) =>
      sql`DELETE FROM prediction_bets b WHERE b.user_id IN (${ids})
          AND NOT EXISTS (SELECT 1 FROM prediction_settlements s WHERE s.prediction_id = b.prediction_id)`,
  },
  'split_or_steal_games.player1_user_id': history('a seat in a game: the game keeps its players'),
  'split_or_steal_games.player2_user_id': history('a seat in a game: the game keeps its players'),
  'split_or_steal_games.designated1_user_id': history('who a private game was for'),
  'split_or_steal_games.designated2_user_id': history('who a private game was for'),
  'live_games.owner_user_id': history('the player of a game (Deal or No Deal) or its host'),
  'giveaway_participants.user_id': history("a giveaway round's entries (its draw reads them)"),
  'giveaway_winners.user_id': history('announced giveaway winners'),
  'leaderboard_results.user_id': history("a closed board's results"),
  'challenges.winner_user_id': history("a challenge's winner"),
  'staff_prize_payouts.user_id': history("the day's tally a Moderator's prizes are capped by"),
  'support_rewards.user_id': history('support rewards paid for Kick events'),
  'kick_reward_redemptions.user_id': history('channel-point redemptions'),
  'slot_calls.user_id': history('slot calls (a hunt bonus may come from one)'),
  'stream_attendance.user_id': own('streams attended (stream streaks)'),
  'stream_streaks.user_id': own('the stream streak'),
  'stream_streak_payouts.user_id': own('streak bonuses paid (the ledger keeps the points)'),
  'discord_broadcast_recipients.user_id': history('who a sent broadcast reached'),
  'chat_messages.linked_user_id': history("Kick chat's own log"),

  'audit_log.actor_user_id': staffMark,
  'fulfilment_items.handled_by': staffMark,
  'split_or_steal_games.created_by': staffMark,
  'discord_broadcasts.created_by': staffMark,
  'kick_bot_tokens.connected_by': staffMark,
  'giveaway_settings.updated_by': staffMark,
  'giveaway_draws.rolled_by': staffMark,
  'hunts.created_by': staffMark,
  'live_games.created_by': staffMark,
  'live_games.finished_by': staffMark,
  'slot_calls.hunted_by': staffMark,
  'fulfilment_items.run_by': staffMark,
  'product_codes.uploaded_by': staffMark,
  'staff_prize_limits.updated_by': staffMark,
  'milestone_ladders.updated_by': staffMark,
  'fair_earning_settings.updated_by': staffMark,
  'images.uploaded_by': staffMark,
  'kick_bans.lifted_by': staffMark,
  'support_reward_settings.updated_by': staffMark,
  'support_rewards.reversed_by': staffMark,
  'kick_channel_rewards.created_by': staffMark,
  'raffles.created_by': staffMark,
  'slot_call_picks.picked_by': staffMark,
  'slot_catalogue.added_by': staffMark,
};

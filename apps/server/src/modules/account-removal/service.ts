/**
 * Removing accounts (docs/features/site-and-admin-tools.md#removing-an-account): the one place
 * that decides what of a person goes and what stays, by the table of policies in policy.ts. The
 * user row is kept as a tombstone ("removed account", no sign-in, no balance) so the finished
 * events it took part in keep every row their announcements and proofs were made from.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FinishedEvent } from '@kickback/common/http/integrations';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { removalPolicies } from './policy';

/** The name a removed account shows under wherever a page names people. */
export const REMOVED_ACCOUNT_NAME = 'removed account';

const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** The finished events (draws, games; what the demo removal's confirmation lists) any of these users took part in, newest first. */
export async function finishedEventsOf(db: DbOrTx, userIds: string[]): Promise<FinishedEvent[]> {
  if (userIds.length === 0) return [];
  const ids = idList(userIds);
  const rows = rowsOf<{ kind: FinishedEvent['kind']; id: string; title: string; at: string | Date }>(
    await db.execute(sql`
      SELECT 'raffle' AS kind, r.id::text AS id, r.title, coalesce(r.closed_at, r.created_at) AS at FROM raffles r
        WHERE r.status IN ('closed', 'drawn')
          AND EXISTS (SELECT 1 FROM raffle_entries e WHERE e.raffle_id = r.id AND e.user_id IN (${ids}))
      UNION ALL
      SELECT 'hunt', h.id::text, h.name, coalesce(h.guessing_closed_at, h.created_at) FROM hunts h
        WHERE h.guessing = 'closed'
          AND (h.winner_user_id IN (${ids})
            OR EXISTS (SELECT 1 FROM hunt_guesses g WHERE g.hunt_id = h.id AND g.user_id IN (${ids})))
      UNION ALL
      SELECT 'splitOrSteal', g.id::text, g.reward::text, g.ended_at FROM split_or_steal_games g
        WHERE g.ended_at IS NOT NULL AND (g.player1_user_id IN (${ids}) OR g.player2_user_id IN (${ids}))
      UNION ALL
      SELECT 'battle', b.id::text, coalesce(b.state->>'title', ''), b.updated_at FROM live_games b
        WHERE b.kind = 'bonus_battle' AND b.state->>'drawnAt' IS NOT NULL
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(b.state->'entrants') e
                      WHERE e->>'userId' IN (SELECT u::text FROM unnest(ARRAY[${ids}]) u))
      UNION ALL
      SELECT 'giveaway', d.id::text, '', d.rolled_at FROM giveaway_draws d
        WHERE d.rolled_at IS NOT NULL
          AND EXISTS (SELECT 1 FROM giveaway_winners w WHERE w.draw_id = d.id AND w.user_id IN (${ids}))
      UNION ALL
      SELECT 'prediction', p.id::text, coalesce(p.state->>'question', ''), s.settled_at FROM live_games p
        JOIN prediction_settlements s ON s.prediction_id = p.id
        WHERE EXISTS (SELECT 1 FROM prediction_bets b WHERE b.prediction_id = p.id AND b.user_id IN (${ids}))
      ORDER BY at DESC
    `),
  );
  return rows.map((r) => ({ kind: r.kind, title: eventTitle(r.kind, r.title), href: eventHref(r.kind, r.id) }));
}

function eventTitle(kind: FinishedEvent['kind'], title: string): string {
  switch (kind) {
    case 'raffle':
      return `Raffle "${title}"`;
    case 'hunt':
      return `Bonus hunt "${title}"`;
    case 'splitOrSteal':
      return `Split or Steal for ${Number(title).toLocaleString('en-US', { minimumFractionDigits: 2 })} points`;
    case 'battle':
      return `Bonus buy battle "${title}"`;
    case 'giveaway':
      return 'Giveaway draw';
    case 'prediction':
      return `Prediction "${title}"`;
  }
}

function eventHref(kind: FinishedEvent['kind'], id: string): string | null {
  switch (kind) {
    case 'raffle':
      return `/raffles/${id}/verify`;
    case 'hunt':
      return '/hunt';
    case 'splitOrSteal':
      return `/game/splitorsteal/${id}`;
    case 'battle':
      return `/battle/${id}/verify`;
    case 'giveaway':
      return `/giveaway/verify/${id}`;
    case 'prediction':
      return null;
  }
}

/**
 * Removes these accounts in the caller's transaction: each row pointing at them is kept or
 * deleted by its policy (policy.ts), a battle's entrant list names them "removed account" (the
 * hashed snapshot is left as it was), and the user rows become tombstones.
 */
export async function removeAccounts(tx: DbOrTx, userIds: string[], now: Date): Promise<void> {
  if (userIds.length === 0) return;
  const ids = idList(userIds);
  for (const [key, policy] of Object.entries(removalPolicies)) {
    if (policy.keep === 'always') continue;
    const [table, column] = key.split('.') as [string, string];
    await tx.execute(
      policy.remove
        ? policy.remove(ids)
        : sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} IN (${ids})`,
    );
  }
  await tx.execute(sql`
    UPDATE live_games b SET state = jsonb_set(b.state, '{entrants}', (
      SELECT jsonb_agg(CASE WHEN e->>'userId' IN (SELECT u::text FROM unnest(ARRAY[${ids}]) u)
                            THEN jsonb_set(e, '{username}', to_jsonb(${REMOVED_ACCOUNT_NAME}::text)) ELSE e END ORDER BY n)
      FROM jsonb_array_elements(b.state->'entrants') WITH ORDINALITY AS x(e, n)))
    WHERE b.kind = 'bonus_battle' AND jsonb_array_length(b.state->'entrants') > 0
      AND EXISTS (SELECT 1 FROM jsonb_array_elements(b.state->'entrants') e
                  WHERE e->>'userId' IN (SELECT u::text FROM unnest(ARRAY[${ids}]) u))
  `);
  await tx.execute(sql`
    UPDATE users SET
      username = ${REMOVED_ACCOUNT_NAME}, steam_id = 'removed:' || id::text, avatar_url = NULL, role = 'User',
      points = 0, gems = 0, points_debt = 0, show_name_on_boards = false, excluded = true,
      kick_id = NULL, kick_username = NULL, discord_id = NULL, discord_username = NULL, discord_dm_closed_at = NULL,
      clash_id = NULL, rustmagic_id = NULL, roobet_name = NULL, cases_id = NULL, removed_at = ${now}
    WHERE id IN (${ids})
  `);
}

/**
 * Who may enter a battle (docs/features/bonus-buy-battles.md#who-may-enter), from stored data only
 * — never a call to a partner: never an excluded or banned account; and, as the battle asks, a
 * verified partner link on the chosen site, a wager under the code on that site in its current
 * leaderboard period of at least the minimum (the stored standings, matched to the link as the
 * giveaway matches them: the partner id, else the name without spaces), a current Kick
 * subscription.
 */
import { sql } from 'drizzle-orm';
import type { BattleRules } from '@kickback/common/games/battle';
import { siteById } from '@kickback/common/http/leaderboards';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { activeBanSql, isBanned } from '../kick-bans/service';

interface Facts {
  excluded: boolean;
  is_sub: boolean;
  has_link: boolean;
  wagered: string | null;
}

/** Why the user may not enter a battle with these rules, or null when they may. */
export async function entryRefusal(db: DbOrTx, rules: BattleRules, userId: string, now: Date): Promise<string | null> {
  const site = rules.siteId === null ? undefined : siteById(rules.siteId);
  const field = site?.linkField ?? null;
  const at = now.toISOString();
  const [facts] = rowsOf<Facts>(
    await db.execute(sql`
      WITH lk AS (
        SELECT k.key FROM partner_links l
        CROSS JOIN LATERAL (VALUES ('x:' || lower(l.external_id)), ('x:' || lower(l.value)), ('n:' || l.name_key)) AS k (key)
        WHERE l.user_id = ${userId} AND l.state = 'verified' AND l.field = ${field} AND k.key IS NOT NULL
      )
      SELECT u.excluded,
             coalesce((SELECT a.is_subscriber OR coalesce(a.subscribed_until > ${at}::timestamptz, false)
                       FROM kick_chat_activity a WHERE a.kick_user_id = u.kick_id), false) AS is_sub,
             EXISTS (SELECT 1 FROM lk) AS has_link,
             (SELECT max(s.wagered)::text
              FROM leaderboard_periods p
              JOIN leaderboard_standings s ON s.period_id = p.id
              CROSS JOIN LATERAL (VALUES ('x:' || lower(s.external_id)),
                                         ('n:' || regexp_replace(lower(s.username), '\\s', '', 'g'))) AS k (key)
              WHERE p.site = ${rules.siteId ?? 0} AND p.start_at <= ${at}::timestamptz AND p.end_at > ${at}::timestamptz
                AND s.on_code AND k.key IN (SELECT key FROM lk)) AS wagered
      FROM users u WHERE u.id = ${userId}
    `),
  );
  if (!facts) return 'no such account';
  if (facts.excluded) return 'your account is excluded';
  if (await isBanned(db, { userId }, now)) return 'you are banned in Kick chat';
  if (rules.subsOnly && !facts.is_sub) return 'this battle is for subscribers only';
  if (site && !facts.has_link) return `a verified ${site.name} link is required`;
  if (site && rules.minWager !== null) {
    const wagered = facts.wagered === null ? 0n : toCents(facts.wagered);
    if (wagered < toCents(rules.minWager)) {
      return `it takes a wager of ${formatAmount(rules.minWager)} on ${site.name} this period; you have ${formatAmount(centsToText(wagered))}`;
    }
  }
  return null;
}

/** Of these accounts, those barred now: excluded, or banned in Kick chat (never in a draw). */
export async function barredNow(db: DbOrTx, userIds: readonly string[], now: Date): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      SELECT u.id FROM users u
      WHERE u.id IN (${sql.join(
        userIds.map((id) => sql`${id}`),
        sql`, `,
      )})
        AND (u.excluded OR (u.kick_id IS NOT NULL AND ${activeBanSql(sql`u.kick_id`, now)}))
    `),
  );
  return new Set(rows.map((r) => r.id));
}

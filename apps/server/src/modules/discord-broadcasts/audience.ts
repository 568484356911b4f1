/**
 * Who a broadcast goes to: the users the admin picked, plus the audience switches of the form —
 * every Discord-linked user, and the Discord-linked users with a Clash id who are active or not
 * active on Clash.gg. "Active" means wagering under the streamer's code: the Clash id (or name)
 * has wager on the code in a Clash.gg board period (sites 1 and 2) that ended less than
 * ACTIVE_DAYS ago or is running. Switch audiences leave out excluded accounts (bots, alts); a
 * hand-picked user is always included. Deduplicated by Discord id (then by user).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { notFound } from '../../lib/errors';
import { rowsOf } from '../../db/rows';

export const ACTIVE_DAYS = 14;
const CLASH_SITES = [1, 2];

export interface AudienceChoice {
  userIds: readonly string[];
  isAllDiscordLinkedUsers: boolean;
  isIncludeClashActiveUsers: boolean;
  isIncludeClashNonActiveUsers: boolean;
}

export interface Recipient {
  userId: string;
  username: string;
  discordId: string | null;
  discordUsername: string | null;
  dmClosed: boolean;
}

interface UserRowLite {
  id: string;
  username: string;
  discord_id: string | null;
  discord_username: string | null;
  dm_closed: boolean;
}

const columns = sql`u.id, u.username, u.discord_id, u.discord_username, (u.discord_dm_closed_at IS NOT NULL) AS dm_closed`;

function clashActivity(now: Date) {
  const since = new Date(now.getTime() - ACTIVE_DAYS * 86_400_000).toISOString();
  return sql`lower(trim(u.clash_id)) IN (
    SELECT lower(k) FROM leaderboard_standings s
      JOIN leaderboard_periods p ON p.id = s.period_id
      CROSS JOIN LATERAL (VALUES (s.external_id), (s.username)) AS keys(k)
    WHERE p.site IN (${sql.join(
      CLASH_SITES.map((s) => sql`${s}`),
      sql`, `,
    )}) AND p.end_at > ${since}::timestamptz AND s.on_code AND s.wagered > 0 AND k IS NOT NULL
  )`;
}

export async function resolveAudience(db: DbOrTx, choice: AudienceChoice, now: Date): Promise<Recipient[]> {
  const rows: UserRowLite[] = [];
  const picked = [...new Set(choice.userIds)];
  if (picked.length > 0) {
    const found = rowsOf<UserRowLite>(
      await db.execute(sql`
        SELECT ${columns} FROM users u
        WHERE u.id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(picked)}::jsonb))::uuid)
      `),
    );
    const known = new Set(found.map((r) => r.id));
    const missing = picked.find((id) => !known.has(id));
    if (missing) throw notFound(`userIds: no user ${missing}.`);
    rows.push(...found);
  }
  const linked = sql`u.discord_id IS NOT NULL AND NOT u.excluded`;
  if (choice.isAllDiscordLinkedUsers) {
    rows.push(...rowsOf<UserRowLite>(await db.execute(sql`SELECT ${columns} FROM users u WHERE ${linked}`)));
  } else if (choice.isIncludeClashActiveUsers || choice.isIncludeClashNonActiveUsers) {
    const withClash = sql`${linked} AND u.clash_id IS NOT NULL`;
    const filter =
      choice.isIncludeClashActiveUsers && choice.isIncludeClashNonActiveUsers
        ? withClash
        : choice.isIncludeClashActiveUsers
          ? sql`${withClash} AND ${clashActivity(now)}`
          : sql`${withClash} AND NOT ${clashActivity(now)}`;
    rows.push(...rowsOf<UserRowLite>(await db.execute(sql`SELECT ${columns} FROM users u WHERE ${filter}`)));
  }
  return dedupe(rows);
}

/** One recipient per Discord id (and per user for those without one), first occurrence kept. */
export function dedupe(rows: readonly UserRowLite[]): Recipient[] {
  const seenDiscord = new Set<string>();
  const seenUser = new Set<string>();
  const out: Recipient[] = [];
  for (const r of rows) {
    if (seenUser.has(r.id)) continue;
    if (r.discord_id && seenDiscord.has(r.discord_id)) continue;
    seenUser.add(r.id);
    if (r.discord_id) seenDiscord.add(r.discord_id);
    out.push({
      userId: r.id,
      username: r.username,
      discordId: r.discord_id,
      discordUsername: r.discord_username,
      dmClosed: r.dm_closed,
    });
  }
  return out;
}

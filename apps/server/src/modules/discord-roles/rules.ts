/**
 * Who should hold which role (docs/features/discord-roles.md#rules): the facts about each linked
 * account, read in one query, and the rules that turn them into roles. A rule is a key (the one the
 * settings map to a Discord role), and who it holds for; a new rule adds a fact to `MemberFacts`
 * and an entry to `roleRules`, and the page lists it from here. The milestone tiers' rules depend on
 * the ladders the admin saved, so the full list is `currentRules` (the fixed rules, then one per
 * tier of each ladder that is on).
 */
import { sql } from 'drizzle-orm';
import { leaderboardSites, siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { ladderTierNames, reachedTierIndexes } from '../milestones/service';

export interface MemberFacts {
  discordId: string;
  kickLinked: boolean;
  /** Kick subscriber now, or a gifter whose gifted subs still run. */
  subscriber: boolean;
  vip: boolean;
  /** Partner fields whose link was verified (`clashId`, `roobetName`…). */
  verifiedFields: string[];
  /** Per partner site, the index of the highest milestone tier reached in the ladder's running cycle. */
  tiers: Map<SiteId, number>;
}

export interface RoleRule {
  key: string;
  /** What the page calls it. */
  label: string;
  holds(facts: MemberFacts): boolean;
}

/** The rules, in the order the page lists them. */
export const roleRules: readonly RoleRule[] = [
  { key: 'linked', label: 'Linked Kick account', holds: (f) => f.kickLinked },
  { key: 'subscriber', label: 'Kick subscriber (or gifter, while the gifted subs run)', holds: (f) => f.subscriber },
  { key: 'vip', label: 'VIP (Kick badge)', holds: (f) => f.vip },
  ...leaderboardSites.flatMap((s) => {
    const field = s.linkField;
    return field
      ? [
          {
            key: `code:${s.slug}`,
            label: `Code user: ${s.name} (verified link)`,
            holds: (f: MemberFacts) => f.verifiedFields.includes(field),
          },
        ]
      : [];
  }),
];

/**
 * A milestone tier (docs/features/discord-roles.md#rules): `tier:<site>:<n>` holds for a viewer whose
 * highest tier reached on that site's ladder this cycle is its n-th tier or one above it.
 */
export function tierRules(ladders: ReadonlyArray<{ site: SiteId; tiers: readonly string[] }>): RoleRule[] {
  return ladders.flatMap(({ site, tiers }) => {
    const info = siteById(site);
    if (!info) return [];
    return tiers.map((name, index) => ({
      key: `tier:${info.slug}:${index + 1}`,
      label: `Milestone tier: ${name} or higher on ${info.name} (this cycle)`,
      holds: (f: MemberFacts) => (f.tiers.get(site) ?? -1) >= index,
    }));
  });
}

/** Every rule as the ladders stand now: the fixed ones, then each ladder's tiers. */
export async function currentRules(db: DbOrTx): Promise<RoleRule[]> {
  return [...roleRules, ...tierRules(await ladderTierNames(db))];
}

/** The role ids this account should have, of those the settings manage. */
export function desiredRoles(
  facts: MemberFacts | null,
  roleIds: Record<string, string>,
  rules: readonly RoleRule[] = roleRules,
): string[] {
  if (!facts) return [];
  const out = new Set<string>();
  for (const rule of rules) {
    const role = roleIds[rule.key];
    if (role && rule.holds(facts)) out.add(role);
  }
  return [...out].sort();
}

/** Every role id the settings manage (a role no rule gives is never touched). */
export function managedRoles(roleIds: Record<string, string>): string[] {
  return [...new Set(Object.values(roleIds))].sort();
}

interface FactRow {
  discord_id: string;
  user_id: string;
  kick_linked: boolean;
  subscriber: boolean;
  vip: boolean;
  verified_fields: string[] | null;
}

/**
 * The facts of linked Discord accounts at `now`: those given, or every account with Discord linked.
 * The subscriber rule is the one the site's other sub-only rules read
 * (docs/features/kick-events-and-bans.md#subscriber-status), plus a gifter until their gift's end.
 */
export async function memberFacts(db: DbOrTx, now: Date, discordIds?: string[]): Promise<Map<string, MemberFacts>> {
  const at = now.toISOString();
  const only =
    discordIds === undefined
      ? sql`u.discord_id IS NOT NULL`
      : discordIds.length === 0
        ? sql`false`
        : sql`u.discord_id IN (${sql.join(
            discordIds.map((d) => sql`${d}`),
            sql`, `,
          )})`;
  const rows = rowsOf<FactRow>(
    await db.execute(sql`
      SELECT u.discord_id, u.id AS user_id,
             u.kick_id IS NOT NULL AS kick_linked,
             COALESCE(a.is_subscriber OR a.subscribed_until > ${at}::timestamptz, false)
               OR COALESCE(g.until > ${at}::timestamptz, false) AS subscriber,
             COALESCE('vip' = ANY(a.badges), false) AS vip,
             (SELECT array_agg(DISTINCT p.field) FROM partner_links p
               WHERE p.user_id = u.id AND p.state = 'verified') AS verified_fields
      FROM users u
      LEFT JOIN kick_chat_activity a ON a.kick_user_id = u.kick_id
      LEFT JOIN discord_sub_gifters g ON g.kick_user_id = u.kick_id
      WHERE ${only} AND u.removed_at IS NULL
    `),
  );
  const tiers = await reachedTierIndexes(db, now, discordIds);
  return new Map(
    rows.map((r) => [
      r.discord_id,
      {
        discordId: r.discord_id,
        kickLinked: r.kick_linked,
        subscriber: r.subscriber,
        vip: r.vip,
        verifiedFields: r.verified_fields ?? [],
        tiers: tiers.get(r.user_id) ?? new Map<SiteId, number>(),
      },
    ]),
  );
}

/** When the next running subscription among linked accounts ends (the sweep looks again then). */
export async function nextLapse(db: DbOrTx, now: Date): Promise<Date | null> {
  const at = now.toISOString();
  const [row] = rowsOf<{ next: string | Date | null }>(
    await db.execute(sql`
      SELECT LEAST(
        (SELECT min(a.subscribed_until) FROM kick_chat_activity a JOIN users u ON u.kick_id = a.kick_user_id
          WHERE u.discord_id IS NOT NULL AND a.subscribed_until > ${at}::timestamptz),
        (SELECT min(g.until) FROM discord_sub_gifters g JOIN users u ON u.kick_id = g.kick_user_id
          WHERE u.discord_id IS NOT NULL AND g.until > ${at}::timestamptz)
      ) AS next
    `),
  );
  return row?.next ? new Date(row.next) : null;
}

/**
 * The verification queue (Admin → Verification): every claimed link and open dispute with what
 * supports it — the partner's newest row for that player, the user's Kick name and last chat,
 * and every other account that claimed or contested the same player, with when.
 */
import { sql } from 'drizzle-orm';
import { decimalToNumber } from '@kickback/common/money';
import { siteById } from '@kickback/common/http/leaderboards';
import { proofMethodOf, type QueueClaim, type PartnerVerificationQueue } from '@kickback/common/http/partner-links';
import type { DbOrTx } from '../../db/client';
import type { PartnerLinkField, PartnerLinkState } from '../../db/schema/partner-links';
import { rowsOf } from '../../db/rows';
import { keyOfField, labelOfField, sitesOfField } from './keys';

const QUEUE_LIMIT = 200;

interface LinkRecord {
  id: string | number;
  user_id: string;
  field: PartnerLinkField;
  value: string;
  name_key: string;
  external_id: string | null;
  state: PartnerLinkState;
  held_points: string;
  credited_points: string;
  migrated: boolean;
  claimed_at: string | Date;
  username: string;
  steam_id: string;
  kick_username: string | null;
  last_chat_at: string | Date | null;
  created_at: string | Date;
}

const iso = (v: string | Date) => new Date(v).toISOString();

const linkSelect = sql`
  SELECT l.id, l.user_id, l.field, l.value, l.name_key, l.external_id, l.state, l.held_points::text,
         l.credited_points::text, l.migrated, l.claimed_at, u.username, u.steam_id, u.kick_username,
         (SELECT a.last_message_at FROM kick_chat_activity a WHERE a.kick_user_id = u.kick_id) AS last_chat_at,
         u.created_at
  FROM partner_links l JOIN users u ON u.id = l.user_id`;

async function describe(db: DbOrTx, r: LinkRecord): Promise<QueueClaim> {
  const sites = sitesOfField(r.field);
  const [row] = rowsOf<{
    site: number;
    username: string;
    external_id: string | null;
    wagered: string;
    unit: string;
    seen_at: string | Date;
  }>(
    await db.execute(sql`
      SELECT p.site, s.username, s.external_id, s.wagered::text, s.unit, s.seen_at
      FROM leaderboard_standings s JOIN leaderboard_periods p ON p.id = s.period_id
      WHERE p.site IN (SELECT jsonb_array_elements_text(${JSON.stringify(sites)}::jsonb)::int)
        AND (lower(s.external_id) = ${r.external_id ?? r.name_key}
             OR regexp_replace(lower(s.username), '\\s', '', 'g') = ${r.name_key})
      ORDER BY s.seen_at DESC LIMIT 1
    `),
  );
  const others = rowsOf<{
    user_id: string;
    username: string;
    state: string;
    at: string | Date;
    kind: 'link' | 'dispute';
  }>(
    await db.execute(sql`
      SELECT l.user_id, u.username, l.state, l.claimed_at AS at, 'link' AS kind
      FROM partner_links l JOIN users u ON u.id = l.user_id
      WHERE l.field = ${r.field} AND l.id <> ${r.id}
        AND (l.name_key = ${r.name_key} OR (${r.external_id}::text IS NOT NULL AND l.external_id = ${r.external_id}))
      UNION ALL
      SELECT d.user_id, u.username, d.status, d.created_at, 'dispute'
      FROM partner_disputes d JOIN users u ON u.id = d.user_id
      WHERE d.link_id = ${r.id}
      ORDER BY at
    `),
  );
  const key = keyOfField(r.field);
  return {
    id: Number(r.id),
    field: key,
    label: labelOfField(r.field),
    value: r.value,
    externalId: r.external_id,
    state: r.state,
    proof: proofMethodOf[key],
    heldPoints: decimalToNumber(r.held_points),
    creditedPoints: decimalToNumber(r.credited_points),
    migrated: r.migrated,
    claimedAt: iso(r.claimed_at),
    user: {
      id: r.user_id,
      username: r.username,
      steamId: r.steam_id,
      kickUsername: r.kick_username,
      lastChatAt: r.last_chat_at === null ? null : iso(r.last_chat_at),
      createdAt: iso(r.created_at),
    },
    partnerRow: row
      ? {
          siteName: siteById(row.site)?.name ?? `Site ${row.site}`,
          username: row.username,
          externalId: row.external_id,
          wagered: decimalToNumber(row.wagered),
          unit: row.unit,
          seenAt: iso(row.seen_at),
        }
      : null,
    others: others.map((o) => ({
      userId: o.user_id,
      username: o.username,
      state: o.state,
      at: iso(o.at),
      kind: o.kind,
    })),
  };
}

export async function loadPartnerVerificationQueue(db: DbOrTx): Promise<PartnerVerificationQueue> {
  const claims = rowsOf<LinkRecord>(
    await db.execute(sql`${linkSelect} WHERE l.state = 'claimed' ORDER BY l.claimed_at, l.id LIMIT ${QUEUE_LIMIT}`),
  );
  const disputes = rowsOf<
    LinkRecord & {
      dispute_id: string | number;
      d_value: string;
      note: string;
      d_created_at: string | Date;
      claimant_id: string;
    }
  >(
    await db.execute(sql`
      SELECT d.id AS dispute_id, d.value AS d_value, d.note, d.created_at AS d_created_at, d.user_id AS claimant_id, x.*
      FROM partner_disputes d JOIN LATERAL (${linkSelect} WHERE l.id = d.link_id) x ON true
      WHERE d.status = 'open' ORDER BY d.created_at, d.id LIMIT ${QUEUE_LIMIT}
    `),
  );
  const claimants = new Map<string, LinkRecord>();
  for (const d of disputes) {
    if (claimants.has(d.claimant_id)) continue;
    const [u] = rowsOf<LinkRecord>(
      await db.execute(sql`
        SELECT u.id AS user_id, u.username, u.steam_id, u.kick_username, u.created_at,
               (SELECT a.last_message_at FROM kick_chat_activity a WHERE a.kick_user_id = u.kick_id) AS last_chat_at
        FROM users u WHERE u.id = ${d.claimant_id}
      `),
    );
    if (u) claimants.set(d.claimant_id, u);
  }
  const [pending] = rowsOf<{ n: string | number }>(
    await db.execute(sql`SELECT count(*) AS n FROM partner_links WHERE state = 'claimed' AND migrated`),
  );
  return {
    claims: await Promise.all(claims.map((c) => describe(db, c))),
    disputes: await Promise.all(
      disputes.map(async (d) => {
        const c = claimants.get(d.claimant_id);
        return {
          id: Number(d.dispute_id),
          value: d.d_value,
          note: d.note,
          createdAt: iso(d.d_created_at),
          claimant: {
            id: d.claimant_id,
            username: c?.username ?? '',
            steamId: c?.steam_id ?? '',
            kickUsername: c?.kick_username ?? null,
            lastChatAt: c?.last_chat_at ? iso(c.last_chat_at) : null,
            createdAt: c ? iso(c.created_at) : iso(d.d_created_at),
          },
          link: await describe(db, d),
        };
      }),
    ),
    migratedPending: Number(pending?.n ?? 0),
  };
}

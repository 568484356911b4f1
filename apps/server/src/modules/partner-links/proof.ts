/**
 * Automatic proof from partner polls (Clash.gg, Cases.gg, RustMagic report a name the player
 * controls): a claimed link is verified by the first poll whose row for that player carries the
 * link's one-time code in its name. A claim carries no partner id (docs/features/partner-links.md#rules),
 * so "that player" is the row whose id is what the user typed — and only that row, when the poll
 * lists a player with that id — or else the row whose name minus the code is what the user typed.
 * Verification pins the id of the row the code was seen on; a row whose id another link already
 * holds proves nothing. Polls also pin the stable id of verified links matched by name, so a later
 * rename keeps the match; an unproven claim is never pinned by a name match.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { siteById, type SiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { partnerLinks } from '../../db/schema/partner-links';
import { rowsOf } from '../../db/rows';
import { alnumOf, usesProofCode } from './keys';
import { linksForPlayers, type PlayerIdentity, type PlayersMatch } from './matching';
import { proofActor, verifyClaim } from './decisions';

/** Every "kb" + five letters or digits in a name: the codes it might carry. */
export function codesIn(name: string): string[] {
  const text = alnumOf(name);
  const out: string[] = [];
  for (let i = text.indexOf('kb'); i >= 0; i = text.indexOf('kb', i + 1)) {
    const code = text.slice(i, i + 7);
    if (code.length === 7) out.push(code);
  }
  return out;
}

/** Pins per statement. */
const PIN_BATCH = 5_000;

export async function checkPartnerLinks(
  tx: DbOrTx,
  site: SiteId,
  players: readonly PlayerIdentity[],
  now: Date,
): Promise<{ pinned: number; verified: number; match: PlayersMatch | null }> {
  const field = siteById(site)?.linkField;
  if (!field || players.length === 0) return { pinned: 0, verified: 0, match: null };

  let verified = 0;
  if (usesProofCode(field)) {
    const byCode = new Map<string, PlayerIdentity[]>();
    for (const p of players) {
      for (const code of codesIn(p.username)) byCode.set(code, [...(byCode.get(code) ?? []), p]);
    }
    if (byCode.size > 0) {
      const claims = await tx
        .select()
        .from(partnerLinks)
        .where(
          and(
            eq(partnerLinks.field, field),
            eq(partnerLinks.state, 'claimed'),
            inArray(sql`lower(replace(${partnerLinks.proofCode}, '-', ''))`, [...byCode.keys()]),
          ),
        );
      for (const link of claims) {
        const code = alnumOf(link.proofCode ?? '');
        // A claim typed as a listed player's id is that player's: another player cannot prove it by
        // putting the id and the code into his name.
        const namesAnId = players.some((p) => p.externalId?.toLowerCase() === link.nameKey);
        const row = (byCode.get(code) ?? []).find((p) => {
          const external = p.externalId?.toLowerCase() ?? null;
          if (namesAnId) return external === link.nameKey;
          return alnumOf(p.username).replace(code, '') === alnumOf(link.nameKey);
        });
        if (!row) continue;
        // The link is pinned to the partner id the proof was seen on, and from then on matches that
        // id only. A player already pinned to another link proves nothing for this one.
        const pin = row.externalId?.toLowerCase() ?? null;
        if (pin && (await heldElsewhere(tx, field, pin, link.id))) continue;
        await verifyClaim(tx, proofActor, link.id, {
          reason: `Proof code ${link.proofCode} seen in the ${siteById(site)?.name ?? 'partner'} name "${row.username}".`,
          now,
          externalId: pin,
        });
        verified += 1;
      }
    }
  }

  // Pin stable ids of verified links matched by name or typed id, so a later rename keeps the
  // match. A claim is not pinned: the player matched by its name may be a stranger. One statement
  // for the whole poll (docs/features/partner-links.md#rules): each player key is one partner id and
  // each link matches one player, so no two rows of it pin the same id or the same link, and an id
  // another link already holds is left alone.
  const matches = await linksForPlayers(tx, field, players);
  const pins: Array<{ link_id: number; external: string }> = [];
  for (const p of players) {
    const link = matches.get(p.playerKey);
    const external = p.externalId?.toLowerCase();
    if (!link || link.state !== 'verified' || link.externalId || !external) continue;
    pins.push({ link_id: link.linkId, external });
  }
  let pinned = 0;
  for (let i = 0; i < pins.length; i += PIN_BATCH) {
    const rows = rowsOf<{ id: number }>(
      await tx.execute(sql`
        UPDATE partner_links l SET external_id = d.external
        FROM jsonb_to_recordset(${JSON.stringify(pins.slice(i, i + PIN_BATCH))}::jsonb) AS d(link_id bigint, external text)
        WHERE l.id = d.link_id AND l.external_id IS NULL
          AND NOT EXISTS (
            SELECT 1 FROM partner_links o
            WHERE o.field = ${field} AND o.external_id = d.external AND o.state IN ('claimed', 'verified')
              AND o.id <> d.link_id
          )
        RETURNING l.id
      `),
    );
    pinned += rows.length;
  }
  // The poll's match, for what follows the same poll (the milestone ladder's progress) to reuse.
  return { pinned, verified, match: { players, links: matches } };
}

async function heldElsewhere(tx: DbOrTx, field: string, external: string, linkId: number): Promise<boolean> {
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      SELECT 1 AS id FROM partner_links
      WHERE field = ${field} AND external_id = ${external} AND state IN ('claimed', 'verified') AND id <> ${linkId}
    `),
  );
  return rows.length > 0;
}

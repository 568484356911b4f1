/**
 * Who may hold tickets in a raffle (docs/features/raffles.md): never an excluded or banned
 * account; and, when the raffle asks for it, a linked Kick account, a verified partner link, or a
 * current Kick subscription. Checked when tickets are bought or granted, and again at the close
 * (an account excluded or banned since then is left out of the snapshot).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { RaffleRow } from '../../db/schema/raffles';
import { isBanned } from '../kick-bans/service';

export type RaffleRules = Pick<RaffleRow, 'requireKick' | 'requireVerifiedPartner' | 'subsOnly'>;

interface Facts {
  excluded: boolean;
  has_kick: boolean;
  has_partner: boolean;
  is_sub: boolean;
}

/** Why the user may not hold tickets in a raffle with these rules, or null when they may. */
export async function raffleRefusal(db: DbOrTx, rules: RaffleRules, userId: string, now: Date): Promise<string | null> {
  const [facts] = rowsOf<Facts>(
    await db.execute(sql`
      SELECT u.excluded,
             u.kick_id IS NOT NULL AS has_kick,
             EXISTS (SELECT 1 FROM partner_links l WHERE l.user_id = u.id AND l.state = 'verified') AS has_partner,
             coalesce((SELECT a.is_subscriber OR coalesce(a.subscribed_until > ${now.toISOString()}::timestamptz, false)
                       FROM kick_chat_activity a WHERE a.kick_user_id = u.kick_id), false) AS is_sub
      FROM users u WHERE u.id = ${userId}
    `),
  );
  if (!facts) return 'no such account';
  if (facts.excluded) return 'your account is excluded from raffles';
  if (await isBanned(db, { userId }, now)) return 'you are banned in Kick chat';
  if (rules.requireKick && !facts.has_kick) return 'link your Kick account first';
  if (rules.requireVerifiedPartner && !facts.has_partner) return 'a verified partner link is required';
  if (rules.subsOnly && !facts.is_sub) return 'this raffle is for subscribers only';
  return null;
}

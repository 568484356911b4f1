/**
 * The account and link ages (docs/features/fair-earning.md#account-and-link-age). Kick's API gives
 * no account creation date, so a Kick account's age is counted from the first time this channel
 * saw it (`kick_chat_activity.first_seen_at`: its first chat message or subscription event). The
 * link's age is `users.kick_linked_at`; an account linked before that column existed counts from
 * the site account's creation (migration 1260).
 */
import { eq } from 'drizzle-orm';
import { fairEarningRefusals } from '@kickback/common/http/fair-earning';
import type { DbOrTx } from '../../db/client';
import { kickChatActivity } from '../../db/schema/chat';
import type { FairEarningSettingsRow } from '../../db/schema/fair-earning';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The two age settings as one row (`min_kick_account_days`, `min_link_days`), for a statement of
 * another module to join: the giveaway's entry statement decides the ages in SQL, with no query of
 * its own (docs/features/giveaway.md#entering-and-the-roll).
 */
export const AGE_SETTINGS_SQL = 'SELECT min_kick_account_days, min_link_days FROM fair_earning_settings WHERE id = 1';

export interface AgeFacts {
  kickId: string | null;
  kickLinkedAt: Date | null;
}

/** Why this Kick account is too new to convert or enter, or null. */
export async function ageRefusal(
  db: DbOrTx,
  settings: Pick<FairEarningSettingsRow, 'minKickAccountDays' | 'minLinkDays'>,
  facts: AgeFacts,
  now: Date,
): Promise<string | null> {
  if (settings.minLinkDays > 0 && facts.kickLinkedAt) {
    if (now.getTime() - facts.kickLinkedAt.getTime() < settings.minLinkDays * DAY_MS) {
      return fairEarningRefusals.linkAge(settings.minLinkDays);
    }
  }
  if (settings.minKickAccountDays > 0) {
    const [seen] = facts.kickId
      ? await db
          .select({ first: kickChatActivity.firstSeenAt, updated: kickChatActivity.updatedAt })
          .from(kickChatActivity)
          .where(eq(kickChatActivity.kickUserId, facts.kickId))
      : [];
    const first = seen ? (seen.first ?? seen.updated) : null;
    if (!first || now.getTime() - first.getTime() < settings.minKickAccountDays * DAY_MS) {
      return fairEarningRefusals.accountAge(settings.minKickAccountDays);
    }
  }
  return null;
}

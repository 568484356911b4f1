/**
 * Gifted subs on hold (docs/features/support-rewards.md#gifts-on-hold). Kick fires gift events for
 * payments that then fail, so a gift's reward is kept `held` for the admin's hold time before it
 * pays: an Admin can reverse it meanwhile (./admin.ts). The hold's end is a durable timer
 * (`app.timers`, a row written in the event's own transaction), so it fires after a restart and in
 * exactly one process; the firing locks the reward row and pays only a row still `held`, so a
 * reversal and the payment cannot both happen, and the payment cannot happen twice.
 *
 * Raffle support tickets of a held gift are granted when it pays, not when it arrives: a gift
 * reversed before it paid never had tickets to take back (a drawn raffle could not give them back).
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { supportRewards, type SupportRewardRow } from '../../db/schema/support-rewards';
import { users } from '../../db/schema/users';
import type { Deadline } from '../../games/timers';
import type { AfterCommit } from '../../lib/after-commit';
import { grantSupportTickets } from '../raffles/service';
import { lockKickAccount, payTo } from './rewards';
import { readSettingsRow } from './settings';

export const GIFT_HOLD_TIMER = 'support-gift-hold';

/** What scheduling needs of `app.timers`. */
export interface HoldTimers {
  schedule(tx: Tx, after: AfterCommit, deadline: Deadline): Promise<void>;
}

/** Schedules the end of a held reward's hold, in the caller's (the event's) transaction. */
export async function scheduleHoldEnd(timers: HoldTimers, tx: Tx, after: AfterCommit, row: SupportRewardRow) {
  if (row.status !== 'held' || !row.holdUntil) return;
  await timers.schedule(tx, after, { kind: GIFT_HOLD_TIMER, subjectId: String(row.id), version: 1, dueAt: row.holdUntil });
}

/**
 * The hold of reward `id` ended: pay it (to the linked user, as any reward) or, with no link yet,
 * leave it `pending` for the link like any other; a reward no longer `held` (reversed) does nothing.
 * Returns the row when it was released.
 */
export async function releaseHeldReward(tx: Tx, id: number, now: Date): Promise<SupportRewardRow | null> {
  const [row] = await tx.select().from(supportRewards).where(eq(supportRewards.id, id)).for('update');
  if (!row || row.status !== 'held') return null;
  if (!row.kickUserId) return null; // never held: anonymous gifts are skipped at once
  await lockKickAccount(tx, row.kickUserId);
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.kickId, row.kickUserId));
  if (!user) {
    const [pending] = await tx
      .update(supportRewards)
      .set({ status: 'pending' })
      .where(eq(supportRewards.id, id))
      .returning();
    return pending!;
  }
  const settings = await readSettingsRow(tx);
  const paid = await payTo(tx, row, user, settings, now);
  await grantSupportTickets(tx, user.id, 'gift', row.units, row.key, now);
  return paid;
}

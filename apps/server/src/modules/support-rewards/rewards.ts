/**
 * Paying support rewards (docs/features/support-rewards.md). Each reward is one row keyed uniquely
 * (the event's content, or the Kick account for a follow), so the same event never pays twice,
 * whichever delivery brings it.
 * The row is written first; then, if the Kick account is linked to a user, the reward is paid
 * through the ledger in the same transaction: to linked, non-excluded, non-banned users, cut to the
 * daily cap per user per kind. The user's row is locked first, so two events paying one user at
 * once read the day's total one after the other and cannot both fit under the cap.
 *
 * An event and the `!verify` link of its Kick account take turns on that account's lock
 * (`lockKickAccount`): otherwise an event whose transaction found no link yet, committing after a
 * link whose scan could not see its uncommitted row, would stay pending for ever.
 */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { supportRewards, type SupportRewardKind, type SupportRewardRow } from '../../db/schema/support-rewards';
import { users, type UserRow } from '../../db/schema/users';
import { applyBalanceChange } from '../ledger/service';
import { isBanned } from '../kick-bans/service';
import { readSettingsRow, type SettingsRow } from './settings';

export interface SupportEvent {
  /** Unique per reward: the event's content key (./event-key.ts), or `follow:<kick user id>`. */
  key: string;
  kind: SupportRewardKind;
  /** Null for an anonymous supporter: kept, paid to nobody. */
  kickUserId: string | null;
  kickUsername: string | null;
  /** Subs (1), gifted subs, KICKs, follows (1). */
  units: number;
  /** When it was received (the pending window counts from here). */
  eventAt: Date;
}

/** The advisory lock namespace of one Kick account's support rewards ("kac"). */
const KICK_ACCOUNT_LOCK = 0x6b_6163;

/** Holds `kickUserId`'s lock until the caller's transaction ends. */
export async function lockKickAccount(tx: DbOrTx, kickUserId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${KICK_ACCOUNT_LOCK}, hashtext(${kickUserId}))`);
}

const kindWords: Record<SupportRewardKind, (units: number) => string> = {
  sub: () => 'Subscribed',
  gift: (n) => `Gifted ${n} sub${n === 1 ? '' : 's'}`,
  kicks: (n) => `Sent ${n} KICK${n === 1 ? '' : 's'}`,
  follow: () => 'Followed the channel',
};
export const memoOf = (kind: SupportRewardKind, units: number) => kindWords[kind](units);

function perUnit(settings: SettingsRow, kind: SupportRewardKind): string {
  switch (kind) {
    case 'sub':
      return settings.subPoints;
    case 'gift':
      return settings.giftPoints;
    case 'kicks':
      return settings.kickPoints;
    case 'follow':
      return settings.followPoints;
  }
}

const dayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

async function setStatus(tx: DbOrTx, id: number, set: Partial<typeof supportRewards.$inferInsert>) {
  const [row] = await tx.update(supportRewards).set(set).where(eq(supportRewards.id, id)).returning();
  return row!;
}

/** What the user was paid today for this kind (rows reversed since do not count). */
async function paidToday(tx: DbOrTx, userId: string, kind: SupportRewardKind, now: Date): Promise<bigint> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${supportRewards.amount}), 0)::text` })
    .from(supportRewards)
    .where(
      and(
        eq(supportRewards.userId, userId),
        eq(supportRewards.kind, kind),
        eq(supportRewards.status, 'paid'),
        gte(supportRewards.paidAt, dayStart(now)),
      ),
    );
  return toCents(row?.total ?? '0');
}

/** Pays one kept reward to `user` (locked here), as far as the cap allows. */
export async function payTo(
  tx: DbOrTx,
  reward: SupportRewardRow,
  user: Pick<UserRow, 'id'>,
  settings: SettingsRow,
  now: Date,
  opts: { ignoreCap?: boolean } = {},
): Promise<SupportRewardRow> {
  const [locked] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
  if (!locked) return setStatus(tx, reward.id, { status: 'skipped', note: 'The user no longer exists.' });
  const base = { userId: locked.id };
  if (locked.excluded) return setStatus(tx, reward.id, { ...base, status: 'skipped', note: 'Excluded account.' });
  if (await isBanned(tx, { userId: locked.id }, now)) {
    return setStatus(tx, reward.id, { ...base, status: 'skipped', note: 'Banned in Kick chat.' });
  }
  const full = toCents(perUnit(settings, reward.kind)) * BigInt(reward.units);
  if (full <= 0n) return setStatus(tx, reward.id, { ...base, status: 'skipped', note: 'No points set for this kind.' });
  const cap = toCents(settings.dailyCap);
  let pay = full;
  if (cap > 0n && !opts.ignoreCap) {
    const room = cap - (await paidToday(tx, locked.id, reward.kind, now));
    if (room <= 0n) return setStatus(tx, reward.id, { ...base, status: 'capped', note: 'Daily cap reached.' });
    if (room < pay) pay = room;
  }
  const result = await applyBalanceChange(tx, {
    userId: locked.id,
    currency: 'points',
    delta: { cents: pay },
    reason: 'support_reward',
    reference: `support:${reward.id}`,
    memo: memoOf(reward.kind, reward.units),
    earning: true,
  });
  if (!result) return setStatus(tx, reward.id, { ...base, status: 'skipped', note: 'Excluded account.' });
  return setStatus(tx, reward.id, {
    ...base,
    status: 'paid',
    amount: centsToText(pay),
    paidAt: now,
    ledgerId: result.ledgerId,
    announced: false,
    note: pay < full ? 'Cut to the daily cap.' : null,
  });
}

/**
 * Keeps and (when its Kick account is linked) pays one support event, once: a second event with the
 * same key, or one kept under any of `alsoKeys` (the same content in the previous window), does
 * nothing and returns null.
 */
export async function recordSupportEvent(
  tx: DbOrTx,
  event: SupportEvent,
  now: Date,
  alsoKeys: readonly string[] = [],
): Promise<SupportRewardRow | null> {
  if (alsoKeys.length > 0) {
    const [seen] = await tx
      .select({ id: supportRewards.id })
      .from(supportRewards)
      .where(
        inArray(
          supportRewards.key,
          alsoKeys.map((k) => k.slice(0, 200)),
        ),
      )
      .limit(1);
    if (seen) return null;
  }
  const [kept] = await tx
    .insert(supportRewards)
    .values({
      key: event.key.slice(0, 200),
      kind: event.kind,
      kickUserId: event.kickUserId,
      kickUsername: event.kickUsername?.slice(0, 100) ?? null,
      units: event.units,
      status: 'pending',
      eventAt: event.eventAt,
    })
    .onConflictDoNothing({ target: supportRewards.key })
    .returning();
  if (!kept) return null;
  const settings = await readSettingsRow(tx);
  if (!settings.enabled) return setStatus(tx, kept.id, { status: 'skipped', note: 'Support rewards were off.' });
  if (!event.kickUserId) return setStatus(tx, kept.id, { status: 'skipped', note: 'Anonymous: nobody to pay.' });
  if (event.kind === 'gift' && settings.giftHoldMinutes > 0) {
    // Kick fires gift events for failed payments: held, reversible, until the timer pays it (./hold.ts).
    const holdUntil = new Date(now.getTime() + settings.giftHoldMinutes * 60_000);
    return setStatus(tx, kept.id, { status: 'held', holdUntil });
  }
  await lockKickAccount(tx, event.kickUserId);
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.kickId, event.kickUserId));
  if (!user) return kept; // pending until the Kick account links
  return payTo(tx, kept, user, settings, now);
}

/**
 * A Kick account was just linked to `userId` (in the caller's transaction): its pending rewards
 * younger than the window are paid, older ones expire.
 */
export async function payPendingOnLink(tx: DbOrTx, userId: string, kickUserId: string, now: Date): Promise<number> {
  await lockKickAccount(tx, kickUserId); // after an event's transaction that found no link yet
  const pending = await tx
    .select()
    .from(supportRewards)
    .where(and(eq(supportRewards.kickUserId, kickUserId), eq(supportRewards.status, 'pending')))
    .orderBy(supportRewards.id)
    .for('update');
  if (pending.length === 0) return 0;
  const settings = await readSettingsRow(tx);
  const oldest = now.getTime() - settings.pendingHours * 3_600_000;
  let paid = 0;
  for (const reward of pending) {
    if (reward.eventAt.getTime() < oldest) {
      await setStatus(tx, reward.id, { userId, status: 'expired', note: 'Linked after the pending window.' });
      continue;
    }
    const row = await payTo(tx, reward, { id: userId }, settings, now);
    if (row.status === 'paid') paid += 1;
  }
  return paid;
}

/** Admin → Support rewards: the rewards kept, reversing one (audited) and granting a missed one. */
import { asc, desc, eq, count, sql } from 'drizzle-orm';
import { decimalToNumber, toCents } from '@kickback/common/money';
import { supportRewardMessages, type SupportGrant, type SupportReward } from '@kickback/common/http/support-rewards';
import type { Paged } from '@kickback/common/http/endpoint';
import type { Db, DbOrTx } from '../../db/client';
import { supportRewards, type SupportRewardRow } from '../../db/schema/support-rewards';
import { users } from '../../db/schema/users';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { ulid } from '../../lib/ulid';
import { actorOf, recordAudit } from '../audit/service';
import { applyBalanceChange, InsufficientBalanceError } from '../ledger/service';
import { memoOf, payTo } from './rewards';
import { readSettingsRow } from './settings';

const PAGE_SIZE = 50;
/** Gifts on hold listed at once (a storm holds more; they still pay, and the table lists them too). */
const HELD_LIMIT = 200;

type Admin = { id: string; username: string };

function present(row: SupportRewardRow, username: string | null): SupportReward {
  return {
    id: row.id,
    kind: row.kind,
    kickUsername: row.kickUsername,
    username,
    units: row.units,
    amount: decimalToNumber(row.amount),
    status: row.status,
    note: row.note,
    eventAt: row.eventAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    holdUntil: row.status === 'held' ? (row.holdUntil?.toISOString() ?? null) : null,
  };
}

async function presentOne(db: DbOrTx, row: SupportRewardRow): Promise<SupportReward> {
  const [user] = row.userId
    ? await db.select({ username: users.username }).from(users).where(eq(users.id, row.userId))
    : [];
  return present(row, user?.username ?? null);
}

export async function listSupportRewards(db: Db, page: number): Promise<Paged<SupportReward>> {
  const rows = await db
    .select({ reward: supportRewards, username: users.username })
    .from(supportRewards)
    .leftJoin(users, eq(users.id, supportRewards.userId))
    .orderBy(desc(supportRewards.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(supportRewards);
  return {
    items: rows.map((r) => present(r.reward, r.username)),
    total: total?.n ?? 0,
    page,
    pageSize: PAGE_SIZE,
  };
}

/** The gifts on hold (./hold.ts), soonest to pay first: an Admin reverses a failed payment's here. */
export async function listHeldRewards(db: Db): Promise<SupportReward[]> {
  const rows = await db
    .select({ reward: supportRewards, username: users.username })
    .from(supportRewards)
    .leftJoin(users, eq(users.id, supportRewards.userId))
    .where(eq(supportRewards.status, 'held'))
    .orderBy(asc(supportRewards.holdUntil), asc(supportRewards.id))
    .limit(HELD_LIMIT);
  return rows.map((r) => present(r.reward, r.username));
}

/**
 * Takes a paid reward back, or cancels a held gift before it pays (./hold.ts) — once: the row is
 * locked and must still be paid (or held), so a reversal and the hold's payment take turns.
 */
export async function reverseSupportReward(db: Db, admin: Admin, id: number, now: Date): Promise<SupportReward> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(supportRewards).where(eq(supportRewards.id, id)).for('update');
    if (!row) throw notFound('Reward not found.');
    // Marks the row reversed and audits it: the one ending of both kinds of reversal.
    const markReversed = async (note: string, before: Record<string, unknown>) => {
      const [reversed] = await tx
        .update(supportRewards)
        .set({ status: 'reversed', reversedBy: admin.id, note })
        .where(eq(supportRewards.id, id))
        .returning();
      await recordAudit(tx, actorOf(admin), {
        action: 'support_rewards.reverse',
        targetType: 'support_reward',
        targetId: String(id),
        before,
        after: { status: 'reversed' },
      });
      return presentOne(tx, reversed!);
    };
    if (row.status === 'held') {
      return markReversed(`Reversed before it paid by ${admin.username} on ${now.toISOString()}`, {
        status: row.status,
        kickUsername: row.kickUsername,
        units: row.units,
      });
    }
    if (row.status !== 'paid' || !row.userId) throw conflict(supportRewardMessages.notPaid);
    try {
      await applyBalanceChange(tx, {
        userId: row.userId,
        currency: 'points',
        delta: { cents: -toCents(row.amount) },
        reason: 'support_reversal',
        reference: `support:${row.id}`,
        memo: memoOf(row.kind, row.units),
      });
    } catch (err) {
      if (err instanceof InsufficientBalanceError) {
        throw conflict('The user has already spent these points: deduct what is left on Admin → Users.');
      }
      throw err;
    }
    return markReversed(`Reversed by ${admin.username} on ${now.toISOString()}`, {
      status: row.status,
      amount: row.amount,
      userId: row.userId,
    });
  });
}

/** The user a grant names: a linked Kick name first (the event came from Kick), else a site user name. */
async function grantee(db: DbOrTx, typed: string) {
  const name = typed.replace(/^@/, '').trim().toLowerCase();
  for (const column of [users.kickUsername, users.username]) {
    const [user] = await db
      .select()
      .from(users)
      .where(sql`lower(${column}) = ${name}`)
      .orderBy(users.createdAt)
      .limit(1);
    if (user) return user;
  }
  throw badRequest(`User: no linked Kick account or site user is called "${typed}".`, 'user');
}

/**
 * Pays a reward Kick never delivered (or delivered late), at today's amounts, past the daily cap.
 * One that would not be paid (excluded or banned account, no points set for the kind) is refused
 * and nothing is kept.
 */
export async function grantSupportReward(db: Db, admin: Admin, body: SupportGrant, now: Date): Promise<SupportReward> {
  return db.transaction(async (tx) => {
    const user = await grantee(tx, body.user);
    const [kept] = await tx
      .insert(supportRewards)
      .values({
        key: `grant:${ulid(now)}`,
        kind: body.kind,
        kickUserId: user.kickId,
        kickUsername: user.kickUsername,
        units: body.units,
        status: 'pending',
        eventAt: now,
      })
      .returning();
    const paid = await payTo(tx, kept!, user, await readSettingsRow(tx), now, { ignoreCap: true });
    if (paid.status !== 'paid') throw conflict(`Not granted: ${paid.note ?? paid.status}`); // rolls back the row
    const [row] = await tx
      .update(supportRewards)
      .set({ note: `Granted by ${admin.username}: ${body.note}${paid.note ? ` (${paid.note})` : ''}` })
      .where(eq(supportRewards.id, paid.id))
      .returning();
    await recordAudit(tx, actorOf(admin), {
      action: 'support_rewards.grant',
      targetType: 'user',
      targetId: user.id,
      after: { kind: body.kind, units: body.units, status: paid.status, amount: paid.amount, note: body.note },
    });
    return presentOne(tx, row!);
  });
}

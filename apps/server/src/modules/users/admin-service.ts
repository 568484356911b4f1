/**
 * Admin changes to a user (Admin: Users page and `npm run admin -- points`): balance grants and
 * deductions with a required reason (through the ledger, reasons admin_grant / admin_deduct), role,
 * and the excluded flag (bots and alts earn nothing, never rank, never win). Each change and its
 * audit entry (before and after) share one transaction.
 */
import type { Role } from '@kickback/common/http/auth';
import { eq } from 'drizzle-orm';
import { adminUserMessages } from '@kickback/common/http/admin-users';
import { centsToText, decimalToNumber, formatAmount, toCents } from '@kickback/common/money';
import type { Db } from '../../db/client';
import type { Currency } from '../../db/schema/ledger';
import { users, type UserRow } from '../../db/schema/users';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { applyBalanceChange, InsufficientBalanceError } from '../ledger/service';

export interface Adjustment {
  userId: string;
  currency: Currency;
  /** Signed, at most 2 decimals; negative deducts. */
  amount: string;
  reason: string;
}

export async function adjustBalance(
  db: Db,
  actor: Actor,
  adj: Adjustment,
): Promise<{ message: string; balance: number; user: UserRow }> {
  const cents = toCents(adj.amount);
  if (cents === 0n) throw badRequest('Enter an amount other than 0.', 'amount');
  const reason = adj.reason.trim();
  if (!reason) throw badRequest('Enter a reason.', 'reason');
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, adj.userId));
    if (!before) throw notFound('User not found.');
    let balance: string;
    try {
      const result = await applyBalanceChange(tx, {
        userId: adj.userId,
        currency: adj.currency,
        delta: { cents },
        reason: cents > 0n ? 'admin_grant' : 'admin_deduct',
        reference: actor.userId ? `admin:${actor.userId}` : 'shell',
        memo: reason,
      });
      if (!result) throw new Error('admin adjustments are not earnings');
      balance = result.balance;
    } catch (err) {
      if (err instanceof InsufficientBalanceError) throw conflict(adminUserMessages.wouldGoNegative(adj.currency));
      throw err;
    }
    const previous = adj.currency === 'points' ? before.points : before.gems;
    await recordAudit(tx, actor, {
      action: cents > 0n ? 'user.grant' : 'user.deduct',
      targetType: 'user',
      targetId: before.id,
      before: { [adj.currency]: previous },
      after: { [adj.currency]: balance, amount: centsToText(cents), reason },
    });
    const sign = cents > 0n ? '+' : '';
    const [after] = await tx.select().from(users).where(eq(users.id, adj.userId));
    return {
      message: adminUserMessages.adjusted(
        `${before.username} ${sign}${formatAmount(centsToText(cents))} ${adj.currency}, now ${formatAmount(balance)}`,
      ),
      balance: decimalToNumber(balance),
      user: after ?? before,
    };
  });
}

export async function setRole(db: Db, actor: Actor, userId: string, role: Role): Promise<UserRow> {
  if (actor.userId === userId) throw conflict(adminUserMessages.ownRole);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw notFound('User not found.');
    if (before.role === role) return before;
    const [after] = await tx.update(users).set({ role }).where(eq(users.id, userId)).returning();
    await recordAudit(tx, actor, {
      action: 'user.role',
      targetType: 'user',
      targetId: userId,
      before: { role: before.role },
      after: { role },
    });
    return after ?? before;
  });
}

export async function setExcluded(db: Db, actor: Actor, userId: string, excluded: boolean): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw notFound('User not found.');
    if (before.excluded === excluded) return before;
    const [after] = await tx.update(users).set({ excluded }).where(eq(users.id, userId)).returning();
    await recordAudit(tx, actor, {
      action: excluded ? 'user.exclude' : 'user.include',
      targetType: 'user',
      targetId: userId,
      before: { excluded: before.excluded },
      after: { excluded },
    });
    return after ?? before;
  });
}

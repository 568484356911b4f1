import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { applyBalanceChange, creditMany, InsufficientBalanceError } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('ledger invariant', () => {
  it('every change is a ledger row; for every user the ledger sums to the balance', async () => {
    const a = await t.signIn();
    const b = await t.signIn();
    const db = t.database.db;
    await db.transaction(async (tx) => {
      await applyBalanceChange(tx, { userId: a.user.id, currency: 'points', delta: '10.05', reason: 'admin_grant' });
      await applyBalanceChange(tx, { userId: a.user.id, currency: 'points', delta: -3, reason: 'order' });
      await applyBalanceChange(tx, { userId: a.user.id, currency: 'gems', delta: 1.5, reason: 'daily_reward' });
      await creditMany(tx, 'points', 'chat_activity', [
        { userId: a.user.id, amount: 5 },
        { userId: b.user.id, amount: '0.01' },
      ]);
    });
    await expect(
      db.transaction((tx) =>
        applyBalanceChange(tx, { userId: b.user.id, currency: 'points', delta: -1, reason: 'order' }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect((await t.reload(a.user.id)).points).toBe('12.05');
    expect((await t.reload(b.user.id)).points).toBe('0.01');
    expect(await db.select().from(ledger).where(eq(ledger.userId, b.user.id))).toHaveLength(1);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a database constraint keeps balances non-negative, whoever writes', async () => {
    const u = await t.signIn();
    await expect(t.database.db.update(users).set({ points: '-0.01' }).where(eq(users.id, u.user.id))).rejects.toThrow();
    await expect(t.database.db.execute(sql`UPDATE users SET gems = -1 WHERE id = ${u.user.id}`)).rejects.toThrow();
  });

  it('batch credits skip excluded accounts', async () => {
    const bot = await t.signIn();
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, bot.user.id));
    const credited = await t.database.db.transaction((tx) =>
      creditMany(tx, 'points', 'chat_activity', [{ userId: bot.user.id, amount: 5 }]),
    );
    expect(credited).toEqual([]);
    expect((await t.reload(bot.user.id)).points).toBe('0.00');
  });
});

/** The fair-earning settings row (docs/features/fair-earning.md#settings): read, and the admin's change (audited). */
import { eq } from 'drizzle-orm';
import type { FairEarningSettings, FairEarningSettingsBody } from '@kickback/common/http/fair-earning';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { Db, DbOrTx } from '../../db/client';
import { fairEarningSettings, type FairEarningSettingsRow } from '../../db/schema/fair-earning';
import { users, type UserRow } from '../../db/schema/users';
import { actorOf, recordAudit } from '../audit/service';

export async function readFairSettings(db: DbOrTx): Promise<FairEarningSettingsRow> {
  const [row] = await db.select().from(fairEarningSettings).where(eq(fairEarningSettings.id, 1));
  if (!row) throw new Error('fair_earning_settings has no row (migration 1260 not applied?)');
  return row;
}

const bodyOf = (row: FairEarningSettingsRow): FairEarningSettingsBody => ({
  channelPointsDailyCap: decimalToNumber(row.channelPointsDailyCap),
  chatPointsDailyCap: decimalToNumber(row.chatPointsDailyCap),
  realChatMinChatters: row.realChatMinChatters,
  minKickAccountDays: row.minKickAccountDays,
  minLinkDays: row.minLinkDays,
  signalRetentionDays: row.signalRetentionDays,
});

export async function presentFairSettings(db: DbOrTx): Promise<FairEarningSettings> {
  const row = await readFairSettings(db);
  const [by] = row.updatedBy
    ? await db.select({ username: users.username }).from(users).where(eq(users.id, row.updatedBy))
    : [];
  return { ...bodyOf(row), updatedBy: by?.username ?? null, updatedAt: row.updatedAt.toISOString() };
}

export async function updateFairSettings(db: Db, admin: UserRow, body: FairEarningSettingsBody, now: Date) {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(fairEarningSettings).where(eq(fairEarningSettings.id, 1)).for('update');
    if (!locked) throw new Error('fair_earning_settings has no row (migration 1260 not applied?)');
    await tx
      .update(fairEarningSettings)
      .set({
        channelPointsDailyCap: centsToText(toCents(body.channelPointsDailyCap)),
        chatPointsDailyCap: centsToText(toCents(body.chatPointsDailyCap)),
        realChatMinChatters: body.realChatMinChatters,
        minKickAccountDays: body.minKickAccountDays,
        minLinkDays: body.minLinkDays,
        signalRetentionDays: body.signalRetentionDays,
        updatedBy: admin.id,
        updatedAt: now,
      })
      .where(eq(fairEarningSettings.id, 1));
    await recordAudit(tx, actorOf(admin), {
      action: 'fair_earning.settings',
      targetType: 'fair_earning',
      targetId: 'settings',
      before: bodyOf(locked),
      after: body,
    });
  });
  return presentFairSettings(db);
}

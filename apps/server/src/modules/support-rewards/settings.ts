/** The admin's support-reward amounts (one row, 1020_support_rewards.sql). */
import { eq } from 'drizzle-orm';
import { decimalToNumber } from '@kickback/common/money';
import type { SupportRewardSettings, SupportRewardSettingsBody } from '@kickback/common/http/support-rewards';
import type { DbOrTx } from '../../db/client';
import { supportRewardSettings } from '../../db/schema/support-rewards';
import { actorOf, recordAudit } from '../audit/service';

export type SettingsRow = typeof supportRewardSettings.$inferSelect;

export async function readSettingsRow(db: DbOrTx): Promise<SettingsRow> {
  const [row] = await db.select().from(supportRewardSettings).where(eq(supportRewardSettings.id, 1));
  if (!row) throw new Error('support_reward_settings has no row (migration 1020 not applied?)');
  return row;
}

export function presentSettings(row: SettingsRow): SupportRewardSettings {
  return {
    enabled: row.enabled,
    subPoints: decimalToNumber(row.subPoints),
    giftPoints: decimalToNumber(row.giftPoints),
    kickPoints: decimalToNumber(row.kickPoints),
    followPoints: decimalToNumber(row.followPoints),
    dailyCap: decimalToNumber(row.dailyCap),
    pendingHours: row.pendingHours,
    giftHoldMinutes: row.giftHoldMinutes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function updateSettings(
  db: DbOrTx,
  admin: { id: string; username: string },
  body: SupportRewardSettingsBody,
  now: Date,
): Promise<SupportRewardSettings> {
  return db.transaction(async (tx) => {
    const before = presentSettings(await readSettingsRow(tx));
    const [row] = await tx
      .update(supportRewardSettings)
      .set({
        enabled: body.enabled,
        subPoints: String(body.subPoints),
        giftPoints: String(body.giftPoints),
        kickPoints: String(body.kickPoints),
        followPoints: String(body.followPoints),
        dailyCap: String(body.dailyCap),
        pendingHours: body.pendingHours,
        giftHoldMinutes: body.giftHoldMinutes ?? before.giftHoldMinutes,
        updatedBy: admin.id,
        updatedAt: now,
      })
      .where(eq(supportRewardSettings.id, 1))
      .returning();
    const after = presentSettings(row!);
    await recordAudit(tx, actorOf(admin), { action: 'support_rewards.settings', before, after });
    return after;
  });
}

/** The giveaway's settings row and its keys: reads, and the admin's changes (audited). */
import { asc, eq, sql } from 'drizzle-orm';
import type { GiveawayKey, GiveawaySettings, GiveawaySettingsUpdate } from '@kickback/common/hubs/giveaway';
import { giveawayErrors } from '@kickback/common/giveaway/texts';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { DbOrTx, Tx } from '../../db/client';
import { giveawayKeys, giveawaySettings, type GiveawaySettingsRow } from '../../db/schema/giveaway';
import type { UserRow } from '../../db/schema/users';
import { badRequest, conflict } from '../../lib/errors';
import { actorOf, recordAudit } from '../audit/service';

export function settingsOf(row: GiveawaySettingsRow): GiveawaySettings {
  return {
    isSubOnly: row.isSubOnly,
    isClashIdLinkedOnly: row.isClashIdLinkedOnly,
    isRustMagicCodeOnly: row.isRustMagicCodeOnly,
    isRoobetCodeOnly: row.isRoobetCodeOnly,
    subLuck: row.subLuck,
    chatActivityFilterInSeconds: row.chatActivityFilterSeconds,
    rewinCooldownInSeconds: row.rewinCooldownSeconds,
    winnersPerRoll: row.winnersPerRoll,
    prizePoints: decimalToNumber(row.prizePoints),
    minLinkedDays: row.minLinkedDays,
  };
}

/** The one settings row; `lock` takes it FOR UPDATE (rolls and clears queue on it). */
export async function readSettingsRow(db: DbOrTx, lock = false): Promise<GiveawaySettingsRow> {
  const query = db.select().from(giveawaySettings).where(eq(giveawaySettings.id, 1));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new Error('giveaway_settings has no row (migration 0840 not applied?)');
  return row;
}

/** Sets the settings; one of the four optional ones left out keeps its stored value. */
export async function updateSettings(tx: Tx, admin: UserRow, change: GiveawaySettingsUpdate, now: Date): Promise<void> {
  const before = settingsOf(await readSettingsRow(tx, true));
  const next: GiveawaySettings = {
    ...change,
    rewinCooldownInSeconds: change.rewinCooldownInSeconds ?? before.rewinCooldownInSeconds,
    winnersPerRoll: change.winnersPerRoll ?? before.winnersPerRoll,
    prizePoints: change.prizePoints ?? before.prizePoints,
    minLinkedDays: change.minLinkedDays ?? before.minLinkedDays,
  };
  await tx
    .update(giveawaySettings)
    .set({
      isSubOnly: next.isSubOnly,
      isClashIdLinkedOnly: next.isClashIdLinkedOnly,
      isRustMagicCodeOnly: next.isRustMagicCodeOnly,
      isRoobetCodeOnly: next.isRoobetCodeOnly,
      subLuck: next.subLuck,
      chatActivityFilterSeconds: next.chatActivityFilterInSeconds,
      rewinCooldownSeconds: next.rewinCooldownInSeconds,
      winnersPerRoll: next.winnersPerRoll,
      prizePoints: centsToText(toCents(next.prizePoints)),
      minLinkedDays: next.minLinkedDays,
      updatedBy: admin.id,
      updatedAt: now,
    })
    .where(eq(giveawaySettings.id, 1));
  await recordAudit(tx, actorOf(admin), {
    action: 'giveaway.settings',
    targetType: 'giveaway',
    targetId: 'settings',
    before,
    after: next,
  });
}

export async function listKeys(db: DbOrTx): Promise<GiveawayKey[]> {
  const rows = await db
    .select({ key: giveawayKeys.key, isActive: giveawayKeys.isActive })
    .from(giveawayKeys)
    .orderBy(asc(giveawayKeys.createdAt), asc(giveawayKeys.keyLower));
  return rows;
}

/** Adds an active key; the same key in other letter case is the same key. */
export async function addKey(tx: Tx, admin: UserRow, key: string, now: Date): Promise<void> {
  const inserted = await tx
    .insert(giveawayKeys)
    .values({ keyLower: key.toLowerCase(), key, isActive: true, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: giveawayKeys.key });
  if (inserted.length === 0) throw conflict(giveawayErrors.keyExists);
  await recordAudit(tx, actorOf(admin), {
    action: 'giveaway.key.add',
    targetType: 'giveaway',
    targetId: key,
    after: { key },
  });
}

/** The multi-select: exactly the listed keys are active. An unknown key refuses the whole change. */
export async function setActiveKeys(tx: Tx, admin: UserRow, keys: readonly string[]): Promise<void> {
  const wanted = [...new Set(keys.map((k) => k.trim().toLowerCase()))];
  const known = new Set((await tx.select({ k: giveawayKeys.keyLower }).from(giveawayKeys)).map((r) => r.k));
  const unknown = keys.find((k) => !known.has(k.trim().toLowerCase()));
  if (unknown !== undefined) throw badRequest(giveawayErrors.unknownKey(unknown));
  const before = await listKeys(tx);
  await tx.update(giveawayKeys).set({
    isActive: sql`${giveawayKeys.keyLower} IN (SELECT jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb))`,
  });
  await recordAudit(tx, actorOf(admin), {
    action: 'giveaway.keys.set',
    targetType: 'giveaway',
    targetId: 'keys',
    before,
    after: { active: wanted },
  });
}

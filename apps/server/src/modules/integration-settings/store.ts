/**
 * The integration settings saved on the site: one `settings` row (`integrations`) whose values are
 * each sealed with AES-256-GCM (lib/secret-box.ts), by variable name. A save locks the row, checks the
 * whole combination as the server would read it (a client id without its secret is refused), and
 * audits which fields changed — never their values — in the same transaction.
 */
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  integrationSettingFields,
  integrationSettingNames,
  type IntegrationSettingName,
  type IntegrationSettingsBody,
} from '@kickback/common/http/integration-settings';
import { ConfigError, integrationsWith, type Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/audit';
import { badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { recordAudit, type Actor } from '../audit/service';

export const INTEGRATIONS_ROW = 'integrations';
const sealedRow = z.object({ sealed: z.record(z.string(), z.string()) });

export type PlainSettings = Partial<Record<IntegrationSettingName, string>>;

async function sealedValues(db: DbOrTx, lock = false): Promise<Record<string, string>> {
  const query = db.select({ value: settings.value }).from(settings).where(eq(settings.key, INTEGRATIONS_ROW));
  const [row] = lock ? await query.for('update') : await query;
  const parsed = sealedRow.safeParse(row?.value);
  return parsed.success ? parsed.data.sealed : {};
}

/** The saved values, opened; one that does not open (another key) is left out and named. */
export async function readIntegrationSettings(
  db: DbOrTx,
  box: SecretBox,
): Promise<{ values: PlainSettings; unreadable: string[] }> {
  const sealed = await sealedValues(db);
  const values: PlainSettings = {};
  const unreadable: string[] = [];
  for (const name of integrationSettingNames) {
    const s = sealed[name];
    if (s === undefined) continue;
    const plain = box.open(s);
    if (plain === null) unreadable.push(name);
    else values[name] = plain;
  }
  return { values, unreadable };
}

/** When the settings row last changed (what other processes compare to notice a change). */
export async function integrationSettingsStamp(db: DbOrTx): Promise<string | null> {
  const [row] = await db.select({ at: settings.updatedAt }).from(settings).where(eq(settings.key, INTEGRATIONS_ROW));
  return row ? row.at.toISOString() : null;
}

/** Which variable a configuration error is about: the one it names to fix, else the first field named in its message. */
function fieldOf(err: ConfigError, changed: readonly string[]): string | undefined {
  if (err.detail.field) return err.detail.field;
  const named = integrationSettingNames.filter((n) => err.message.includes(n));
  return named.find((n) => changed.includes(n)) ?? named[0];
}

/** A configuration error as the settings page says it: its own words, else each variable by its field's label. */
function inWords(err: ConfigError): string {
  if (err.detail.words) return err.detail.words;
  const byLength = [...integrationSettingNames].sort((a, b) => b.length - a.length);
  return byLength.reduce(
    (text, name) => text.replaceAll(name, integrationSettingFields[name].label),
    err.message.replace(/^Invalid configuration: /, ''),
  );
}

export async function saveIntegrationSettings(
  db: Db,
  config: Config,
  box: SecretBox,
  actor: Actor,
  body: IntegrationSettingsBody,
): Promise<{ changed: string[] }> {
  return db.transaction(async (tx) => {
    await tx
      .insert(settings)
      .values({ key: INTEGRATIONS_ROW, value: { sealed: {} } })
      .onConflictDoNothing();
    const sealed = await sealedValues(tx, true);
    const current = await readIntegrationSettings(tx, box);
    const next: PlainSettings = { ...current.values };
    const changed: string[] = [];
    for (const name of integrationSettingNames) {
      if (!(name in body)) continue;
      const value = body[name];
      if (value === undefined) continue;
      if (value === null || value === '') {
        if (sealed[name] === undefined) continue;
        delete next[name];
        delete sealed[name];
      } else {
        if (next[name] === value) continue;
        next[name] = value;
        sealed[name] = box.seal(value);
      }
      changed.push(name);
    }
    if (changed.length === 0) return { changed };
    try {
      integrationsWith(config, next as Record<string, string>);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw badRequest(inWords(err), fieldOf(err, changed));
    }
    await tx
      .update(settings)
      .set({ value: { sealed }, updatedAt: sql`now()` })
      .where(eq(settings.key, INTEGRATIONS_ROW));
    await recordAudit(tx, actor, {
      action: 'settings.integrations',
      targetType: 'settings',
      targetId: INTEGRATIONS_ROW,
      // Which fields changed (set or cleared), never a value.
      after: { changed, cleared: changed.filter((n) => next[n as IntegrationSettingName] === undefined) },
    });
    return { changed };
  });
}

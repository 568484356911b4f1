/**
 * The key that seals the integration settings stored on the site (docs/features/integration-settings.md):
 * SECRET_KEY when set; else one generated at the first start and reused — in the PGlite data folder
 * (`secret.key`, mode 0600) or, on PostgreSQL (and an in-memory PGlite), in the `settings` row
 * `secret_key`, so every process of a cluster reads the same key.
 */
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/audit';
import { randomToken } from '../../lib/random';

export interface SecretKey {
  key: string;
  source: 'SECRET_KEY' | 'data folder' | 'database';
  /** Where it lives, said to the admin (never the key). */
  where: string;
}

export const SECRET_KEY_FILE = 'secret.key';
const SECRET_KEY_ROW = 'secret_key';
const stored = z.object({ key: z.string().min(32) });

async function fileKey(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // Written whole under a name of its own, then linked into place: a second process starting at
  // the same moment either finds no file or the whole key (never an empty one being written), and
  // its own link fails (EEXIST), so it keeps the first one's key.
  const draft = `${file}.${process.pid}.${randomToken(6)}`;
  await writeFile(draft, randomToken(32), { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return (await readFile(file, 'utf8')).trim();
}

async function rowKey(db: DbOrTx): Promise<string> {
  await db
    .insert(settings)
    .values({ key: SECRET_KEY_ROW, value: { key: randomToken(32) } })
    .onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SECRET_KEY_ROW));
  return stored.parse(row?.value).key;
}

export async function loadSecretKey(config: Config, db: DbOrTx): Promise<SecretKey> {
  if (config.secretKey) {
    return { key: config.secretKey, source: 'SECRET_KEY', where: 'the SECRET_KEY environment variable' };
  }
  if (config.database.kind === 'pglite' && config.database.dataDir) {
    const file = path.join(config.database.dataDir, SECRET_KEY_FILE);
    return { key: await fileKey(file), source: 'data folder', where: file };
  }
  return { key: await rowKey(db), source: 'database', where: `the settings table (row "${SECRET_KEY_ROW}")` };
}

/**
 * Scheduled backups (docs/backups.md): with BACKUP_DIR set, a backup of the whole database every
 * BACKUP_INTERVAL_HOURS into that folder, the newest BACKUP_KEEP files kept. The schedule lives in
 * the `settings` row `backup_schedule` (the next time due and the last backup: time, file, size,
 * error), so it survives restarts, and the process whose conditional update moves `nextAt` on is the
 * one that writes the backup: it fires once across every process on the database.
 */
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../../lib/plugin';
import { z } from 'zod';
import { BACKUP_SCHEDULE_ROW, writeBackup } from '../../db/backup';
import { settings } from '../../db/schema/audit';

const FILE = /^kickback-\d{8}T\d{6}Z?(-\d+)?\.kbk\.gz$/;
/** How often a process looks whether a backup is due. */
const CHECK_MS = 60_000;
/**
 * How much further than one interval `nextAt` must be to count as set by a longer interval: more than
 * any gap between two processes' clocks reading the same claim, so a claim just moved on by another
 * process is never taken again.
 */
const LOWERED_SLACK_MS = 10 * 60_000;

export const lastBackup = z.object({
  at: z.string(),
  file: z.string().nullable(),
  size: z.number().nullable(),
  error: z.string().nullable(),
});
export type LastBackup = z.infer<typeof lastBackup>;
const scheduleRow = z.object({ nextAt: z.string(), last: lastBackup.nullable() });

/** `kickback-20261128T041500Z.kbk.gz`: sorts by time. */
export function backupFileName(at: Date): string {
  return `kickback-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}.kbk.gz`;
}

export async function lastBackupNow(app: FastifyInstance): Promise<LastBackup | null> {
  const [row] = await app.db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, BACKUP_SCHEDULE_ROW));
  const parsed = scheduleRow.safeParse(row?.value);
  return parsed.success ? parsed.data.last : null;
}

/**
 * Takes the due backup if this process is the one to move the schedule on; false when not due. Due
 * at `nextAt`, or at once when `nextAt` is further away than one interval (BACKUP_INTERVAL_HOURS was
 * lowered): a shorter interval does not wait for the time the longer one set.
 */
async function claim(app: FastifyInstance, now: Date, next: Date): Promise<boolean> {
  const lowered = new Date(next.getTime() + LOWERED_SLACK_MS);
  await app.db
    .insert(settings)
    .values({ key: BACKUP_SCHEDULE_ROW, value: { nextAt: now.toISOString(), last: null } })
    .onConflictDoNothing();
  const moved = await app.db
    .update(settings)
    .set({
      value: sql`jsonb_set(${settings.value}, '{nextAt}', to_jsonb(${next.toISOString()}::text))`,
      updatedAt: sql`now()`,
    })
    .where(
      sql`${settings.key} = ${BACKUP_SCHEDULE_ROW} and ((${settings.value}->>'nextAt')::timestamptz <= ${now.toISOString()}::timestamptz or (${settings.value}->>'nextAt')::timestamptz > ${lowered.toISOString()}::timestamptz)`,
    )
    .returning({ key: settings.key });
  return moved.length === 1;
}

async function record(app: FastifyInstance, last: LastBackup): Promise<void> {
  await app.db
    .update(settings)
    .set({ value: sql`jsonb_set(${settings.value}, '{last}', ${JSON.stringify(last)}::jsonb)`, updatedAt: sql`now()` })
    .where(eq(settings.key, BACKUP_SCHEDULE_ROW));
}

/** Deletes the oldest backup files past `keep` (only files named like ours). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => FILE.test(f)).sort();
  const old = files.slice(0, Math.max(0, files.length - keep));
  for (const f of old) await unlink(path.join(dir, f));
  return old;
}

/** Writes the backup if one is due (and this process claimed it); the record of the last one otherwise. */
export async function runDueBackup(app: FastifyInstance): Promise<LastBackup | null> {
  const { dir, intervalHours, keep } = app.config.backups;
  if (!dir) return null;
  const now = app.clock.now();
  if (!(await claim(app, now, new Date(now.getTime() + intervalHours * 3_600_000)))) return null;
  let last: LastBackup;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, backupFileName(now));
    await writeBackup(app.db, file, now);
    last = { at: now.toISOString(), file, size: (await stat(file)).size, error: null };
    await pruneBackups(dir, keep);
    app.log.info({ file, size: last.size }, 'scheduled backup written');
  } catch (err) {
    last = { at: now.toISOString(), file: null, size: null, error: (err as Error).message.slice(0, 300) };
    app.log.error({ err }, 'scheduled backup failed');
  }
  await record(app, last);
  return last;
}

/** In a listening server with BACKUP_DIR: looks every minute whether a backup is due. */
export const backupSchedulePlugin = plugin({
  name: 'backupSchedulePlugin',
})(async (app: FastifyInstance) => {
  if (!app.config.backups.dir) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= runDueBackup(app)
      .catch((err: unknown) => app.log.error({ err }, 'backup schedule check failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onListen', async () => {
    tick();
    timer = setInterval(tick, CHECK_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
});

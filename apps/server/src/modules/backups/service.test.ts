/**
 * Scheduled backups: due once per interval across every process on the database (on PostgreSQL the
 * two processes' claims really race), written through the backup code, the newest BACKUP_KEEP kept,
 * and the last one recorded for Admin → Go live.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { goLiveChecklist } from '../integrations/go-live';
import { lastBackupNow, runDueBackup } from './service';

let t: TestApp;
let dir: string;
afterEach(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const HOUR = 3_600_000;
const backupItem = async (app: TestApp['app']) =>
  (await goLiveChecklist(app)).sections.flatMap((s) => s.items).find((i) => i.id === 'backups');

describe('scheduled backups', () => {
  it('fire once per interval across two processes, keep the newest N, and show the last on Go live', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kb-backups-'));
    const env = { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '6', BACKUP_KEEP: '2' };
    t = await buildTestApp({ env });
    const other = await buildTestApp({
      env,
      clock: t.clock,
      database: t.database as TestApp['database'] & { drop(): Promise<void> },
    });
    try {
      expect(await backupItem(t.app)).toMatchObject({ state: 'optional', detail: expect.stringContaining(dir) });
      const files = async () => (await readdir(dir)).sort();
      // Due at the first look: both processes look at the same moment, one writes.
      const first = await Promise.all([runDueBackup(t.app), runDueBackup(other.app)]);
      expect(first.filter((r) => r !== null)).toHaveLength(1);
      expect(await files()).toHaveLength(1);
      // Not due again before the interval.
      t.clock.advance(5 * HOUR);
      expect(await Promise.all([runDueBackup(t.app), runDueBackup(other.app)])).toEqual([null, null]);
      for (let i = 0; i < 3; i += 1) {
        t.clock.advance(6 * HOUR);
        const round = await Promise.all([runDueBackup(other.app), runDueBackup(t.app)]);
        expect(round.filter((r) => r !== null)).toHaveLength(1);
      }
      // Four written, the newest two kept.
      const kept = await files();
      expect(kept).toHaveLength(2);
      const last = await lastBackupNow(t.app);
      expect(last).toMatchObject({ at: t.clock.now().toISOString(), error: null });
      expect(path.basename(last?.file ?? '')).toBe(kept[1]);
      expect(last?.size).toBeGreaterThan(0);
      expect(await backupItem(t.app)).toMatchObject({
        state: 'ready',
        detail: expect.stringContaining(kept[1] ?? '?'),
      });
    } finally {
      await other.close();
    }
  });

  it('records a failure, shown as To do on Go live', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kb-backups-'));
    // A file where the folder should be: the backup cannot be written.
    const blocked = path.join(dir, 'not-a-folder');
    await (await import('node:fs/promises')).writeFile(blocked, 'x');
    t = await buildTestApp({ env: { BACKUP_DIR: blocked } });
    const last = await runDueBackup(t.app);
    expect(last).toMatchObject({ file: null, error: expect.any(String) });
    expect(await backupItem(t.app)).toMatchObject({ state: 'todo', detail: expect.stringContaining('failed') });
  });

  it('without BACKUP_DIR nothing is scheduled and Go live says how to set it up', async () => {
    dir = '';
    t = await buildTestApp();
    expect(await runDueBackup(t.app)).toBeNull();
    expect(await backupItem(t.app)).toMatchObject({ state: 'optional', detail: expect.stringContaining('BACKUP_DIR') });
  });

  it('a lowered interval does not wait for the due time the longer one set', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kb-backups-'));
    t = await buildTestApp({ env: { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '24' } });
    expect(await runDueBackup(t.app)).not.toBeNull();
    // Restarted with a 6-hour interval: the next look writes one (the old due time is 23 hours away).
    const shorter = await buildTestApp({
      env: { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '6' },
      clock: t.clock,
      database: t.database as TestApp['database'] & { drop(): Promise<void> },
    });
    try {
      t.clock.advance(HOUR);
      expect(await runDueBackup(shorter.app)).not.toBeNull();
      // Then every 6 hours, and not before.
      t.clock.advance(5 * HOUR);
      expect(await runDueBackup(shorter.app)).toBeNull();
      t.clock.advance(HOUR);
      expect(await runDueBackup(shorter.app)).not.toBeNull();
    } finally {
      await shorter.close();
    }
  });
});

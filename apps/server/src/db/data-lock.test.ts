import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, lockFile, lockHolder } from './data-lock';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kb-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the data-folder lock', () => {
  it('is exclusive: a second holder is refused with a message that says what to do', async () => {
    const dir = tempDir();
    // Another live process holds the folder.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(lockFile(dir), String(other.pid));
      expect(lockHolder(dir)).toBe(other.pid);
      const attempt = () => acquireDataDirLock(dir);
      expect(attempt).toThrow(DataDirLockedError);
      expect(attempt).toThrow(/in use by another Kickback process .*DATABASE_URL/s);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock whose process is gone, and releases it', () => {
    const dir = tempDir();
    writeFileSync(lockFile(dir), '999999999');
    const lock = acquireDataDirLock(dir);
    expect(lockHolder(dir)).toBe(process.pid);
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});

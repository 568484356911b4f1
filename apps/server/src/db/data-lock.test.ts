import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerProcesses } from '../../test/processes';
import { acquireDataDirLock, DataDirLockedError, lockHolder, lockSocketPath } from './data-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: ServerProcesses[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kb-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const s of servers.splice(0)) await s.stopAll('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the data-folder lock', () => {
  it('is exclusive, names the holder, and is free again once released', async () => {
    const dir = tempDir();
    const lock = await acquireDataDirLock(dir);
    expect(await lockHolder(dir)).toBe(process.pid);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(
      new RegExp(`in use by another Kickback process \\(pid ${process.pid}\\).*DATABASE_URL`, 's'),
    );
    lock.release();
    expect(await lockHolder(dir)).toBeNull();
    (await acquireDataDirLock(dir)).release();
  });

  it('takes over the socket file a dead process left, once, even with two takers at the same moment', async () => {
    const dir = tempDir();
    // A leftover: the socket file of a process killed with SIGKILL (nobody listens on it).
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(lockSocketPath(dir))}, () => console.log('up'))`,
    ]);
    children.push(child);
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(lockSocketPath(dir))).toBe(true);
    expect(await lockHolder(dir)).toBeNull();
    // And a pid file of old naming a live process (pid reuse) means nothing.
    writeFileSync(path.join(dir, 'kickback.lock'), '1');

    const results = await Promise.allSettled([acquireDataDirLock(dir), acquireDataDirLock(dir)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(DataDirLockedError);
    (won[0] as PromiseFulfilledResult<{ release(): void }>).value.release();
  });
});

/** A server on the embedded database in `dataDir` (not started yet). */
function server(dataDir: string): ServerProcesses {
  const s = new ServerProcesses({
    env: { NODE_ENV: 'development', DATA_DIR: dataDir, DEMO_DATA: '0', LEADERBOARD_POLLER: '0', LOG_LEVEL: 'warn' },
    // A start on a PGlite folder (PostgreSQL in WebAssembly, every migration; once through tsx):
    // one took over 90 s on the 2-core machine with a load average near 30 (docs/conventions.md#timeouts).
    startMs: 180_000,
  });
  servers.push(s);
  return s;
}

describe('servers on one embedded database folder', () => {
  it('refuses a second live server with the clear message, and starts again after a kill -9', async () => {
    const dataDir = tempDir();
    const first = await server(dataDir).start();

    const second = await server(dataDir).spawn();
    const { code } = await second.members[0]!.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`is in use by another Kickback process (pid ${first.members[0]!.child.pid})`);

    await first.kill(0);
    await first.restart(0); // on the same port
    await first.stop(0);
  }, 360_000); // two such starts and a refused one, one after another
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, serverDir } from '../../test/multi-process';
import { acquireDataDirLock, DataDirLockedError, lockHolder, lockSocketPath } from './data-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kb-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
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

function startServer(dataDir: string, port: number, output: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DEMO_DATA: '0',
      LEADERBOARD_POLLER: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  children.push(child);
  return child;
}

async function up(port: number, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output.join('')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('servers on one embedded database folder', () => {
  it('refuses a second live server with the clear message, and starts again after a kill -9', async () => {
    const dataDir = tempDir();
    const output: string[] = [];
    const port = await freePort();
    const first = startServer(dataDir, port, output);
    await up(port, first, output);

    const secondOutput: string[] = [];
    const second = startServer(dataDir, await freePort(), secondOutput);
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(secondOutput.join('')).toContain(`is in use by another Kickback process (pid ${first.pid})`);

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const again = startServer(dataDir, port, output);
    await up(port, again, output);
    again.kill('SIGTERM');
    await new Promise((resolve) => again.once('exit', resolve));
  }, 180_000);
});

/**
 * The server itself, started as a streamer would on a rented server with a public PUBLIC_URL and no
 * Steam settings, refuses to start: the dev identity provider would let anyone sign in as the admin
 * (docs/go-live.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DATA_DIR: ':memory:', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit; it printed:\n${output}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('starting on a public address', () => {
  it('refuses the dev identity provider and names the setting to change', async () => {
    const { code, output } = await start({ PUBLIC_URL: 'https://vex.example.com' });
    expect(code).toBe(1);
    expect(output).toMatch(/PUBLIC_URL https:\/\/vex\.example\.com is a public address/);
    expect(output).toMatch(/STEAM_API_KEY/);
    expect(output).toMatch(/ALLOW_DEV_SIGNIN=1/);
    expect(output).not.toMatch(/Kickback is running/);
  });
});

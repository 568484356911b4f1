/**
 * The server itself, started as a streamer would on a rented server with a public PUBLIC_URL and no
 * Steam settings, refuses to start: the dev identity provider would let anyone sign in as the admin
 * (docs/go-live.md).
 */
import { describe, expect, it } from 'vitest';
import { ServerProcesses } from '../test/processes';

/** Starts the server with `env` and waits until it exits (killed, and the test failed, after 30 s). */
async function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const server = await new ServerProcesses({ env: { DATA_DIR: ':memory:', LOG_LEVEL: 'warn', ...env } }).spawn();
  const timer = setTimeout(() => void server.kill(0), 30_000);
  const { code, signal } = await server.members[0]!.exited;
  clearTimeout(timer);
  if (signal) throw new Error(`the server did not exit; it printed:\n${server.output()}`);
  return { code, output: server.output() };
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

describe('starting with a database that does not answer', () => {
  it('stops with one line naming DATABASE_URL (password hidden) and the reason, no stack trace', async () => {
    const { code, output } = await start({ DATABASE_URL: 'postgres://kb:hunter2@127.0.0.1:1/kickback' });
    expect(code).toBe(1);
    expect(output).toMatch(
      /Cannot open the database at DATABASE_URL postgres:\/\/kb:\*\*\*@127\.0\.0\.1:1\/kickback: nothing answers there.*\[ECONNREFUSED\]/,
    );
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/^\s+at /m);
  });
});

describe('process warnings', () => {
  it('go into the JSON log (with Redis, the adapter subscribes once per hub)', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const servers = await new ServerProcesses({
      env: { DATA_DIR: ':memory:', LOG_LEVEL: 'warn', REDIS_URL: redisUrl, REDIS_PREFIX: `kbwarn:${process.pid}:` },
    }).start();
    await servers.stopAll();
    const output = servers.output();
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    expect(
      lines.filter((l) => !l.startsWith('{')),
      output,
    ).toEqual([]);
    expect(output).toContain('"warning":"MaxListenersExceededWarning"');
  });
});

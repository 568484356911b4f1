/**
 * The request log is written asynchronously in 8 KB batches (lib/log-destination.ts,
 * docs/operations.md#logs); a graceful stop must still write every line. The server itself is
 * started at the default log level with its standard output on a pipe, as a process manager runs it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const port = 21_000 + (process.pid % 5_000);
const base = `http://127.0.0.1:${port}`;

it('writes every request line, and the last lines, before a graceful stop exits', { timeout: 90_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      DRAIN_MS: '0',
      LEADERBOARD_POLLER: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    let up = false;
    for (let i = 0; i < 240 && !up; i++) {
      up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 250));
    }
    expect(up, stderr).toBe(true);
    const headers = { 'X-Requested-With': 'kickback' };
    // The cached read is answered on the fast path, the other through the router: both log.
    for (let i = 0; i < 200; i++) expect((await fetch(`${base}/api/site`, { headers })).status).toBe(200);
    for (let i = 0; i < 20; i++) await fetch(`${base}/api/Product/GetProducts`, { headers });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
  const lines = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; url?: string });
  expect(lines.filter((l) => l.msg === 'request' && l.url === '/api/site')).toHaveLength(200);
  expect(lines.filter((l) => l.msg === 'request' && l.url === '/api/Product/GetProducts')).toHaveLength(20);
  expect(lines.map((l) => l.msg)).toContain('shutting down');
});

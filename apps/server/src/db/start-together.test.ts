/**
 * Two server processes starting at the same moment on an empty PostgreSQL with demo data on: both
 * come up (migrations and the demo seed run once, under one lock), and the seed is there once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * like the other multi-process tests; skipped outside CI with the reason printed when missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { admin, baseUrl, freePort, missing, serverDir, withDatabase } from '../../test/multi-process';

describe.skipIf(missing !== null)('two processes starting together on an empty PostgreSQL', () => {
  const dbName = `kb_start_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const processes: ChildProcess[] = [];

  afterAll(async () => {
    for (const p of processes) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(processes.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : null)));
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }, 30_000);

  it('both come up, and the demo data is seeded once', async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const ports = [await freePort(), await freePort()];
    const output: string[] = [];
    const exits: Array<number | null> = [null, null];
    ports.forEach((port, i) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: withDatabase(baseUrl, dbName),
          DEMO_DATA: '1',
          LEADERBOARD_POLLER: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      child.on('exit', (code) => (exits[i] = code ?? -1));
      processes.push(child);
    });
    for (const [i, port] of ports.entries()) {
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (exits[i] !== null) throw new Error(`process ${i} exited (${exits[i]}):\n${output.join('')}`);
        const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`process ${i} did not start:\n${output.join('')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const client = new pg.Client({ connectionString: withDatabase(baseUrl, dbName) });
    await client.connect();
    try {
      const { rows } = await client.query<{ all: string; names: string }>(
        'SELECT count(*) AS all, count(DISTINCT name) AS names FROM products',
      );
      expect(Number(rows[0]!.all)).toBeGreaterThan(0);
      expect(rows[0]!.all).toBe(rows[0]!.names);
    } finally {
      await client.end();
    }
    expect(exits).toEqual([null, null]);
  }, 120_000);
});

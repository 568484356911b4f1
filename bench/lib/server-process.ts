/** The server under measurement as its own process, and the CPU it (and PostgreSQL) spend. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { logLevelEnv, logLevelLine, serverLogFile } from './server-log';

/** BENCH_SERVER_MAIN runs another build (for example main's, kept aside, to measure before and after). */
export const serverMain =
  process.env.BENCH_SERVER_MAIN ?? fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));

/** CPU time (ms) a process has used so far, from /proc (Linux; 0 elsewhere). */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s
  } catch {
    return 0;
  }
}

export interface CpuSnapshot {
  client: number;
  server: number;
  backends: Map<number, number>;
}

/** CPU used so far by this client, the server process and (on PostgreSQL) the database's backends. */
export async function cpuSnapshot(serverPid: number, databaseUrl: string | null): Promise<CpuSnapshot> {
  const { user, system } = process.cpuUsage();
  const backends = new Map<number, number>();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    await client.end();
    for (const { pid } of rows) backends.set(pid, processCpuMs(pid));
  }
  return { client: (user + system) / 1000, server: processCpuMs(serverPid), backends };
}

/** CPU (ms) spent between two snapshots: client, server, and the PostgreSQL backends still there. */
export function cpuSpent(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { client: number; server: number; postgres: number } {
  let postgres = 0;
  for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
  return { client: after.client - before.client, server: after.server - before.server, postgres };
}

/** Starts the built server on `port` and waits for /healthz. */
export async function startServer(
  port: number,
  databaseUrl: string | null,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS: extra Node flags for the server under test (say `--trace-gc`).
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const log = serverLogFile(`server-${port}`);
  const child = spawn(process.execPath, [...extra, ...nodeArgs, serverMain], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LEADERBOARD_POLLER: '0',
      DATABASE_URL: databaseUrl ?? '',
      ...logLevelEnv(),
      ...env,
    },
    stdio: ['ignore', extra.length > 0 ? 'inherit' : log.fd, 'inherit'],
  });
  console.log(logLevelLine(log.file));
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error('server did not come up');
}

export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

/** A statement as the PostgreSQL admin (creating and dropping the benchmark's database, filling it). */
export async function adminQuery(url: string, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

/**
 * Runs `fn` on a fresh database made on the PostgreSQL at BENCH_DATABASE_URL (or the local server
 * when one answers) and drops it afterwards. When nothing answers and no URL was set, says so and
 * answers true (skipped, not failed).
 */
export async function withFreshPgDatabase(fn: (databaseUrl: string) => Promise<boolean>): Promise<boolean> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kb_bench_${randomBytes(4).toString('hex')}`;
  try {
    await adminQuery(url, `CREATE DATABASE ${name}`);
  } catch (err) {
    if (process.env.BENCH_DATABASE_URL) throw err;
    console.log(`\nPostgreSQL: nothing answers at ${url} (set BENCH_DATABASE_URL); skipped.`);
    return true;
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  try {
    return await fn(u.toString());
  } finally {
    await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * The server under measurement as its own process (apps/server/test/processes.ts, as the tests
 * start theirs), and the CPU it (and PostgreSQL) spend.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { builtServer, ServerProcesses, type ServerCommand } from '../../apps/server/test/processes';
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

/** The built server run with these Node flags (BENCH_SERVER_NODE_ARGS adds more: say `--trace-gc`). */
export function benchServer(nodeArgs: string[] = []): ServerCommand {
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  return builtServer(serverMain, [...extra, ...nodeArgs]);
}

/**
 * The built server as a benchmark runs it (in-memory PGlite unless `databaseUrl`, no demo data,
 * no rate limit, standard output in a log file) on `port`; `ready` says when it is up (default
 * /healthz).
 */
export async function startServer(
  port: number,
  databaseUrl: string | null,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  ready?: (url: string) => Promise<boolean>,
): Promise<ChildProcess> {
  const traced = Boolean(process.env.BENCH_SERVER_NODE_ARGS?.trim());
  const log = serverLogFile(`server-${port}`);
  const servers = new ServerProcesses({
    command: benchServer(nodeArgs),
    ports: [port],
    inheritEnv: true,
    env: {
      NODE_ENV: 'development',
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LEADERBOARD_POLLER: '0',
      DATABASE_URL: databaseUrl ?? '',
      ...logLevelEnv(),
      ...env,
    },
    output: { stdout: traced ? 'inherit' : log.fd, stderr: 'inherit' },
    ...(ready ? { ready } : {}),
    startMs: 120_000,
  });
  console.log(logLevelLine(log.file));
  await servers.start();
  return servers.members[0]!.child;
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

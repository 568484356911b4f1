/**
 * `npm run cluster [-- --processes 3 --port 8080]`: HAProxy in front of N Kickback processes on
 * PostgreSQL and Redis, on this machine
 * (docs/operations.md#npm-run-cluster-several-processes-on-this-machine). The proxy configuration
 * is deploy/haproxy.cfg (the one docker-compose.yml uses) with its `server-template` line replaced
 * by the local processes. DATABASE_URL defaults to a `kickback` database on the local PostgreSQL
 * (created when missing), REDIS_URL to the local Redis. The processes run the built server (built
 * first when missing or stale, like `npm start`), with DRAIN_MS (default 5000) so a SIGTERM drains
 * through the proxy.
 *
 * While it runs: Ctrl-C stops everything; `kill -HUP <pid>` restarts the processes one at a time
 * (a rolling restart). The same `Cluster` drives the rolling-restart test and benchmark
 * (apps/server/test/rolling-restart.ts). The processes themselves are apps/server/test/processes.ts's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  builtServer,
  freePort,
  ServerProcesses,
  type ServerCommand,
  type ServerProcess,
} from '../apps/server/test/processes';
// @ts-expect-error -- a plain .mjs script without types
import { staleParts } from './build-state.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const haproxyTemplate = path.join(root, 'deploy/haproxy.cfg');

/**
 * deploy/haproxy.cfg for local processes: the `bind` on `port` (loopback), the `server-template`
 * replaced by one `server` per address, and a CSV stats page on `statsPort` (loopback) from which
 * the cluster learns when the proxy counts a process in or out.
 */
export function localHaproxyConfig(template: string, port: number, servers: string[], statsPort: number): string {
  const lines = template.split('\n');
  const out: string[] = [];
  let skippingResolvers = false;
  for (const line of lines) {
    if (/^resolvers\s/.test(line)) {
      skippingResolvers = true; // Docker's DNS is not here
      continue;
    }
    if (skippingResolvers) {
      if (/^\S/.test(line)) skippingResolvers = false;
      else continue;
    }
    if (/^\s+bind\s/.test(line)) {
      out.push(`    bind 127.0.0.1:${port}`);
    } else if (/^\s+server-template\s/.test(line)) {
      servers.forEach((address, i) => out.push(`    server app${i + 1} ${address}`));
    } else {
      out.push(line);
    }
  }
  if (!out.some((l) => /^\s+bind\s/.test(l))) throw new Error('deploy/haproxy.cfg has no bind line');
  if (!out.some((l) => /^\s+server app1\s/.test(l))) throw new Error('deploy/haproxy.cfg has no server-template line');
  out.push('', 'listen stats', `    bind 127.0.0.1:${statsPort}`, '    stats enable', '    stats uri /stats', '');
  return out.join('\n');
}

export interface ClusterOptions {
  processes: number;
  /** The proxy's port (loopback). */
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /** Extra environment for every process (PUBLIC_URL, DRAIN_MS and the rest have defaults). */
  env?: Record<string, string>;
  /** How a process is started (default: the built server, `node apps/server/dist/main.js`). */
  command?: ServerCommand;
  /** Where the processes' and the proxy's output goes (default: this process's output, prefixed). */
  output?: (source: string, text: string) => void;
}

/** N server processes and HAProxy in front of them. */
export class Cluster {
  readonly url: string;
  readonly processes: ServerProcesses;
  private proxy: ChildProcess | null = null;
  private statsPort = 0;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'kickback-cluster-'));

  constructor(private readonly opts: ClusterOptions) {
    this.url = `http://127.0.0.1:${opts.port}`;
    this.processes = new ServerProcesses({
      count: opts.processes,
      command: opts.command ?? builtServer(path.join(root, 'apps/server/dist/main.js'), ['--enable-source-maps']),
      inheritEnv: true,
      env: {
        PUBLIC_URL: this.url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        DRAIN_MS: '5000',
        TRUST_PROXY: '1',
        ...pick(process.env, ['PUBLIC_URL', 'SESSION_SECRET', 'DRAIN_MS', 'TRUST_PROXY']),
        ...opts.env,
      },
      databaseUrl: opts.databaseUrl,
      redisUrl: opts.redisUrl,
      output: this.out,
      keepOutput: false, // a cluster runs for hours; its output goes to `out`
    });
  }

  get members(): ServerProcess[] {
    return this.processes.members;
  }

  async start(): Promise<void> {
    // They start together: migrations and the demo data run once, under PostgreSQL's advisory lock.
    await this.processes.start();
    this.statsPort = await freePort();
    const cfg = path.join(this.dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      localHaproxyConfig(
        readFileSync(haproxyTemplate, 'utf8'),
        this.opts.port,
        this.members.map((m) => `127.0.0.1:${m.port}`),
        this.statsPort,
      ),
    );
    const proxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy.stdout.on('data', (d: Buffer) => this.out('haproxy', d.toString()));
    proxy.stderr.on('data', (d: Buffer) => this.out('haproxy', d.toString()));
    this.proxy = proxy;
    const started = await new Promise<boolean>((resolve) => {
      proxy.once('error', () => resolve(false));
      proxy.once('spawn', () => resolve(true));
    });
    if (!started) throw new Error('haproxy is not installed (apt-get install haproxy)');
    for (const m of this.members) await this.waitProxyState(m, 'UP');
  }

  /** SIGTERM to one process; resolves once it exited, was started again and the proxy counts it in. */
  async restart(index: number): Promise<{ downAfterMs: number; exitedAfterMs: number; backAfterMs: number }> {
    const m = this.members[index]!;
    const t0 = Date.now();
    const exited = this.processes.stop(index);
    await this.waitProxyState(m, 'DOWN');
    const downAfterMs = Date.now() - t0;
    await exited;
    const exitedAfterMs = Date.now() - t0;
    await this.processes.restart(index);
    await this.waitProxyState(m, 'UP');
    return { downAfterMs, exitedAfterMs, backAfterMs: Date.now() - t0 };
  }

  /** Restarts every process in turn. */
  async rollingRestart(): Promise<Array<{ downAfterMs: number; exitedAfterMs: number; backAfterMs: number }>> {
    const figures = [];
    for (let i = 0; i < this.members.length; i++) figures.push(await this.restart(i));
    return figures;
  }

  async stop(): Promise<void> {
    await this.processes.stopAll();
    const proxy = this.proxy;
    if (proxy && proxy.exitCode === null && proxy.signalCode === null) {
      await new Promise<void>((resolve) => {
        proxy.once('exit', () => resolve());
        proxy.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The proxy's view of each process: UP, DOWN, or a transition such as "UP 1/2". */
  async proxyStates(): Promise<Map<string, string>> {
    const res = await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`);
    const [header, ...rows] = (await res.text()).trim().split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const states = new Map<string, string>();
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[at('pxname')] === 'app' && /^app\d+$/.test(cells[at('svname')]!)) {
        states.set(cells[at('svname')]!, cells[at('status')]!);
      }
    }
    return states;
  }

  private async waitProxyState(m: ServerProcess, state: 'UP' | 'DOWN', ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = (await this.proxyStates().catch(() => new Map<string, string>())).get(m.name);
      if (now === state) return;
      if (this.proxy && this.proxy.exitCode !== null) throw new Error(`haproxy exited (${this.proxy.exitCode})`);
      if (Date.now() > deadline) throw new Error(`${m.name} did not turn ${state} at the proxy (it is ${now})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private readonly out = (source: string, text: string): void => {
    if (this.opts.output) this.opts.output(source, text);
    else process.stdout.write(prefixed(source, text));
  };
}

/** The entries of `env` among `names` that are set. */
function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (env[n] !== undefined ? [[n, env[n]]] : [])));
}

function prefixed(source: string, text: string): string {
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => `[${source}] ${l}\n`)
    .join('');
}

/** Creates `url`'s database when it is missing (connecting to the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unexpected database name in ${url}`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

async function main(): Promise<void> {
  const processes = arg('processes', 3);
  const port = arg('port', 8080);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/kickback';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  if (!process.env.DATABASE_URL) await ensureDatabase(databaseUrl);

  const stale = (staleParts as (dir: string) => 'both' | 'web' | 'server' | null)(root);
  if (stale) {
    console.log('Building…');
    const args = stale === 'both' ? ['run', 'build'] : ['run', 'build', '-w', `@kickback/${stale}`];
    const res = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }

  const cluster = new Cluster({ processes, port, databaseUrl, redisUrl });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping the cluster…');
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let restarting = false;
  process.on('SIGHUP', () => {
    if (restarting || stopping) return;
    restarting = true;
    console.log('Rolling restart…');
    void cluster
      .rollingRestart()
      .then((figures) => console.log('Rolling restart done', figures))
      .catch((err: unknown) => console.error('Rolling restart failed:', err))
      .finally(() => (restarting = false));
  });
  try {
    await cluster.start();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    await cluster.stop();
    process.exit(1);
  }
  const database = new URL(databaseUrl);
  database.password = database.password ? '***' : '';
  console.log(
    `\nKickback cluster: ${cluster.url} → HAProxy → ${processes} processes (ports ${cluster.members.map((m) => m.port).join(', ')})` +
      `\n  database ${database.toString()}, Redis ${redisUrl}` +
      `\n  Ctrl-C stops; kill -HUP ${process.pid} restarts the processes one by one.\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

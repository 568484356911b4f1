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
 * (apps/server/test/rolling-restart.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
// @ts-expect-error -- a plain .mjs script without types
import { staleParts } from './build-state.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const haproxyTemplate = path.join(root, 'deploy/haproxy.cfg');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

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
  command?: { argv: string[]; cwd: string };
  /** Where the processes' and the proxy's output goes (default: inherited). */
  output?: (source: string, text: string) => void;
}

export interface Member {
  name: string;
  port: number;
  child: ChildProcess;
}

/** N server processes and HAProxy in front of them. */
export class Cluster {
  readonly url: string;
  readonly members: Member[] = [];
  private proxy: ChildProcess | null = null;
  private statsPort = 0;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'kickback-cluster-'));
  private readonly secret = randomBytes(32).toString('hex');

  constructor(private readonly opts: ClusterOptions) {
    this.url = `http://127.0.0.1:${opts.port}`;
  }

  async start(): Promise<void> {
    const ports: number[] = [];
    for (let i = 0; i < this.opts.processes; i++) ports.push(await freePort());
    ports.forEach((port, i) => this.members.push({ name: `app${i + 1}`, port, child: this.spawnMember(port, i) }));
    // They start together: migrations and the demo data run once, under PostgreSQL's advisory lock.
    for (const m of this.members) await this.waitHealthy(m);
    this.statsPort = await freePort();
    const cfg = path.join(this.dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      localHaproxyConfig(
        readFileSync(haproxyTemplate, 'utf8'),
        this.opts.port,
        ports.map((p) => `127.0.0.1:${p}`),
        this.statsPort,
      ),
    );
    const proxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.pipe('haproxy', proxy);
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
    const exited = new Promise<void>((resolve) => m.child.once('exit', () => resolve()));
    m.child.kill('SIGTERM');
    await this.waitProxyState(m, 'DOWN');
    const downAfterMs = Date.now() - t0;
    await exited;
    const exitedAfterMs = Date.now() - t0;
    m.child = this.spawnMember(m.port, index);
    await this.waitHealthy(m);
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
    await Promise.all(
      this.members.map(
        (m) =>
          new Promise<void>((resolve) => {
            if (m.child.exitCode !== null || m.child.signalCode !== null) return resolve();
            m.child.once('exit', () => resolve());
            m.child.kill('SIGTERM');
          }),
      ),
    );
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

  private async waitProxyState(m: Member, state: 'UP' | 'DOWN', ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = (await this.proxyStates().catch(() => new Map<string, string>())).get(m.name);
      if (now === state) return;
      if (this.proxy && this.proxy.exitCode !== null) throw new Error(`haproxy exited (${this.proxy.exitCode})`);
      if (Date.now() > deadline) throw new Error(`${m.name} did not turn ${state} at the proxy (it is ${now})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async waitHealthy(m: Member, ms = 90_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${m.port}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (m.child.exitCode !== null) throw new Error(`${m.name} exited with ${m.child.exitCode} while starting`);
      if (Date.now() > deadline) throw new Error(`${m.name} did not start`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private spawnMember(port: number, index: number): ChildProcess {
    const command = this.opts.command ?? {
      argv: [process.execPath, '--enable-source-maps', path.join(root, 'apps/server/dist/main.js')],
      cwd: root,
    };
    const child = spawn(command.argv[0]!, command.argv.slice(1), {
      cwd: command.cwd,
      env: {
        PUBLIC_URL: this.url,
        SESSION_SECRET: this.secret,
        DRAIN_MS: '5000',
        TRUST_PROXY: '1',
        ...process.env,
        ...this.opts.env,
        DATABASE_URL: this.opts.databaseUrl,
        REDIS_URL: this.opts.redisUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.pipe(`app${index + 1}`, child);
    return child;
  }

  private pipe(source: string, child: ChildProcess): void {
    const out = this.opts.output ?? ((s: string, text: string) => process.stdout.write(prefixed(s, text)));
    child.stdout!.on('data', (d: Buffer) => out(source, d.toString()));
    child.stderr!.on('data', (d: Buffer) => out(source, d.toString()));
  }
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

/**
 * `npm run cluster [-- --tls] [--processes 3] [--port 8080]`: the production layout on this machine
 * (docs/operations.md#npm-run-cluster-the-production-layout-on-this-machine): Caddy with
 * deploy/Caddyfile — the shipped file itself, configured through its environment placeholders — in
 * front of N Kickback processes on PostgreSQL and Redis; Caddy serves the web app's files from
 * apps/web/dist itself, the processes everything else. With `--tls` Caddy serves
 * https://localhost:PORT with a certificate of its own local CA (what `tls internal` does; the CA's
 * root is in the cluster's folder and the processes trust it through NODE_EXTRA_CA_CERTS); without,
 * plain http://127.0.0.1:PORT. DATABASE_URL defaults to a `kickback` database on the local
 * PostgreSQL (created when missing), REDIS_URL to the local Redis. The processes run the built
 * server (built first when missing or stale, like `npm start`) with TRUST_PROXY=1 and DRAIN_MS
 * (default 5000), so a SIGTERM drains through the proxy.
 *
 * While it runs: Ctrl-C stops everything; `kill -HUP <pid>` restarts the processes one at a time
 * (a rolling restart). The same `Cluster` drives the rolling-restart test and benchmark
 * (apps/server/test/rolling-restart.ts) and the TLS front's test (apps/server/test/tls-front.test.ts).
 * The processes themselves are apps/server/test/processes.ts's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
export const caddyfile = path.join(root, 'deploy/Caddyfile');

export interface ClusterOptions {
  processes: number;
  /** The front's port (HTTPS with `tls`, else plain HTTP). */
  port: number;
  /** HTTPS from Caddy's local CA on https://localhost:port (else plain http://127.0.0.1:port). */
  tls?: boolean;
  databaseUrl: string;
  redisUrl: string;
  /** Extra environment for every process (PUBLIC_URL, DRAIN_MS and the rest have defaults). */
  env?: Record<string, string>;
  /** How a process is started (default: the built server, `node apps/server/dist/main.js`). */
  command?: ServerCommand;
  /** Where the processes' and the proxy's output goes (default: this process's output, prefixed). */
  output?: (source: string, text: string) => void;
  /**
   * The web app's build Caddy serves /assets/ and the public files from (KICKBACK_WEB_ROOT; default
   * apps/web/dist, the build the processes answer pages from).
   */
  webRoot?: string;
}

/**
 * The environment deploy/Caddyfile reads for a local front on `port` over `upstreams`; `adminPort`
 * and `httpPort` keep Caddy's admin API and its HTTP port (redirects) off the defaults, so a
 * rehearsal runs beside other services.
 */
export function caddyEnv(opts: {
  tls: boolean;
  port: number;
  upstreams: string[];
  adminPort: number;
  httpPort: number;
  dir: string;
  webRoot: string;
}): Record<string, string> {
  return {
    KICKBACK_DOMAIN: opts.tls ? `localhost:${opts.port}` : `http://127.0.0.1:${opts.port}`,
    KICKBACK_UPSTREAMS: opts.upstreams.join(' '),
    KICKBACK_WEB_ROOT: opts.webRoot,
    CADDY_ADMIN: `localhost:${opts.adminPort}`,
    HTTP_PORT: String(opts.tls ? opts.httpPort : opts.port),
    HTTPS_PORT: String(opts.tls ? opts.port : opts.httpPort),
    // Caddy's certificates, its local CA and its autosaved configuration stay in the cluster's folder.
    XDG_DATA_HOME: path.join(opts.dir, 'data'),
    XDG_CONFIG_HOME: path.join(opts.dir, 'config'),
  };
}

/** N server processes and Caddy in front of them. */
export class Cluster {
  readonly url: string;
  readonly processes: ServerProcesses;
  /** The root certificate of Caddy's local CA (with `tls`), once started. */
  readonly caRoot: string;
  private proxy: ChildProcess | null = null;
  /** Caddy's view of each process ("host:port" → UP or DOWN), from its health events. */
  private readonly health = new Map<string, 'UP' | 'DOWN'>();
  private readonly ports: number[] = [];
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'kickback-cluster-'));
  private proxyOutput = '';

  constructor(private readonly opts: ClusterOptions) {
    this.url = opts.tls ? `https://localhost:${opts.port}` : `http://127.0.0.1:${opts.port}`;
    this.caRoot = path.join(this.dir, 'data/caddy/pki/authorities/local/root.crt');
    this.processes = new ServerProcesses({
      count: opts.processes,
      ports: this.ports,
      command: opts.command ?? builtServer(path.join(root, 'apps/server/dist/main.js'), ['--enable-source-maps']),
      inheritEnv: true,
      env: {
        PUBLIC_URL: this.url,
        SESSION_SECRET: randomBytes(32).toString('hex'),
        DRAIN_MS: '5000',
        TRUST_PROXY: '1',
        ...pick(process.env, ['PUBLIC_URL', 'SESSION_SECRET', 'DRAIN_MS', 'TRUST_PROXY']),
        // The processes call the site's own address (the dev sign-in's check): through Caddy.
        ...(opts.tls ? { NODE_EXTRA_CA_CERTS: this.caRoot } : {}),
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
    for (let i = 0; i < this.opts.processes; i++) this.ports.push(await freePort());
    // Caddy first: with TLS its local CA must exist before the processes start (they trust it).
    const env = caddyEnv({
      tls: this.opts.tls ?? false,
      port: this.opts.port,
      upstreams: this.ports.map((p) => `127.0.0.1:${p}`),
      adminPort: await freePort(),
      httpPort: await freePort(),
      dir: this.dir,
      webRoot: this.opts.webRoot ?? path.join(root, 'apps/web/dist'),
    });
    const proxy = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    proxy.stdout.on('data', (d: Buffer) => this.out('caddy', d.toString()));
    let pending = '';
    proxy.stderr.on('data', (d: Buffer) => {
      const text = pending + d.toString();
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) this.readProxyLine(line);
    });
    this.proxy = proxy;
    const started = await new Promise<boolean>((resolve) => {
      proxy.once('error', () => resolve(false));
      proxy.once('spawn', () => resolve(true));
    });
    if (!started) throw new Error('caddy is not installed (apt-get install caddy)');
    await this.waitFront();
    // They start together: migrations and the demo data run once, under PostgreSQL's advisory lock.
    await this.processes.start();
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

  /** Caddy's view of each process: UP (also before its first check) or DOWN. */
  proxyStates(): Map<string, string> {
    return new Map(this.ports.map((p, i) => [`app${i + 1}`, this.health.get(`127.0.0.1:${p}`) ?? 'UP']));
  }

  /**
   * One line of Caddy's log (JSON): its active health checker's lines update `health` — a failed
   * check takes a process out at once ("status code out of tolerances", "HTTP request failed"),
   * "host is up" puts it back — and every line goes to `out`, except the access log's (a line per
   * request, deploy/Caddyfile), which a rehearsal or a benchmark does not need.
   */
  private readProxyLine(line: string): void {
    if (!line.trim() || line.includes('"logger":"http.log.access')) return;
    this.proxyOutput += `${line}\n`;
    try {
      const entry = JSON.parse(line) as { logger?: string; msg?: string; host?: string };
      if (entry.logger?.endsWith('health_checker.active') && entry.host) {
        this.health.set(entry.host, entry.msg === 'host is up' ? 'UP' : 'DOWN');
        // The failed checks of a process that is starting or stopping: the cluster says that itself.
        if (entry.msg !== 'host is up') return;
      }
    } catch {
      // not JSON: shown as it is
    }
    this.out('caddy', `${line}\n`);
  }

  /** Until Caddy answers on the front (any status: no process may be up yet) and, with TLS, its CA exists. */
  private async waitFront(ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    const probe = this.opts.tls ? `http://127.0.0.1:${this.opts.port}` : this.url;
    for (;;) {
      if (this.proxy && this.proxy.exitCode !== null) {
        throw new Error(`caddy exited (${this.proxy.exitCode}):\n${this.proxyOutput}`);
      }
      // With TLS the port speaks HTTPS: a plain request is answered 400 by Caddy once it listens.
      const answered = await fetch(`${probe}/healthz`).then(
        () => true,
        () => false,
      );
      if (answered && (!this.opts.tls || existsSync(this.caRoot))) return;
      if (Date.now() > deadline) throw new Error(`caddy did not start:\n${this.proxyOutput}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async waitProxyState(m: ServerProcess, state: 'UP' | 'DOWN', ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = this.proxyStates().get(m.name);
      if (now === state) return;
      if (this.proxy && this.proxy.exitCode !== null) throw new Error(`caddy exited (${this.proxy.exitCode})`);
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
  const tls = process.argv.includes('--tls');
  const port = arg('port', tls ? 8443 : 8080);
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

  const cluster = new Cluster({ processes, port, tls, databaseUrl, redisUrl });
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
    `\nKickback cluster: ${cluster.url} → Caddy (deploy/Caddyfile) → ${processes} processes (ports ${cluster.members.map((m) => m.port).join(', ')})` +
      (tls ? `\n  HTTPS from Caddy's local CA: its root certificate is ${cluster.caRoot}` : '') +
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

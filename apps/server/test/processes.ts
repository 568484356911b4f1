/**
 * Kickback server processes for the tests, `npm run cluster` and the benchmarks: start N of them
 * (on one database and one Redis when given), each on a port of its own; wait until each answers;
 * keep what they print; stop one gracefully (SIGTERM) or kill it (SIGKILL), and start it again on
 * the same port and database. docs/conventions.md#multi-process-tests says how a test uses it.
 *
 * No test framework and no server code here: scripts/ and bench/ import this file as well, and
 * nothing under apps/server/src may (lint).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/server: where the processes run from source. */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How a process is started: the full command line and its folder. */
export interface ServerCommand {
  argv: string[];
  cwd: string;
}

/** The server from source through tsx (no build at all; each start compiles what it imports). */
export const fromSource: ServerCommand = {
  argv: [process.execPath, '--import', 'tsx', 'src/main.ts'],
  cwd: serverDir,
};

/** The built server (`npm run build`, or a bundle of build.mjs's in a folder of its own). */
export function builtServer(main = path.join(serverDir, 'dist/main.js'), nodeArgs: string[] = []): ServerCommand {
  return { argv: [process.execPath, ...nodeArgs, main], cwd: serverDir };
}

/**
 * The server bundled by build.mjs (about a second) into node_modules/.cache/<name>, and the command
 * that starts it: a bundle starts in a fraction of the time tsx needs, which keeps tests that
 * (re)start many processes short.
 */
export function bundledServer(name: string, nodeArgs: string[] = []): ServerCommand {
  const dir = path.join(serverDir, 'node_modules/.cache', name);
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: serverDir,
    env: { ...process.env, SERVER_BUILD_DIR: dir },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build.mjs failed (${built.status}):\n${built.stderr}`);
  return builtServer(path.join(dir, 'main.js'), nodeArgs);
}

const CURRENT_SOURCE = 'kickback-test-server-';
let currentSourceCommand: ServerCommand | null = null;

/** Whether process `pid` is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The tests' default: the current source bundled by build.mjs once per test process (about a
 * second), then every start runs the bundle. A start through tsx cost about 3.5 s of CPU against
 * about 1.4 s for the bundle, and the server tests start dozens of processes
 * (docs/conventions.md#test-speed). Source maps keep a crash's stack on the source lines. Each
 * bundle is named by its test process, and removed by the next one made once that process is gone
 * (a test worker may be ended without running its exit handlers).
 */
export function currentSource(): ServerCommand {
  if (!currentSourceCommand) {
    const cache = path.join(serverDir, 'node_modules/.cache');
    for (const name of existsSync(cache) ? readdirSync(cache) : []) {
      const pid = Number(name.slice(CURRENT_SOURCE.length));
      if (name.startsWith(CURRENT_SOURCE) && pid > 0 && !alive(pid)) {
        rmSync(path.join(cache, name), { recursive: true, force: true });
      }
    }
    currentSourceCommand = bundledServer(`${CURRENT_SOURCE}${process.pid}`, ['--enable-source-maps']);
  }
  return currentSourceCommand;
}

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

/** `url` with its database name replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

type Stdio = 'inherit' | 'ignore' | number;

export interface ServerProcessesOptions {
  /** How many processes (default 1). */
  count?: number;
  /** Default: the current source, bundled once per process (currentSource()). */
  command?: ServerCommand;
  /** DATABASE_URL of every process (else whatever `env` says: DATA_DIR, say). */
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix?: string;
  /**
   * More environment for every process, or for the i-th. PORT, DATABASE_URL, REDIS_URL and
   * REDIS_PREFIX are the helper's; HOST defaults to 127.0.0.1 and PUBLIC_URL to the process's own
   * address.
   */
  env?: Record<string, string> | ((index: number) => Record<string, string>);
  /** Start from this process's environment (scripts, benchmarks) rather than from PATH alone (tests). */
  inheritEnv?: boolean;
  /** The ports, one a process (default: free ones). */
  ports?: number[];
  /**
   * Where the output goes. Default: kept in memory (`output()`, each process's `log`) and shown in a
   * failure to start. A function receives every chunk as it comes (also kept); stdio hands the
   * child's standard output and error to spawn as they are (a benchmark's log file, 'inherit').
   */
  output?: ((name: string, text: string) => void) | { stdout: Stdio; stderr: Stdio };
  /** With an output function: keep the output in memory as well (default true; a long run says no). */
  keepOutput?: boolean;
  /** When a process is up (default: GET /healthz answers 2xx). */
  ready?: (url: string) => Promise<boolean>;
  /** How long a process may take to start (default 90 s: about 2 s alone, 20–60 s on a starved 2-core machine; docs/conventions.md#timeouts). */
  startMs?: number;
}

/** One server process; `start` and `restart` replace its child. */
export interface ServerProcess {
  readonly index: number;
  readonly name: string;
  readonly port: number;
  readonly url: string;
  child: ChildProcess;
  /** What this process printed (all its lives), when the output is kept. */
  readonly log: string[];
  /** Its standard output alone (the JSON log lines), when the output is kept. */
  readonly stdout: string[];
  /** Resolves with the current child's exit. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** N server processes. `start()` starts them together and waits until every one answers. */
export class ServerProcesses {
  readonly members: ServerProcess[] = [];
  /** Every process's output, in the order it came. */
  private readonly lines: string[] = [];

  constructor(private readonly opts: ServerProcessesOptions = {}) {}

  get urls(): string[] {
    return this.members.map((m) => m.url);
  }

  /** Everything the processes printed (when kept), for an assertion or a failure message. */
  output(): string {
    return this.lines.join('');
  }

  /** Where each process's kept output stands now: `timesLogged` counts from such a mark. */
  logMark(): number[] {
    return this.members.map((m) => m.log.length);
  }

  /** How many times each process printed `pattern` since `mark` (or since it started). */
  timesLogged(pattern: RegExp, mark: number[] = []): number[] {
    const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    return this.members.map(
      (m, i) =>
        (
          m.log
            .slice(mark[i] ?? 0)
            .join('')
            .match(global) ?? []
        ).length,
    );
  }

  /** Starts the processes together (migrations run once, under a lock); resolves when all answer. */
  async start(): Promise<this> {
    await this.spawn();
    try {
      await Promise.all(this.members.map((m) => this.ready(m)));
    } catch (err) {
      await this.stopAll('SIGKILL'); // none left behind
      throw err;
    }
    return this;
  }

  /** Starts the processes without waiting for them (`ready(m)` waits; `m.exited` tells an exit). */
  async spawn(): Promise<this> {
    if (this.members.length) throw new Error('already started');
    const count = this.opts.count ?? this.opts.ports?.length ?? 1;
    for (let i = 0; i < count; i++) {
      const port = this.opts.ports?.[i] ?? (await freePort());
      // `child` and `exited` are set by launch, just below.
      const member = {
        index: i,
        name: `app${i + 1}`,
        port,
        url: `http://127.0.0.1:${port}`,
        log: [],
        stdout: [],
      } as unknown as ServerProcess;
      this.members.push(member);
      this.launch(member);
    }
    return this;
  }

  /** Starts process `i` again on its port (after a stop or a kill); resolves when it answers. */
  async restart(i: number): Promise<ServerProcess> {
    const m = this.member(i);
    if (running(m.child)) await this.stop(i);
    this.launch(m);
    await this.ready(m);
    return m;
  }

  /** Sends `signal` to process `i` (default SIGTERM: a graceful stop) and waits until it exited. */
  async stop(i: number, signal: NodeJS.Signals = 'SIGTERM') {
    const m = this.member(i);
    if (running(m.child)) m.child.kill(signal);
    return m.exited;
  }

  /** SIGKILL to process `i`: no shutdown hook runs. Resolves once it exited. */
  kill(i: number) {
    return this.stop(i, 'SIGKILL');
  }

  /** Stops every process still running (default: gracefully) and waits until they exited. */
  async stopAll(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await Promise.all(this.members.map((m) => this.stop(m.index, signal)));
  }

  /** Waits until process `i` answers; throws with its output when it exits first or takes too long. */
  async ready(m: ServerProcess, ms = this.opts.startMs ?? 90_000): Promise<void> {
    const deadline = Date.now() + ms;
    const ready =
      this.opts.ready ??
      ((url: string) =>
        fetch(`${url}/healthz`)
          .then((r) => r.ok)
          .catch(() => false));
    const child = m.child;
    for (;;) {
      if (await ready(m.url)) return;
      if (!running(child)) {
        throw new Error(`${m.name} exited (${child.exitCode ?? child.signalCode}) while starting:\n${m.log.join('')}`);
      }
      if (Date.now() > deadline) throw new Error(`${m.name} (${m.url}) did not start:\n${m.log.join('')}`);
      await sleep(100);
    }
  }

  private member(i: number): ServerProcess {
    const m = this.members[i];
    if (!m) throw new Error(`no process ${i}`);
    return m;
  }

  private launch(m: ServerProcess): void {
    const { command = currentSource(), output } = this.opts;
    const extra = typeof this.opts.env === 'function' ? this.opts.env(m.index) : (this.opts.env ?? {});
    const env: Record<string, string | undefined> = {
      ...(this.opts.inheritEnv ? process.env : { PATH: process.env.PATH }),
      PUBLIC_URL: m.url,
      ...extra,
      PORT: String(m.port),
      // Loopback unless the test asks otherwise ('' leaves the server's own default).
      HOST: extra.HOST ?? '127.0.0.1',
      ...(this.opts.databaseUrl !== undefined ? { DATABASE_URL: this.opts.databaseUrl } : {}),
      ...(this.opts.redisUrl !== undefined ? { REDIS_URL: this.opts.redisUrl } : {}),
      ...(this.opts.redisPrefix !== undefined ? { REDIS_PREFIX: this.opts.redisPrefix } : {}),
    };
    const piped = output === undefined || typeof output === 'function';
    const child = spawn(command.argv[0]!, command.argv.slice(1), {
      cwd: command.cwd,
      env,
      stdio: piped ? ['ignore', 'pipe', 'pipe'] : ['ignore', output.stdout, output.stderr],
    });
    if (piped) {
      const kept = this.opts.keepOutput ?? true;
      const keep = (d: Buffer) => {
        const text = d.toString();
        if (kept) {
          m.log.push(text);
          this.lines.push(text);
        }
        if (typeof output === 'function') output(m.name, text);
      };
      child.stdout!.on('data', (d: Buffer) => {
        if (kept) m.stdout.push(d.toString());
        keep(d);
      });
      child.stderr!.on('data', keep);
    }
    m.child = child;
    m.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (err) => {
        m.log.push(`${err.message}\n`);
        resolve({ code: -1, signal: null });
      });
    });
  }
}

/** Starts `opts.count` processes and waits until each answers (ServerProcesses.start). */
export function startServers(opts: ServerProcessesOptions = {}): Promise<ServerProcesses> {
  return new ServerProcesses(opts).start();
}

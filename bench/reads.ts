/**
 * Public reads against the stack's limit. Starts the built server (demo data, simulators, in-memory
 * PGlite or BENCH_DATABASE_URL) and a bare Fastify (lib/bare-server.ts) in processes of their own,
 * then, with autocannon in a third process (lib/load-runner.ts), measures for each public read:
 * the app, a bare Fastify sending that read's exact body, and once a bare hello-world. Prints
 * req/s, p50, p99, the ratios, and the CPU the generator and the server took.
 *
 *   npm run bench -- reads [--seconds 5] [--connections 64] [--rounds 5] [--warm 2]
 *     [--only now,products] [--pin] [--profile <dir>] [--log-level <level>] [--request-log all]
 *
 * Each read is first loaded unmeasured on both servers (`--warm` seconds each, so that neither is
 * measured while V8 still compiles it), then measured in `--rounds` pairs of the same-body bare
 * server and the app, back to back, the order alternating from one pair to the next (bare then
 * app, app then bare, ...): the figures are the medians, and the ratio is the median of the pairs'
 * ratios. One generator process serves every load, so a pair's halves are milliseconds apart and a
 * change in what else the machine runs touches both alike; the alternation cancels a steady drift.
 *
 * `--pin` runs the servers on core 0 and the generator on core 1 (taskset). `--profile <dir>`: the
 * app writes a V8 CPU profile there when it stops (`node lib/profile-summary.mjs <file>` sums it up).
 * `npm run build` first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerProcesses } from '../apps/server/test/processes';
import { logLevelEnv, logLevelLine, serverLogFile } from './lib/server-log';
import { printFigures } from './lib/stats';
import type { LoadRequest } from './lib/load-runner';

const here = path.dirname(fileURLToPath(import.meta.url));
// BENCH_SERVER_MAIN=<main.js> measures another build (for example the one before a change).
const serverMain = process.env.BENCH_SERVER_MAIN ?? path.join(here, '../apps/server/dist/main.js');
const tsx = path.join(here, '../node_modules/.bin/tsx');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const seconds = Number(arg('seconds', '5'));
const connections = Number(arg('connections', '64'));
const rounds = Math.max(1, Number(arg('rounds', '5')));
const warmSeconds = Number(arg('warm', '2'));
const pin = process.argv.includes('--pin') && spawnSync('taskset', ['-V']).status === 0;
const profileDir = arg('profile', '');
const reads: Record<string, string> = {
  now: '/api/LeaderBoard/now',
  previous: '/api/LeaderBoard/previous',
  roobet: '/api/LeaderBoard/roobet/now',
  sites: '/api/LeaderBoard/sites',
  products: '/api/Product/GetProducts',
  challenges: '/api/Challenge/getuserchallenges',
  site: '/api/site',
};
const only = arg('only', '')
  .split(',')
  .filter((s) => s in reads);
const chosen = Object.entries(reads).filter(([name]) => only.length === 0 || only.includes(name));
const appHeaders = { 'X-Requested-With': 'kickback' };

function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return pin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdout: number | 'ignore' = 'ignore',
): ChildProcess {
  const [cmd, cmdArgs] = pinned(0, command, args);
  return spawn(cmd, cmdArgs, { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

async function waitFor(url: string, headers: Record<string, string>, ok: (body: string) => boolean) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok && ok(await res.text())) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  cpuMs: number;
  seconds: number;
}

/** The one generator process (lib/load-runner.ts --serve): one load at a time, in order. */
class Generator {
  private readonly child: ChildProcess;
  private readonly pending: Array<{ resolve: (line: string) => void; reject: (err: Error) => void }> = [];
  private buffered = '';

  constructor() {
    const [cmd, args] = pinned(1, tsx, [path.join(here, 'lib/load-runner.ts'), '--serve']);
    this.child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.pending.shift()?.resolve(line);
      }
    });
    this.child.on('exit', (code) => {
      for (const waiting of this.pending.splice(0)) waiting.reject(new Error(`load runner exited ${code}`));
    });
  }

  /** Loads `url` for `secs` seconds; the server's CPU over the load is read from /proc. */
  async load(
    url: string,
    headers: Record<string, string>,
    server: ChildProcess,
    secs = seconds,
  ): Promise<Load & { serverCpuMs: number | null }> {
    const before = cpuMsOf(server.pid);
    const request: LoadRequest = { url, connections, seconds: secs, headers };
    const line = await new Promise<string>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.child.stdin!.write(`${JSON.stringify(request)}\n`);
    });
    const after = cpuMsOf(server.pid);
    return { ...(JSON.parse(line) as Load), serverCpuMs: before !== null && after !== null ? after - before : null };
  }

  stop(): void {
    this.child.stdin!.end();
  }
}

const perRequest = (l: { serverCpuMs: number | null; total: number }) =>
  l.serverCpuMs !== null ? `${((l.serverCpuMs / l.total) * 1000).toFixed(1)} µs` : 'n/a';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The run of `runs` whose req/s is the median one (p50, p99 and CPU are that run's). */
function medianRun<T extends { rps: number }>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[(sorted.length - 1) >> 1]!;
}

const appPort = 38431;
const barePort = 38432;
const base = `http://127.0.0.1:${appPort}`;
const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const appLog = serverLogFile('reads');
// The first poll fills the running boards from the simulators: the app is up once they are.
const [appCommand, appArgs] = pinned(0, process.execPath, [...profiling, serverMain]);
const appServer = new ServerProcesses({
  command: { argv: [appCommand, ...appArgs], cwd: here },
  ports: [appPort],
  inheritEnv: true,
  env: {
    NODE_ENV: 'development',
    DATA_DIR: ':memory:',
    DEMO_DATA: '1',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...logLevelEnv(),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
  output: { stdout: appLog.fd, stderr: 'inherit' },
  ready: (url) =>
    fetch(`${url}/api/LeaderBoard/now`, { headers: { 'X-Requested-With': 'kickback' } })
      .then(async (r) => r.ok && ((await r.json()) as { data: unknown[] }).data.length > 0)
      .catch(() => false),
  startMs: 120_000,
});
const app = (await appServer.start()).members[0]!.child;
let bare: ChildProcess | null = null;
const generator = new Generator();
const load = generator.load.bind(generator);
try {
  const bodies: Record<string, string> = {};
  for (const [, url] of chosen) bodies[url] = await (await fetch(`${base}${url}`, { headers: appHeaders })).text();
  const bodiesFile = path.join(tmpdir(), `kickback-bench-reads-${process.pid}.json`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  // node --import tsx (not the tsx wrapper) so the pid measured is the server's own.
  bare = start(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'lib/bare-server.ts'), String(barePort), bodiesFile],
    {},
  );
  await waitFor(`http://127.0.0.1:${barePort}/hello`, {}, () => true);

  console.log(
    `reads: ${connections} connections, ${seconds} s each (after ${warmSeconds} s unmeasured), ${rounds} pair(s) per read${pin ? ', servers on core 0, generator on core 1' : ''}; ` +
      `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.log(logLevelLine(appLog.file));
  await load(`http://127.0.0.1:${barePort}/hello`, {}, bare, warmSeconds);
  const hello = await load(`http://127.0.0.1:${barePort}/hello`, {}, bare);
  printFigures('bare Fastify hello-world', {
    'requests/s': hello.rps,
    'p50 / p99 ms': `${hello.p50} / ${hello.p99}`,
    'server CPU per request': perRequest(hello),
    'generator CPU': `${Math.round((hello.cpuMs / (hello.seconds * 1000)) * 100)} %`,
  });
  const rows: string[] = [];
  for (const [, url] of chosen) {
    const size = Buffer.byteLength(bodies[url]!);
    const pairs: Array<{ same: Awaited<ReturnType<typeof load>>; mine: Awaited<ReturnType<typeof load>> }> = [];
    const measureBare = (secs?: number) => load(`http://127.0.0.1:${barePort}${url}`, {}, bare!, secs);
    const measureApp = (secs?: number) => load(`${base}${url}`, appHeaders, app, secs);
    if (warmSeconds > 0) {
      await measureBare(warmSeconds);
      await measureApp(warmSeconds);
    }
    for (let round = 0; round < rounds; round++) {
      const bareFirst = round % 2 === 0;
      const first = await (bareFirst ? measureBare() : measureApp());
      const second = await (bareFirst ? measureApp() : measureBare());
      const [same, mine] = bareFirst ? [first, second] : [second, first];
      if (mine.non2xx > 0 || mine.errors > 0) console.log(`  ${url}: ${mine.non2xx} non-2xx, ${mine.errors} errors`);
      pairs.push({ same, mine });
    }
    const same = medianRun(pairs.map((p) => p.same));
    const mine = medianRun(pairs.map((p) => p.mine));
    const ratios = pairs.map((p) => p.mine.rps / p.same.rps);
    const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
    const ratio = `${Math.round(median(ratios) * 100)} %`;
    printFigures(`${url} (${size} bytes)`, {
      'app requests/s': mine.rps,
      'app p50 / p99 ms': `${mine.p50} / ${mine.p99}`,
      'same body bare requests/s': same.rps,
      'same body bare p50 / p99 ms': `${same.p50} / ${same.p99}`,
      'server CPU per request': `${perRequest(mine)} (bare ${perRequest(same)})`,
      'vs same-body bare': `${ratio} (pairs: ${ratios.map((r) => `${Math.round(r * 100)} %`).join(', ')})`,
      'vs hello-world': pct(mine.rps, hello.rps),
      'generator CPU': pct(mine.cpuMs, mine.seconds * 1000),
    });
    rows.push(
      `| \`${url}\` | ${size} | ${Math.round(mine.rps)} | ${mine.p50} / ${mine.p99} | ${Math.round(same.rps)} | ${ratio} | ${pct(mine.rps, hello.rps)} | ${perRequest(mine)} / ${perRequest(same)} |`,
    );
  }
  console.log(
    `\nhello-world: ${Math.round(hello.rps)} req/s\n| Read | Bytes | req/s | p50 / p99 ms | Same-body bare req/s | vs same body | vs hello | Server CPU/req app / bare |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  generator.stop();
  bare?.kill();
  app.kill();
  // The profile is written as the app exits.
  if (app.exitCode === null) await new Promise((r) => app.once('exit', r));
}

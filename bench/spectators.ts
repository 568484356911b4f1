/**
 * `npm run bench -- spectators [--levels 1000,2500,5000] [--samples 100] [--pin] [--no-bare]`
 *
 * How fast a Split or Steal state change reaches a crowd: the built server runs as its own process
 * (apps/server/dist/main.js, in-memory PGlite; BENCH_REDIS_URL routes broadcasts through the Redis
 * streams adapter), an admin creates a game, two players sit down and, in the choosing phase, one
 * of them flips their pick again and again. Each flip is a committed state change the server
 * broadcasts to every spectator in the game's room. For each level of N spectator sockets it prints
 *
 * - end to end: the time from the commit (the state's `serverTime`, stamped right after the commit)
 *   to the last spectator receiving it (p50/p99 over the flips), the per-delivery p50/p99;
 * - server side, from its /metrics: the fan-out's time from the commit to the last frame written
 *   (mean and p99 bucket) and its CPU per broadcast and per frame, besides the whole process's CPU
 *   per broadcast (pings and everything else included) and its RSS;
 * - the floor: a bare `ws` server (lib/bare-broadcast.ts) writing a frame of the same size to as many
 *   sockets, one plain write each: its time and CPU per broadcast (`--no-bare` skips it).
 *
 * The spectators (lib/spectator-crowd.ts) run in a process of their own; `--pin` puts the server (and
 * the bare one) on core 0 and the crowd and this process on core 1 (taskset).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { printFigures, summarise } from './lib/stats';
import { freePort, signIn } from './lib/site';
import { ServerProcesses } from '../apps/server/test/processes';
import { logLevelEnv, logLevelLine, serverLogFile } from './lib/server-log';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
// BENCH_SERVER_MAIN=<path to main.js> measures another build the same way.
const serverMain = process.env.BENCH_SERVER_MAIN ?? path.join(root, 'apps/server/dist/main.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const levels = arg('levels', '1000,2500,5000')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => n > 0);
const samples = Number(arg('samples', '100'));
const pin = process.argv.includes('--pin') && spawnSync('taskset', ['-V']).status === 0;
const bare = !process.argv.includes('--no-bare');
const targetP99Ms = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time (user + system) the process used so far, in ms (from /proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** `command args` on `core` with --pin. */
function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return pin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/** A child spoken to over IPC: each request waits for the next message of the given type. */
function ipc(child: ChildProcess) {
  return <T>(message: object, answer: string): Promise<T> =>
    new Promise((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== answer) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
      child.send(message);
    });
}

/** The server's fan-out figures from /metrics (kickback_hub_broadcast_*). */
interface FanOut {
  count: number;
  sum: number;
  cpu: number;
  frames: number;
  buckets: Array<[number, number]>;
}
async function fanOut(base: string): Promise<FanOut> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}\\{hub="/SplitOrSteal"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const buckets = [...text.matchAll(/^kickback_hub_broadcast_seconds_bucket\{([^}]*)\} (\S+)$/gm)]
    .filter((m) => m[1]!.includes('hub="/SplitOrSteal"'))
    .map((m): [number, number] => {
      const le = /le="([^"]+)"/.exec(m[1]!)![1]!;
      return [le === '+Inf' ? Infinity : Number(le), Number(m[2])];
    });
  return {
    count: value('kickback_hub_broadcast_seconds_count'),
    sum: value('kickback_hub_broadcast_seconds_sum'),
    cpu: value('kickback_hub_broadcast_cpu_seconds_total'),
    frames: value('kickback_hub_broadcast_frames_total'),
    buckets,
  };
}
/** The bucket bound (ms) under which 99 % of the broadcasts between two scrapes fell. */
function p99Bucket(before: FanOut, after: FanOut): string {
  const n = after.count - before.count;
  for (const [le, c] of after.buckets) {
    const prev = before.buckets.find(([l]) => l === le)?.[1] ?? 0;
    if (c - prev >= 0.99 * n) return le === Infinity ? '> 1000' : `≤ ${le * 1000}`;
  }
  return 'n/a';
}

async function main() {
  if (!existsSync(serverMain)) {
    console.error('Build the server first: npm run build');
    process.exit(1);
  }
  // This process (the players' sockets, the bookkeeping) stays off the server's core too.
  if (pin) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const redisPrefix = `kbbench:${randomBytes(4).toString('hex')}:`;
  // BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const [command, args] = pinned(0, process.execPath, [...nodeArgs, serverMain]);
  const log = serverLogFile('spectators');
  console.log(logLevelLine(log.file));
  const servers = new ServerProcesses({
    command: { argv: [command, ...args], cwd: root },
    ports: [port],
    inheritEnv: true,
    env: {
      NODE_ENV: 'development',
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      ...logLevelEnv(),
      RATE_LIMIT_PER_MINUTE: '100000',
      METRICS_ALLOW: '127.0.0.1',
    },
    databaseUrl: '',
    ...(redisUrl ? { redisUrl, redisPrefix } : {}),
    output: { stdout: log.fd, stderr: 'inherit' },
    startMs: 60_000,
  });
  await servers.spawn();
  const server = servers.members[0]!.child;
  const crowd = spawn(...pinned(1, process.execPath, ['--import', 'tsx', path.join(here, 'lib/spectator-crowd.ts')]), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = ipc(crowd);
  const stop = () => {
    server.kill('SIGTERM');
    crowd.kill('SIGKILL');
  };
  process.on('exit', stop);
  await servers.ready(servers.members[0]!);

  const loadBefore = os.loadavg();
  const admin = await signIn(base, '76561199999999001', 'StreamerAdmin', { demo: true });
  const p1 = await signIn(base, '76561198900000001', 'BenchOne');
  const p2 = await signIn(base, '76561198900000002', 'BenchTwo');
  const created = await fetch(`${base}/api/SplitOrStealGame/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie: admin },
    body: JSON.stringify({ reward: 100, counterInSeconds: 300 }),
  });
  const { gameId } = (await created.json()) as { gameId: string };

  const player = (cookie: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = io(`${base}/SplitOrSteal`, {
        transports: ['websocket'],
        query: { gameid: gameId },
        extraHeaders: { cookie },
      });
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  const one = await player(p1);
  const two = await player(p2);

  const call = (s: Socket, name: string, payload?: unknown) =>
    s.timeout(30_000).emitWithAck(name, ...(payload === undefined ? [] : [payload])) as Promise<{
      ok: boolean;
      data: { version: number; status: number };
      error?: string;
    }>;

  await call(one, 'JoinGame', 1);
  await call(two, 'JoinGame', 2);
  for (;;) {
    const state = await call(one, 'GetGameState');
    if (state.data.status === 3) break;
    await sleep(200);
  }

  console.log(
    `\nSplit or Steal spectators: ${os.cpus().length} CPUs, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, ` +
      `${redisUrl ? 'Redis streams adapter' : 'in-process adapter'}, ${samples} broadcasts per level, ` +
      `${pin ? 'server on core 0, spectators on core 1' : 'not pinned'}`,
  );
  const wsUrl = (p: number, query: string) => `ws://127.0.0.1:${p}/socket.io/?EIO=4&transport=websocket${query}`;
  type Got = { latencies: number[]; missed: number; bytes: number };
  let pick = 1;
  let frameBytes = 0;
  const results: Array<{ n: number; p99: number }> = [];
  for (const level of levels) {
    const t0 = Date.now();
    const grown = await ask<{ connected: number; failed: number }>(
      { type: 'grow', url: wsUrl(port, `&gameid=${gameId}`), target: level },
      'grown',
    );
    const connectSeconds = (Date.now() - t0) / 1000;
    const lastSocket: number[] = [];
    const deliveries: number[] = [];
    let lost = 0;
    const serverCpuBefore = cpuMs(server.pid!);
    const crowdCpuBefore = (await ask<{ ms: number }>({ type: 'cpu' }, 'cpu')).ms;
    const metricsBefore = await fanOut(base);
    for (let i = 0; i < samples; i++) {
      pick = pick === 1 ? 2 : 1;
      const answer = await call(one, 'UpdateSelection', pick);
      if (!answer.ok) throw new Error(`UpdateSelection failed: ${answer.error}`);
      const got = await ask<Got>({ type: 'expect', version: answer.data.version }, 'got');
      lost += got.missed;
      frameBytes = got.bytes;
      deliveries.push(...got.latencies);
      lastSocket.push(Math.max(...got.latencies));
      await sleep(250);
    }
    const serverCpu = (cpuMs(server.pid!) - serverCpuBefore) / samples;
    const crowdCpu = ((await ask<{ ms: number }>({ type: 'cpu' }, 'cpu')).ms - crowdCpuBefore) / samples;
    const metricsAfter = await fanOut(base);
    const broadcasts = metricsAfter.count - metricsBefore.count;
    const fanOutCpuMs = ((metricsAfter.cpu - metricsBefore.cpu) * 1000) / broadcasts;
    const frames = (metricsAfter.frames - metricsBefore.frames) / broadcasts;
    const last = summarise(lastSocket);
    const each = summarise(deliveries);
    printFigures(
      `${level} spectators (${grown.connected} connected in ${connectSeconds.toFixed(1)} s, frame ${frameBytes} B)`,
      {
        'end to end: commit → last socket p50 ms': last.p50,
        'end to end: commit → last socket p99 ms': last.p99,
        'end to end: commit → last socket max ms': last.max,
        'end to end: per delivery p50 ms': each.p50,
        'end to end: per delivery p99 ms': each.p99,
        'deliveries missed': lost,
        'server: commit → last frame written, mean ms': ((metricsAfter.sum - metricsBefore.sum) * 1000) / broadcasts,
        'server: commit → last frame written, p99 ms': p99Bucket(metricsBefore, metricsAfter),
        'server: fan-out CPU ms per broadcast': fanOutCpuMs,
        'server: fan-out CPU µs per frame': (fanOutCpuMs * 1000) / frames,
        'server: process CPU ms per broadcast': serverCpu,
        'server: RSS MB': rssMb(server.pid!),
        'spectators: CPU ms per broadcast': crowdCpu,
        [`end-to-end p99 under ${targetP99Ms} ms`]: last.p99 < targetP99Ms ? 'yes' : 'NO',
      },
    );
    results.push({ n: level, p99: last.p99 });
  }
  crowd.send({ type: 'close' });
  one.disconnect();
  two.disconnect();
  await new Promise<void>((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });

  if (bare) {
    // The floor: the same crowd and frame size against a bare ws server writing one buffer per socket.
    const barePort = await freePort();
    const bareServer = spawn(
      ...pinned(0, process.execPath, ['--import', 'tsx', path.join(here, 'lib/bare-broadcast.ts'), String(barePort)]),
      { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
    );
    await new Promise<void>((resolve) => bareServer.stdout!.once('data', () => resolve()));
    const bareCrowd = spawn(
      ...pinned(1, process.execPath, ['--import', 'tsx', path.join(here, 'lib/spectator-crowd.ts')]),
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const askBare = ipc(bareServer);
    const askCrowd = ipc(bareCrowd);
    let version = 0;
    for (const level of levels) {
      await askCrowd({ type: 'grow', url: wsUrl(barePort, ''), target: level }, 'grown');
      const lastSocket: number[] = [];
      const sent: Array<{ ms: number; cpuMs: number; sockets: number }> = [];
      for (let i = 0; i < samples; i++) {
        version += 1;
        sent.push(await askBare({ type: 'broadcast', version, bytes: frameBytes }, 'sent'));
        const got = await askCrowd<Got>({ type: 'expect', version }, 'got');
        lastSocket.push(Math.max(...got.latencies));
        await sleep(250);
      }
      const last = summarise(lastSocket);
      const cpu = sent.reduce((a, s) => a + s.cpuMs, 0) / sent.length;
      printFigures(`bare ws floor, ${sent[0]?.sockets ?? 0} sockets, frame ${frameBytes} B`, {
        'end to end: commit → last socket p50 ms': last.p50,
        'end to end: commit → last socket p99 ms': last.p99,
        'loop of writes, mean ms': sent.reduce((a, s) => a + s.ms, 0) / sent.length,
        'loop of writes, CPU ms per broadcast': cpu,
        'loop of writes, CPU µs per frame': (cpu * 1000) / (sent[0]?.sockets || 1),
      });
    }
    bareCrowd.kill('SIGKILL');
    bareServer.kill('SIGTERM');
  }

  const loadAfter = os.loadavg();
  console.log(`\nload average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const passing = results.filter((r) => r.p99 < targetP99Ms).map((r) => r.n);
  console.log(
    `largest level with commit → last socket p99 under ${targetP99Ms} ms: ${passing.length ? Math.max(...passing) : 'none'}`,
  );
  if (redisUrl) {
    // The adapter's stream and rate-limit keys of this run.
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

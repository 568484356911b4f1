/**
 * `npm run bench -- spectators [--levels 1000,2500,5000] [--samples 20]`
 *
 * How fast a Split or Steal state change reaches a crowd: the built server runs as its own process
 * (apps/server/dist/main.js, in-memory PGlite; BENCH_REDIS_URL routes broadcasts through the Redis
 * streams adapter), an admin creates a game, two players sit down and, in the choosing phase, one
 * of them flips their pick again and again. Each flip is a committed state change the server
 * broadcasts to every spectator in the game's room. For each level of N spectator sockets it prints
 * the time from the commit (the state's `serverTime`, stamped right after the commit) to the last
 * spectator receiving it (p50/p99 over the flips), the per-delivery p50/p99, and the server's RSS.
 *
 * Spectators are raw websockets speaking the Engine.IO/Socket.IO protocol and reading only the
 * version and time of each frame, so the measuring side stays light on the shared CPU.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { printFigures, summarise } from './lib/stats';
import { freePort, signIn } from './lib/site';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = path.join(root, 'apps/server/dist/main.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const levels = arg('levels', '1000,2500,5000')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => n > 0);
const samples = Number(arg('samples', '100'));
const targetP99Ms = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time (user + system) the process used so far, in ms (from /proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

interface Frame {
  version: number;
  serverTime: number;
  at: number;
}

/** A spectator: a bare websocket speaking just enough Engine.IO v4 / Socket.IO v5. */
class Spectator {
  private ws: WebSocket;
  connected = false;
  failed = false;
  latest: Frame | null = null;
  constructor(url: string, onState: (s: Spectator) => void) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('0')) {
        this.ws.send('40/SplitOrSteal,');
      } else if (text === '2') {
        this.ws.send('3');
      } else if (text.startsWith('40/SplitOrSteal')) {
        this.connected = true;
        onState(this);
      } else if (text.startsWith('44/SplitOrSteal')) {
        this.failed = true;
        onState(this);
      } else if (text.startsWith('42/SplitOrSteal,["ReceiveGameState"')) {
        const at = Date.now();
        const version = Number(/"version":(\d+)/.exec(text)?.[1]);
        const serverTime = Date.parse(/"serverTime":"([^"]+)"/.exec(text)?.[1] ?? '');
        this.latest = { version, serverTime, at };
        onState(this);
      }
    });
    this.ws.on('error', () => {
      this.failed = true;
      onState(this);
    });
    this.ws.on('close', () => {
      this.connected = false;
    });
  }
  close() {
    this.ws.terminate();
  }
}

async function main() {
  if (!existsSync(serverMain)) {
    console.error('Build the server first: npm run build');
    process.exit(1);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const redisPrefix = `kbbench:${randomBytes(4).toString('hex')}:`;
  // BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, serverMain], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: ':memory:',
      DATABASE_URL: '',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => server.kill('SIGTERM');
  process.on('exit', stop);
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (i > 240) throw new Error('server did not start');
    await sleep(250);
  }

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

  // Spectators, added level by level.
  const wsUrl = `ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket&gameid=${gameId}`;
  const spectators: Spectator[] = [];
  let waiting: { version: number; resolve: () => void; remaining: number } | null = null;
  const onState = (s: Spectator) => {
    if (waiting && s.latest && s.latest.version >= waiting.version) {
      waiting.remaining -= 1;
      if (waiting.remaining === 0) waiting.resolve();
    }
  };
  const ready = async (target: number) => {
    while (spectators.length < target) {
      const batch = Math.min(250, target - spectators.length);
      const fresh = Array.from({ length: batch }, () => new Spectator(wsUrl, onState));
      spectators.push(...fresh);
      const t0 = Date.now();
      while (fresh.some((s) => !s.connected && !s.failed)) {
        if (Date.now() - t0 > 30_000) break;
        await sleep(20);
      }
    }
  };

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
      `${redisUrl ? 'Redis streams adapter' : 'in-process adapter'}, ${samples} broadcasts per level`,
  );
  let pick = 1;
  const results: Array<{ n: number; p99: number }> = [];
  for (const level of levels) {
    const t0 = Date.now();
    await ready(level);
    const connectSeconds = (Date.now() - t0) / 1000;
    const live = spectators.filter((s) => s.connected);
    const lastSocket: number[] = [];
    const deliveries: number[] = [];
    let lost = 0;
    const serverCpuBefore = cpuMs(server.pid!);
    const benchCpuBefore = process.cpuUsage();
    for (let i = 0; i < samples; i++) {
      pick = pick === 1 ? 2 : 1;
      const done = new Promise<void>((resolve) => {
        waiting = { version: Number.MAX_SAFE_INTEGER, resolve, remaining: live.length };
      });
      const answer = await call(one, 'UpdateSelection', pick);
      if (!answer.ok) throw new Error(`UpdateSelection failed: ${answer.error}`);
      const version = answer.data.version;
      // Count the spectators that already have it, then wait for the rest.
      waiting!.version = version;
      waiting!.remaining = live.filter((s) => !(s.latest && s.latest.version >= version)).length;
      if (waiting!.remaining === 0) waiting!.resolve();
      await Promise.race([done, sleep(15_000)]);
      const frames = live.map((s) => s.latest).filter((f): f is Frame => f !== null && f.version >= version);
      lost += live.length - frames.length;
      const latencies = frames.map((f) => f.at - f.serverTime);
      deliveries.push(...latencies);
      lastSocket.push(Math.max(...latencies));
      waiting = null;
      await sleep(250);
    }
    const serverCpu = (cpuMs(server.pid!) - serverCpuBefore) / samples;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const last = summarise(lastSocket);
    const each = summarise(deliveries);
    printFigures(`${level} spectators (${live.length} connected in ${connectSeconds.toFixed(1)} s)`, {
      'commit → last socket p50 ms': last.p50,
      'commit → last socket p99 ms': last.p99,
      'commit → last socket max ms': last.max,
      'per delivery p50 ms': each.p50,
      'per delivery p99 ms': each.p99,
      'deliveries missed': lost,
      'server CPU ms per broadcast': serverCpu,
      'spectator-side CPU ms each': (benchCpu.user + benchCpu.system) / 1000 / samples,
      'server RSS MB': rssMb(server.pid!),
      [`p99 under ${targetP99Ms} ms`]: last.p99 < targetP99Ms ? 'yes' : 'NO',
    });
    results.push({ n: level, p99: last.p99 });
  }
  const loadAfter = os.loadavg();
  console.log(`\nload average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const passing = results.filter((r) => r.p99 < targetP99Ms).map((r) => r.n);
  console.log(
    `largest level with commit → last socket p99 under ${targetP99Ms} ms: ${passing.length ? Math.max(...passing) : 'none'}`,
  );

  for (const s of spectators) s.close();
  one.disconnect();
  two.disconnect();
  await new Promise<void>((resolve) => {
    server.once('exit', () => resolve());
    stop();
  });
  if (redisUrl) {
    // The adapter's stream and rate-limit keys of this run.
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench -- stream-night [--visitors 10000] [--ramp 60] [--hold 20] [--chat-rate 2000]
 *   [--bet-share 0.05] [--key-every 20] [--move-ms 2000] [--bettors 200] [--client-processes 2]
 *   [--timeout-ms 15000] [--bare-samples 20] [--chat-connections 64] [--cluster] [--cluster-only]
 *   [--processes 3] [--log-level <level>] [--calibrate-seconds 10] [--calibrate-visitors 1000]
 *   [--calibrate-only] [--profile <dir>] [--shared-address]`
 * (`npm run build` first; PostgreSQL: BENCH_DATABASE_URL, else the local server when one answers;
 * `--cluster` also needs caddy and Redis: BENCH_REDIS_URL, else redis://127.0.0.1:6379)
 *
 * The link drop (docs/benchmarks.md#stream-night): the streamer drops the Deal or No Deal link in
 * chat and `--visitors` new viewers open it over `--ramp` seconds, while chat runs at its busiest,
 * a prediction is open and the game is being played. The built server runs at its defaults (the
 * log level it ran with is printed), its request budgets included: each visitor connects from a
 * loopback address of its own (`127.<10+n>.x.y`), as a link drop's viewers do, and the set-up
 * waits out a 429 as a polite client would; `--shared-address` sends every visitor from 127.0.0.1
 * with the budgets raised instead (the runs before 2026-12-08). On a fresh PostgreSQL database, as
 * one process; with
 * `--cluster` the same load then runs through Caddy (deploy/Caddyfile) in front of `--processes` processes on
 * PostgreSQL and Redis (scripts/cluster.ts), and both columns are printed side by side.
 *
 * - Visitors (lib/stream-visitors.ts, in `--client-processes` processes of their own): each loads
 *   the page as a browser with an empty cache does — the HTML, every asset it loads (scripts,
 *   module preloads, the stylesheet, the route's lazy chunks and their styles, the site
 *   configuration's chunk), `GET /api/site` — then connects to the hub with socket.io-client and
 *   asks `GetGameState`, and stays as a spectator.
 * - Chat: signed `chat.message.sent` deliveries at `--chat-rate` per second, open loop, for the
 *   ramp and the hold; `--bet-share` of them `!bet` from linked bettors (1 point each) on an open
 *   prediction, every `--key-every`-th a giveaway key from a chatter not seen before.
 * - The owner plays Deal or No Deal (a move every `--move-ms`), from a quarter into the ramp.
 *
 * Figures: errors and timeouts; first request → first game state p50/p99; the webhook answer
 * p99; commit → last spectator frame p99 (over the moves made once every visitor arrived, and over
 * all of them), beside the bare `ws` floor measured in the same run with as many sockets and the
 * same frame size (lib/bare-broadcast.ts); server RSS (the largest seen), server and PostgreSQL
 * CPU per visitor (everything the run did, divided by the visitors), and what the client side cost.
 * Capacity, measured before the run (measureCapacity): Node's CPU per visitor and per chat message,
 * each with the other load absent, and the visitors per second one core carries at them.
 * Checks: every bet committed once, every giveaway entry once, every spectator got the states in
 * order and ends on the latest, the game's win-screen deadline fired once, the ledger invariant.
 * Exits 1 when a check fails (a missed target is printed, not an exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import type { DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { Cluster } from '../scripts/cluster';
import { KeepAliveClient } from './lib/keep-alive-client';
import {
  benchKickKeys,
  call,
  inBatches,
  linkChatter,
  request,
  signDeliveries,
  unsignedChat,
  type Unsigned,
} from './lib/kick-deliveries';
import { PipelinedClient } from './lib/pipelined-client';
import { benchLogLevel, logLevelEnv, logLevelLine, serverLogFile } from './lib/server-log';
import { benchServer, processCpuMs, startServer, stopServer, withFreshPgDatabase } from './lib/server-process';
import { waitOutRateLimits } from './lib/polite-fetch';
import { freePort, signIn } from './lib/site';
import { summarise } from './lib/stats';

const here = path.dirname(fileURLToPath(import.meta.url));
const ADMIN_STEAM_ID = '76561199999999001'; // the dev provider's demo admin
const GIVEAWAY_KEY = '!night';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number ≥ 0`);
  return value;
}
const visitorCount = arg('visitors', 10_000);
const rampS = arg('ramp', 60);
const holdS = arg('hold', 20);
const chatRate = arg('chat-rate', 2000);
const betShare = arg('bet-share', 0.05);
const keyEvery = arg('key-every', 20);
const moveMs = arg('move-ms', 2000);
const bettorCount = arg('bettors', 200);
const clientProcesses = Math.max(1, arg('client-processes', 2));
const timeoutMs = arg('timeout-ms', 15_000);
const bareSamples = arg('bare-samples', 20);
const processes = arg('processes', 3);
/** The capacity calibration before the run: each load alone for this long (0 skips it). */
const calibrateS = arg('calibrate-seconds', 10);
/** Visitors in the calibration's visitors-only phase. */
const calibrateVisitors = arg('calibrate-visitors', Math.min(1000, visitorCount));
const TARGET_NODE_MS_PER_VISITOR = 3;
/**
 * Keep-alive connections the chat is pipelined over. Kick delivers webhooks concurrently; Node
 * answers a connection's pipelined requests concurrently, HAProxy one after another, so the
 * cluster needs connections enough for the answers in flight.
 */
const chatConnections = arg('chat-connections', 64);
/** `--calibrate-only`: the capacity calibration, without the run after it (no checks then). */
const calibrateOnly = process.argv.includes('--calibrate-only');
/** `--profile <dir>`: every Kickback process writes a V8 CPU profile there when it stops. */
const profileDir = (() => {
  const i = process.argv.indexOf('--profile');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();
const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const withCluster = process.argv.includes('--cluster') || process.argv.includes('--cluster-only');
const clusterOnly = process.argv.includes('--cluster-only');
/** `--shared-address`: every visitor from 127.0.0.1, the request budgets raised so they do not share one. */
const sharedAddress = process.argv.includes('--shared-address');
/** The second octet of visitor process `n`'s own addresses (lib/stream-visitors.ts); none when shared. */
const addressBlock = (n: number) => (sharedAddress ? {} : { addressBlock: 10 + n });
if (!sharedAddress) waitOutRateLimits();
const TARGET = { firstStateP99: 1500, webhookP99: 100, frameP99: 400, bareRatio: 1.5, rssMb: 1536 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const { publicPem, privatePem } = benchKickKeys();

/** What the scenario needs of the system under load, one process or the cluster. */
interface Target {
  label: string;
  base: string;
  port: number;
  databaseUrl: string;
  /** The processes whose CPU and memory count as the server's (the proxy's included). */
  pids(): number[];
  /** Kickback's own processes (Node), without the proxy. */
  nodePids(): number[];
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** This process's children named `name` (the cluster's Caddy). */
function childPids(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === name && ppid === process.pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
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

type HubAnswer<T> = { ok: true; data: T } | { ok: false; error: string };
async function hubCall<T>(socket: Socket, name: string, ...payload: unknown[]): Promise<T> {
  const result = (await socket.timeout(30_000).emitWithAck(name, ...payload)) as HubAnswer<T>;
  if (!result.ok) throw new Error(`${name}: ${result.error}`);
  return result.data;
}

function connectHub(base: string, namespace: string, query: Record<string, string>, cookie?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(`${base}${namespace}`, {
      transports: ['websocket'],
      query,
      forceNew: true,
      reconnection: false,
      ...(cookie ? { extraHeaders: { cookie } } : {}),
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/**
 * What a browser loads for the game page after its HTML: the HTML's scripts, module preloads and
 * stylesheets, then (from the entry's lazy-import table) the route's chunk with its dependencies
 * and the site configuration's chunk the shell imports at start.
 */
async function pageAssets(base: string, gameId: string): Promise<string[]> {
  const html = await (await fetch(`${base}/game/dealornodeal/${gameId}`)).text();
  const paths = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/[^"]+)"[^>]*>/g)) paths.add(m[1]!);
  const entry = /<script[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error('the page has no entry script');
  const code = await (await fetch(`${base}${entry}`)).text();
  const table = /m\.f=\[([^\]]*)\]/.exec(code)?.[1];
  const deps = table ? [...table.matchAll(/"([^"]+)"/g)].map((m) => `/${m[1]!}`) : [];
  for (const chunk of ['deal-or-no-deal-page', 'site']) {
    const lazy = new RegExp(
      `import\\(\`\\./(${chunk}-[\\w-]+\\.js)\`\\)(?:,__vite__mapDeps\\(\\[([\\d,]*)\\]\\))?`,
    ).exec(code);
    if (!lazy) throw new Error(`the entry has no lazy import of ${chunk}`);
    paths.add(`/assets/${lazy[1]!}`);
    for (const i of (lazy[2] ?? '').split(',').filter(Boolean)) paths.add(deps[Number(i)]!);
  }
  return [...paths];
}

interface Figures {
  rows: Array<[string, string]>;
  ok: boolean;
}

interface WorkerReport {
  firstState: number[];
  errors: Record<string, number>;
  frames: Array<[number, [number, number]]>;
  lastVersions: number[];
  connected: number;
  reordered: number;
  skipped: number;
  bytes: number;
  cpuMs: number;
  rssMb: number;
}

/** The bare `ws` floor with `sockets` spectators and frames of `frameBytes`: commit → last socket p99. */
async function bareFloor(
  sockets: number,
  frameBytes: number,
): Promise<{ p99: number; p50: number; connected: number }> {
  const barePort = await freePort();
  const bare = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'lib/bare-broadcast.ts'), String(barePort)],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  await new Promise<void>((resolve) => bare.stdout!.once('data', () => resolve()));
  const crowd = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'lib/spectator-crowd.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const grown = await ipc(crowd)<{ connected: number }>(
      { type: 'grow', url: `ws://127.0.0.1:${barePort}/socket.io/?EIO=4&transport=websocket`, target: sockets },
      'grown',
    );
    const last: number[] = [];
    for (let version = 1; version <= bareSamples; version++) {
      await ipc(bare)({ type: 'broadcast', version, bytes: frameBytes }, 'sent');
      const got = await ipc(crowd)<{ latencies: number[] }>({ type: 'expect', version }, 'got');
      last.push(Math.max(0, ...got.latencies));
      await sleep(250);
    }
    const s = summarise(last);
    return { p99: s.p99, p50: s.p50, connected: grown.connected };
  } finally {
    crowd.kill('SIGKILL');
    bare.kill('SIGTERM');
  }
}

/**
 * Sends `requests` open loop at `--chat-rate` from `startAt` over `--chat-connections` pipelined
 * connections; a 503 is sent again after 50 ms (Kick's retry). Resolves once every one is answered.
 */
function openLoopChat(
  port: number,
  requests: Buffer[],
  startAt: number,
  answered: (i: number, latencyMs: number, status: number) => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (requests.length === 0) return resolve();
    let next = 0;
    let done = 0;
    const clients = new PipelinedClient(port, chatConnections, (i, status) => {
      if (status === 503 || status === 0) {
        setTimeout(() => clients.send(requests[i]!, i), 50);
        return;
      }
      answered(i, Date.now() - (startAt + (i * 1000) / chatRate), status);
      if (++done === requests.length) {
        clients.close();
        resolve();
      }
    });
    const tick = () => {
      const t = Date.now() - startAt;
      while (next < requests.length && (next * 1000) / chatRate <= t) {
        clients.send(requests[next]!, next);
        next += 1;
      }
      if (next < requests.length) setTimeout(tick, Math.max(0, startAt + (next * 1000) / chatRate - Date.now()));
    };
    setTimeout(tick, Math.max(0, startAt - Date.now()));
  });
}

/** What one visitor and one chat message cost the server, each measured alone (measureCapacity). */
interface Capacity {
  visitors: number;
  visitorsFailed: number;
  nodeMsPerVisitor: number;
  proxyMsPerVisitor: number;
  messages: number;
  nodeMsPerMessage: number;
  proxyMsPerMessage: number;
  clientMsPerVisitor: number;
}

/**
 * The capacity calibration (docs/benchmarks.md#stream-night), before the run itself: first
 * `--calibrate-visitors` visitors over `--calibrate-seconds` (after 200 not measured, to warm up) with no chat and no moves (each
 * loads the page, `/api/site`, connects and asks `GetGameState`, as in the run; they leave before
 * the run), then plain chat at `--chat-rate` for `--calibrate-seconds` (after one second's worth not measured) with nobody arriving. The
 * server's CPU over each phase, less what it spends idle (measured for 2 s first), divided by what
 * it carried, is its cost per visitor and per message: Kickback's processes (Node) apart from the
 * proxy's.
 */
async function measureCapacity(target: Target, gameId: string, paths: string[], now: Date): Promise<Capacity> {
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const proxyPids = () => target.pids().filter((pid) => !target.nodePids().includes(pid));
  // What the server spends idle (its timers, the pool's keep-alives) is not the load's.
  const idleNode0 = cpuOf(target.nodePids());
  const idleProxy0 = cpuOf(proxyPids());
  const idleStarted = performance.now();
  await sleep(2000);
  const idleS = (performance.now() - idleStarted) / 1000;
  const idle = {
    node: (cpuOf(target.nodePids()) - idleNode0) / idleS,
    proxy: (cpuOf(proxyPids()) - idleProxy0) / idleS,
  };
  const measure = async (work: () => Promise<void>) => {
    const node0 = cpuOf(target.nodePids());
    const proxy0 = cpuOf(proxyPids());
    const started = performance.now();
    await work();
    await sleep(500); // the last answers' work
    const s = (performance.now() - started) / 1000;
    return {
      node: Math.max(0, cpuOf(target.nodePids()) - node0 - idle.node * s),
      proxy: Math.max(0, cpuOf(proxyPids()) - proxy0 - idle.proxy * s),
    };
  };

  console.log(`  ${target.label}: capacity calibration, ${calibrateVisitors} visitors then chat alone…`);
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'lib/stream-visitors.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = ipc(worker);
  const arrive = async (count: number, overS: number) => {
    const startAt = Date.now() + 300;
    const at = Array.from({ length: count }, (_, i) => (i * overS * 1000) / count);
    await ask(
      {
        type: 'start',
        base: target.base,
        gameId,
        paths,
        reads: ['/api/site'],
        visitors: at,
        startAt,
        timeoutMs,
        // Its own block: the run's visitor processes (blocks 10, 11, …) come after it with new addresses.
        ...addressBlock(clientProcesses),
      },
      'arrived',
    );
  };
  const warmVisitors = Math.min(200, calibrateVisitors);
  let warm: WorkerReport;
  let report: WorkerReport;
  let visitorsCpu: { node: number; proxy: number };
  try {
    await sleep(1500); // tsx compiles the worker
    // A warm-up, not measured: a fresh process compiles its hot paths on its first visitors.
    await arrive(warmVisitors, 2);
    warm = await ask<WorkerReport>({ type: 'report' }, 'report');
    visitorsCpu = await measure(() => arrive(calibrateVisitors, calibrateS));
    report = await ask<WorkerReport>({ type: 'report' }, 'report');
  } finally {
    if (worker.exitCode === null) worker.send({ type: 'close' });
  }
  await sleep(1000); // the calibration's spectators are gone

  const warmMessages = Math.round(chatRate);
  const messages = Math.round(chatRate * calibrateS);
  const unsigned = Array.from({ length: warmMessages + messages }, (_, i) =>
    unsignedChat(40_000 + (i % 10_000), `calibrating ${i}`, now),
  );
  const signatures = await signDeliveries(unsigned, privatePem);
  const requests = unsigned.map((u, i) => request(target.port, u, signatures[i]!));
  await openLoopChat(target.port, requests.slice(0, warmMessages), Date.now() + 100, () => {});
  const chatCpu = await measure(() =>
    openLoopChat(target.port, requests.slice(warmMessages), Date.now() + 100, () => {}),
  );

  const visitors = report.firstState.length - warm.firstState.length;
  const carried = Math.max(1, visitors);
  return {
    visitors,
    visitorsFailed: calibrateVisitors - visitors,
    nodeMsPerVisitor: visitorsCpu.node / carried,
    proxyMsPerVisitor: visitorsCpu.proxy / carried,
    messages,
    nodeMsPerMessage: chatCpu.node / Math.max(1, messages),
    proxyMsPerMessage: chatCpu.proxy / Math.max(1, messages),
    clientMsPerVisitor: (report.cpuMs - warm.cpuMs) / carried,
  };
}

/** The calibration's rows: cost per visitor and per message, and what one core carries at them. */
function capacityRows(c: Capacity): Array<[string, string]> {
  const perCore = (ms: number) => (ms > 0 ? 1000 / ms : Infinity);
  const chatShare = chatRate * c.nodeMsPerMessage; // ms of Node CPU per second the chat takes
  const besideChat = Math.max(0, (1000 - chatShare) / Math.max(1e-9, c.nodeMsPerVisitor));
  const proxy = (ms: number) => (ms > 0 ? `, proxy ${ms.toFixed(2)} ms` : '');
  return [
    [
      'capacity: Node CPU per visitor',
      `${c.nodeMsPerVisitor.toFixed(2)} ms${proxy(c.proxyMsPerVisitor)} (${c.visitors} alone over ${calibrateS} s, ${c.visitorsFailed} failed; target ≤ ${TARGET_NODE_MS_PER_VISITOR} ms behind the front)`,
    ],
    [
      'capacity: Node CPU per chat message',
      `${c.nodeMsPerMessage.toFixed(3)} ms${proxy(c.proxyMsPerMessage)} (${c.messages} plain at ${chatRate}/s alone)`,
    ],
    [
      'capacity: visitors/s one core carries',
      `${perCore(c.nodeMsPerVisitor).toFixed(0)} alone; ${besideChat.toFixed(0)} beside chat at ${chatRate}/s (${(chatShare / 10).toFixed(0)} % of the core)`,
    ],
    [
      'capacity: the generator per visitor',
      `${c.clientMsPerVisitor.toFixed(2)} ms of client CPU (on the same cores: a bound, docs/benchmarks.md#stream-night)`,
    ],
  ];
}

/** The link drop against one target. */
async function scenario(target: Target): Promise<Figures> {
  const { base, port } = target;
  const db = new pg.Client({ connectionString: target.databaseUrl });
  await db.connect();
  const keepAlive = new KeepAliveClient(port, 20);
  const sockets: Socket[] = [];
  const workers: ChildProcess[] = [];
  try {
    // Set-up: the admin, the player, linked bettors, an open prediction, a giveaway key, the game.
    const admin = await signIn(base, ADMIN_STEAM_ID, 'StreamerAdmin', { demo: true });
    const playerCookie = await signIn(base, '76561198900000777', 'NightPlayer');
    const { json: player } = await call<{ openId: string }>(base, '/api/User/ping', playerCookie);
    const bettors: number[] = [];
    await inBatches(
      Array.from({ length: bettorCount }, (_, i) => i),
      10,
      async (i) => {
        await linkChatter({ base, port, admin, client: keepAlive, chatter: i, points: 1_000_000, privatePem });
        bettors.push(i);
      },
    );
    // Closed now: a proxy answers an idle keep-alive connection on its own (HAProxy's 408).
    keepAlive.close();
    const opened = await call<{ id: string }>(base, '/api/predictions', admin, {
      question: 'Does the player take the deal?',
      answers: [
        { text: 'Yes', color: '#22c55e' },
        { text: 'No', color: '#ef4444' },
      ],
    });
    if (opened.status !== 200) throw new Error(`open prediction: HTTP ${opened.status}`);
    const giveaway = await connectHub(base, '/KickGiveAway', {}, admin);
    sockets.push(giveaway);
    await hubCall(giveaway, 'AddKey', GIVEAWAY_KEY);
    await hubCall(giveaway, 'SetKeys', [GIVEAWAY_KEY]);
    await hubCall(giveaway, 'ClearParticipants');
    const created = await call<{ gameId: string }>(base, '/api/DealOrNoDeal/create', admin, {
      playerUserId: player.openId,
      isPrivate: false,
      reward: 0,
      Amounts: [...DEFAULT_AMOUNTS],
    });
    if (created.status !== 200) throw new Error(`create game: HTTP ${created.status}`);
    const gameId = created.json.gameId;
    const owner = await connectHub(base, '/DealOrNoDeal', { gameid: gameId }, playerCookie);
    sockets.push(owner);
    /** Every state version the owner saw, with its status and server time. */
    const versions = new Map<number, { status: number; serverTime: number }>();
    const note = (s: DealOrNoDealState) =>
      versions.set(s.version, { status: s.status, serverTime: Date.parse(s.serverTime) });
    owner.on('GameStateChange', note);
    let state = await hubCall<DealOrNoDealState>(owner, 'GetGameState');
    note(state);
    const frameBytes = JSON.stringify(['GameStateChange', state]).length + 20;
    const paths = await pageAssets(base, gameId);

    if (calibrateOnly) {
      const capacity = await measureCapacity(target, gameId, paths, new Date());
      return { rows: capacityRows(capacity), ok: true };
    }

    // The chat of the whole run, signed before it starts.
    const seconds = rampS + holdS;
    const chatCount = Math.round(chatRate * seconds);
    const betEvery = betShare > 0 ? Math.max(1, Math.round(1 / betShare)) : 0;
    const now = new Date();
    const unsigned: Unsigned[] = [];
    let betsSent = 0;
    let keysSent = 0;
    for (let i = 0; i < chatCount; i++) {
      if (betEvery && i % betEvery === 0 && bettors.length > 0) {
        const chatter = bettors[betsSent++ % bettors.length]!;
        unsigned.push(unsignedChat(chatter, `!bet ${1 + (chatter % 2)} 1`, now));
      } else if (keyEvery && i % keyEvery === Math.floor(keyEvery / 2)) {
        unsigned.push(unsignedChat(500_000 + keysSent++, GIVEAWAY_KEY, now));
      } else {
        unsigned.push(unsignedChat(10_000 + (i % 10_000), `gg ${i} lets go`, now));
      }
    }
    console.log(`  ${target.label}: signing ${chatCount} chat deliveries…`);
    const signatures = await signDeliveries(unsigned, privatePem);
    const requests = unsigned.map((u, i) => request(port, u, signatures[i]!));

    const capacity = calibrateS > 0 ? await measureCapacity(target, gameId, paths, now) : null;

    // The visitors' processes.
    for (let w = 0; w < clientProcesses; w++) {
      workers.push(
        spawn(process.execPath, ['--import', 'tsx', path.join(here, 'lib/stream-visitors.ts')], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      );
    }
    await sleep(1500); // tsx compiles the worker

    const pgPids = async () => {
      const { rows } = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return rows.map((r) => r.pid);
    };
    const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const serverPids = target.pids();
    const serverCpu0 = cpuOf(serverPids);
    const pg0 = new Map((await pgPids()).map((pid) => [pid, processCpuMs(pid)]));
    const self0 = process.cpuUsage();
    let rssMax = 0;
    const rssTimer = setInterval(() => {
      rssMax = Math.max(
        rssMax,
        target.pids().reduce((sum, pid) => sum + rssMb(pid), 0),
      );
    }, 500);

    const startAt = Date.now() + 500;
    const rampEnd = startAt + rampS * 1000;
    const end = rampEnd + holdS * 1000;
    const arrived = workers.map((worker, w) => {
      const ask = ipc(worker);
      const mine: number[] = [];
      for (let i = w; i < visitorCount; i += clientProcesses) mine.push((i * rampS * 1000) / visitorCount);
      return ask(
        {
          type: 'start',
          base,
          gameId,
          paths,
          reads: ['/api/site'],
          visitors: mine,
          startAt,
          timeoutMs,
          ...addressBlock(w),
        },
        'arrived',
      );
    });

    // Chat, open loop from startAt; a 503 is sent again after 50 ms (Kick's retry).
    const latencies = new Float64Array(chatCount);
    const statuses = new Uint16Array(chatCount);
    const chatDone = openLoopChat(port, requests, startAt, (i, latency, status) => {
      latencies[i] = latency;
      statuses[i] = status;
    });

    // The owner plays, a move every --move-ms from a quarter into the ramp, until the run ends.
    const moves: Array<{ version: number; serverTime: number }> = [];
    const moveErrors: string[] = [];
    const play = (async () => {
      await sleep(Math.max(0, startAt + rampS * 250 - Date.now()));
      while (Date.now() < end && ![0, 5, 6, 7].includes(state.status)) {
        const t = Date.now();
        try {
          if (state.status === 1) state = await hubCall(owner, 'StartGame');
          else if (state.status === 2) state = await hubCall(owner, 'SelectBox', 12);
          else if (state.status === 3) {
            const box = state.boxesInfo.find((b) => !b.isOpened && b.id !== state.primaryBoxId)!;
            state = await hubCall(owner, 'SelectBox', box.id);
          } else if (state.status === 4) state = await hubCall(owner, 'AnswerOffer', false);
          else if (state.status === 8) state = await hubCall(owner, 'answerSwapOffer', false);
          note(state);
          moves.push({ version: state.version, serverTime: Date.parse(state.serverTime) });
        } catch (err) {
          moveErrors.push((err as Error).message);
        }
        await sleep(Math.max(0, t + moveMs - Date.now()));
      }
    })();

    await Promise.all([chatDone, play, ...arrived, sleep(Math.max(0, end - Date.now()))]);
    // A won game's win screen ends by its deadline; wait for it when the game was won.
    if (state.status === 6) {
      const deadline = Date.now() + 15_000;
      while (![...versions.values()].some((v) => v.status === 0) && Date.now() < deadline) await sleep(200);
    }
    await sleep(2000); // the last frames land
    clearInterval(rssTimer);
    const serverCpu = cpuOf(serverPids) - serverCpu0;
    let pgCpu = 0;
    for (const pid of await pgPids()) pgCpu += processCpuMs(pid) - (pg0.get(pid) ?? 0);
    const selfCpu = process.cpuUsage(self0);
    const reports = await Promise.all(workers.map((w) => ipc(w)<WorkerReport>({ type: 'report' }, 'report')));
    for (const w of workers) w.send({ type: 'close' });

    // Figures.
    const firstState = summarise(reports.flatMap((r) => r.firstState));
    const errors = new Map<string, number>();
    for (const r of reports) for (const [k, n] of Object.entries(r.errors)) errors.set(k, (errors.get(k) ?? 0) + n);
    const failedVisits = visitorCount - firstState.count;
    const frames = new Map<number, [number, number]>();
    for (const r of reports) {
      for (const [version, [n, at]] of r.frames) {
        const seen = frames.get(version);
        frames.set(version, seen ? [seen[0] + n, Math.max(seen[1], at)] : [n, at]);
      }
    }
    const frameLatency = (from: number) =>
      summarise(
        moves
          .filter((m) => m.serverTime >= from && frames.has(m.version))
          .map((m) => frames.get(m.version)![1] - m.serverTime),
      );
    const allFrames = frameLatency(0);
    const heldFrames = frameLatency(rampEnd);
    const connected = reports.reduce((s, r) => s + r.connected, 0);
    const latest = Math.max(...versions.keys());
    const notLatest = reports.flatMap((r) => r.lastVersions).filter((v) => v !== latest).length;
    const reordered = reports.reduce((s, r) => s + r.reordered, 0);
    const skipped = reports.reduce((s, r) => s + r.skipped, 0);
    const chat = summarise([...latencies]);
    const chatFailed = [...statuses].filter((s) => s !== 200).length;
    const clientCpu = reports.reduce((s, r) => s + r.cpuMs, 0) + (selfCpu.user + selfCpu.system) / 1000;

    // Checks of the books.
    const { rows: bets } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger WHERE reason = 'prediction_bet'`,
    );
    const { rows: entries } = await db.query<{ n: number; distinct: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT kick_user_id)::int AS distinct FROM giveaway_participants
       WHERE round_id = (SELECT round_id FROM giveaway_settings WHERE id = 1)`,
    );
    const { rows: balances } = await db.query<{ points: string; summed: string | null; newest: string | null }>(`
      SELECT u.points,
             (SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points') AS summed,
             (SELECT balance_after FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points' ORDER BY id DESC LIMIT 1) AS newest
      FROM users u`);
    const ledgerBad = balances.filter(
      (b) => Number(b.summed ?? 0) !== Number(b.points) || (b.newest !== null && Number(b.newest) !== Number(b.points)),
    ).length;
    const finishes = [...versions.values()].filter((v) => v.status === 0).length;
    const won = [...versions.values()].some((v) => v.status === 6);

    const floor = connected > 0 && bareSamples > 0 ? await bareFloor(connected, frameBytes) : null;
    const checks = {
      bets: bets[0]!.n === betsSent,
      entries: entries[0]!.n === keysSent && entries[0]!.distinct === keysSent,
      order: reordered === 0 && notLatest === 0,
      deadline: !won || finishes === 1,
      ledger: ledgerBad === 0,
      moves: moveErrors.length === 0,
    };
    const ok = Object.values(checks).every(Boolean);
    const yes = (b: boolean) => (b ? 'yes' : 'NO');
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const rows: Array<[string, string]> = [
      ['visitors (ramp, hold)', `${visitorCount} over ${rampS} s, then ${holdS} s`],
      ['chat offered', `${chatCount} at ${chatRate}/s (${betsSent} bets, ${keysSent} keys)`],
      ['owner moves', `${moves.length} (${moveErrors.length} failed)`],
      ['visitors with a first state', `${firstState.count} (${failedVisits} failed)`],
      ['errors and timeouts', errors.size ? [...errors].map(([k, n]) => `${k}×${n}`).join(', ') : '0'],
      ['spectators connected at the end', String(connected)],
      ['page: requests per visitor', `${2 + paths.length} (HTML, ${paths.length} assets, /api/site)`],
      ['first request → state p50', ms(firstState.p50)],
      ['first request → state p99', `${ms(firstState.p99)} (target < ${TARGET.firstStateP99})`],
      [
        'chat webhook p50 / p99',
        `${chat.p50.toFixed(1)} / ${chat.p99.toFixed(1)} ms (target p99 < ${TARGET.webhookP99})`,
      ],
      ['chat answers not 200', String(chatFailed)],
      ['commit → last frame p99, all', `${ms(allFrames.p99)} over ${allFrames.count} moves`],
      [
        'commit → last frame p99, held',
        `${ms(heldFrames.p99)} over ${heldFrames.count} moves at ${connected} (target < ${TARGET.frameP99})`,
      ],
      [
        'bare ws floor p99 (same run)',
        floor
          ? `${ms(floor.p99)} at ${floor.connected} sockets, ${frameBytes} B → ratio ${(heldFrames.p99 / Math.max(1, floor.p99)).toFixed(2)} (target ≤ ${TARGET.bareRatio})`
          : 'not measured',
      ],
      ['server RSS max', `${rssMax.toFixed(0)} MB (target < ${TARGET.rssMb})`],
      ['server CPU', `${(serverCpu / 1000).toFixed(1)} s over ${seconds} s`],
      ['server CPU per visitor', `${(serverCpu / Math.max(1, visitorCount)).toFixed(2)} ms (all load ÷ visitors)`],
      ['PostgreSQL CPU per visitor', `${(pgCpu / Math.max(1, visitorCount)).toFixed(2)} ms`],
      [
        'client side CPU',
        `${(clientCpu / 1000).toFixed(1)} s (${(clientCpu / Math.max(1, visitorCount)).toFixed(2)} ms per visitor; ${clientProcesses} processes, ${reports.reduce((s, r) => s + r.rssMb, 0)} MB)`,
      ],
      ...(capacity ? capacityRows(capacity) : []),
      ['states skipped (coalesced)', String(skipped)],
      ['check: bets committed once', `${yes(checks.bets)} (${betsSent} sent, ${bets[0]!.n} in the ledger)`],
      ['check: giveaway entries once', `${yes(checks.entries)} (${keysSent} keys, ${entries[0]!.n} entries)`],
      [
        'check: frames in order, latest',
        `${yes(checks.order)} (${reordered} out of order, ${notLatest} not on v${latest})`,
      ],
      ['check: deadline fired once', won ? `${yes(checks.deadline)} (${finishes} finish)` : 'n/a (game not won yet)'],
      ['check: ledger invariant', `${yes(checks.ledger)} (${balances.length} users, ${ledgerBad} off)`],
    ];
    if (moveErrors.length) console.log(`  moves failed: ${[...new Set(moveErrors)].join('; ')}`);
    return { rows, ok };
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    for (const s of sockets) s.disconnect();
    await db.end();
  }
}

/**
 * The server's settings: its defaults, but for the webhook key and the metrics address. With
 * `--shared-address` the budgets are raised, every visitor coming from one address; otherwise the
 * product's own (`RATE_LIMIT_PER_MINUTE`'s default, apps/server/src/config.ts) — lib/server-process.ts
 * raises it for the other benchmarks, so it is set back here.
 */
const serverEnv = {
  KICK_WEBHOOK_PUBLIC_KEY: publicPem,
  ...(sharedAddress
    ? { WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_PER_MINUTE: '100000000' }
    : { RATE_LIMIT_PER_MINUTE: '600' }),
  METRICS_ALLOW: '127.0.0.1',
};

async function oneProcess(): Promise<Figures> {
  let figures: Figures = { rows: [], ok: false };
  await withFreshPgDatabase(async (databaseUrl) => {
    const port = await freePort();
    const server = await startServer(port, databaseUrl, serverEnv, profiling);
    try {
      figures = await scenario({
        label: 'one process',
        base: `http://127.0.0.1:${port}`,
        port,
        databaseUrl,
        pids: () => [server.pid!],
        nodePids: () => [server.pid!],
      });
    } finally {
      await stopServer(server);
    }
    return figures.ok;
  });
  return figures;
}

/** The same through `npm run cluster`'s Cluster (Caddy, N processes, PostgreSQL, Redis). */
async function cluster(): Promise<Figures> {
  let figures: Figures = { rows: [], ok: false };
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `kbnight:${randomBytes(4).toString('hex')}:`;
  await withFreshPgDatabase(async (databaseUrl) => {
    const log = serverLogFile('stream-night-cluster');
    const out = createWriteStream('', { fd: log.fd });
    console.log(logLevelLine(log.file));
    const c = new Cluster({
      processes,
      port: await freePort(),
      databaseUrl,
      redisUrl,
      env: {
        ...serverEnv,
        NODE_ENV: 'development',
        DEMO_DATA: '0',
        LEADERBOARD_POLLER: '0',
        REDIS_PREFIX: prefix,
        ...logLevelEnv(),
      },
      output: (source, text) => out.write(`[${source}] ${text}`),
      // As `npm run cluster` starts them; BENCH_SERVER_MAIN measures another build.
      command: benchServer(['--enable-source-maps', ...profiling]),
    });
    try {
      await c.start();
      figures = await scenario({
        label: `cluster (${processes} processes)`,
        base: c.url,
        port: Number(new URL(c.url).port),
        databaseUrl,
        pids: () => [...c.members.map((m) => m.child.pid!), ...childPids('caddy')],
        nodePids: () => c.members.map((m) => m.child.pid!),
      });
    } finally {
      await c.stop();
      out.end();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    return figures.ok;
  });
  return figures;
}

const load = os.loadavg();
console.log(
  `Stream night: ${os.cpus().length} CPUs, load average ${load.map((l) => l.toFixed(2)).join(' ')}, ` +
    `server log level ${benchLogLevel ?? 'info (the default)'}`,
);
const columns: Array<[string, Figures]> = [];
if (!clusterOnly) columns.push(['one process', await oneProcess()]);
if (withCluster) columns.push([`cluster (Caddy + ${processes} processes + Redis)`, await cluster()]);
const names = columns[0]?.[1].rows.map(([k]) => k) ?? [];
const width = Math.max(...names.map((n) => n.length)) + 2;
const colWidth = Math.max(...columns.flatMap(([, f]) => f.rows.map(([, v]) => v.length)), 20) + 2;
console.log(`\n${''.padEnd(width)}${columns.map(([t]) => t.padEnd(colWidth)).join('')}`);
for (const [i, name] of names.entries()) {
  console.log(`${name.padEnd(width)}${columns.map(([, f]) => (f.rows[i]?.[1] ?? '').padEnd(colWidth)).join('')}`);
}
const after = os.loadavg();
console.log(`\nload average after: ${after.map((l) => l.toFixed(2)).join(' ')}`);
const allOk = columns.length > 0 && columns.every(([, f]) => f.ok);
console.log(allOk ? 'checks: all passed' : 'checks: FAILED (see NO above)');
process.exit(allOk ? 0 : 1);

/**
 * The visitors of bench/stream-night.ts, in a process of their own (the benchmark starts several):
 * each visitor does what a browser with an empty cache does on `/game/dealornodeal/{id}` — the
 * HTML, every asset the page loads (over its own keep-alive connections, at most 6 as a browser
 * opens, `Accept-Encoding: br, gzip`), the page's API reads, then the hub connection as the web
 * app makes it (socket.io-client, websocket transport, apps/web/src/lib/hub.ts) and `GetGameState`
 * — and stays connected as a spectator, noting every state frame it is pushed. Driven over IPC:
 *
 * - `{ type: 'start', base, gameId, paths, reads, visitors: [ms after startAt, …], startAt, timeoutMs,
 *   addressBlock? }` → `{ type: 'arrived', n }` once every visitor of this start has its first state
 *   (or failed); a process may be started again once it answered. With `addressBlock` each visitor
 *   connects from an address of its own, `127.<block>.x.y` (Linux answers the whole 127.0.0.0/8 on
 *   the loopback), so the server sees 1,000 visitors as 1,000 addresses, each with its own request
 *   budget, as a real link drop is; without it every visitor is 127.0.0.1;
 * - `{ type: 'report' }` → `{ type: 'report', … }`: first request → first state per visitor (ms),
 *   errors by kind, the frames per state version (count, last receipt time), per-socket order
 *   checks, and this process's CPU (ms);
 * - `{ type: 'close' }`.
 */
import http from 'node:http';
import { io, type Socket } from 'socket.io-client';

interface Start {
  type: 'start';
  base: string;
  gameId: string;
  /** Asset paths the page loads after its HTML (scripts, module preloads, styles, the route's chunks). */
  paths: string[];
  /** The page's API reads, after its scripts ran. */
  reads: string[];
  /** When each visitor of this process arrives, in ms after `startAt` (epoch ms). */
  visitors: number[];
  startAt: number;
  timeoutMs: number;
  /** The second octet of this process's visitors' own loopback addresses; absent: all 127.0.0.1. */
  addressBlock?: number;
}
type Command = Start | { type: 'report' } | { type: 'close' };

interface Spectator {
  socket: Socket;
  last: number;
}

const firstState: number[] = [];
const errors = new Map<string, number>();
/** version → [frames received, last receipt (epoch ms)] */
const frames = new Map<number, [number, number]>();
const spectators: Spectator[] = [];
let reordered = 0;
let skipped = 0;
let bytes = 0;
let settled = 0;
let expected = 0;

const fail = (kind: string) => errors.set(kind, (errors.get(kind) ?? 0) + 1);

/** Visitors this process started, across starts: each one's address is new (254 × 256 per block). */
let addressed = 0;
function ownAddress(block: number): string {
  const n = addressed++;
  return `127.${block}.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

/** One GET over the visitor's agent; resolves with the status once the body was read. */
function get(agent: http.Agent, url: URL, accept: string, timeoutMs: number): Promise<number> {
  // The web app's API calls carry its header (apps/web/src/lib/api.ts); the browser's own loads do not.
  const api = url.pathname.startsWith('/api/') ? { 'x-requested-with': 'kickback' } : {};
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { agent, headers: { accept, 'accept-encoding': 'br, gzip', 'user-agent': 'kickback-stream-night', ...api } },
      (res) => {
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function visit(start: Start): Promise<void> {
  const t0 = Date.now();
  const localAddress = start.addressBlock === undefined ? undefined : ownAddress(start.addressBlock);
  const from = localAddress === undefined ? {} : { localAddress };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6, ...from });
  const base = new URL(start.base);
  const page = new URL(`/game/dealornodeal/${start.gameId}`, base);
  const step = async (path: URL, accept: string, kind: string) => {
    try {
      const status = await get(agent, path, accept, start.timeoutMs);
      if (status !== 200) throw new Error(`HTTP ${status}`);
    } catch (err) {
      const { message, code } = err as Error & { code?: string };
      fail(`${kind} ${message === 'timeout' || message.startsWith('HTTP ') ? message : (code ?? 'error')}`);
      throw err;
    }
  };
  // Every request of a stage runs to its end (so each failure is counted once, not the requests
  // the agent's destruction would cut short); a failed stage ends the visit.
  const stage = async (paths: string[], accept: string, kind: string) => {
    const settled = await Promise.allSettled(paths.map((p) => step(new URL(p, base), accept, kind)));
    if (settled.some((r) => r.status === 'rejected')) throw new Error(`${kind} failed`);
  };
  try {
    await stage([page.pathname], 'text/html', 'html');
    await stage(start.paths, '*/*', 'asset');
    await stage(start.reads, 'application/json', 'api read');
  } catch {
    agent.destroy();
    return;
  }
  agent.destroy(); // the page's connections close; the hub's websocket is its own
  const socket = io(`${start.base}/DealOrNoDeal`, {
    transports: ['websocket'],
    query: { gameid: start.gameId },
    forceNew: true,
    reconnection: false,
    timeout: start.timeoutMs,
    ...from,
  });
  const me: Spectator = { socket, last: 0 };
  socket.on('GameStateChange', (state: { version: number }) => {
    const at = Date.now();
    const seen = frames.get(state.version);
    if (seen) {
      seen[0] += 1;
      seen[1] = at;
    } else frames.set(state.version, [1, at]);
    if (state.version < me.last) reordered += 1;
    else if (me.last > 0 && state.version > me.last + 1) skipped += state.version - me.last - 1;
    me.last = Math.max(me.last, state.version);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const answer = (await socket.timeout(start.timeoutMs).emitWithAck('GetGameState')) as {
      ok: boolean;
      data: { version: number } | null;
    };
    if (!answer.ok || !answer.data) throw new Error('no state');
    if (answer.data.version > me.last) me.last = answer.data.version;
    firstState.push(Date.now() - t0);
    spectators.push(me);
    socket.on('disconnect', () => fail('socket dropped'));
  } catch (err) {
    const message = (err as Error).message;
    fail(`socket ${/timed? ?out/i.test(message) ? 'timeout' : message}`);
    socket.disconnect();
  }
}

process.on('message', (command: Command) => {
  if (command.type === 'start') {
    // A later start (after the last one's `arrived`) counts its own visitors.
    settled = 0;
    expected = command.visitors.length;
    for (const at of command.visitors) {
      setTimeout(
        () =>
          void visit(command).finally(() => {
            if (++settled === expected) process.send!({ type: 'arrived', n: settled });
          }),
        Math.max(0, command.startAt + at - Date.now()),
      );
    }
    if (expected === 0) process.send!({ type: 'arrived', n: 0 });
  } else if (command.type === 'report') {
    const used = process.cpuUsage();
    process.send!({
      type: 'report',
      firstState,
      errors: Object.fromEntries(errors),
      frames: [...frames],
      lastVersions: spectators.filter((s) => s.socket.connected).map((s) => s.last),
      connected: spectators.filter((s) => s.socket.connected).length,
      reordered,
      skipped,
      bytes,
      cpuMs: (used.user + used.system) / 1000,
      rssMb: Math.round(process.memoryUsage.rss() / 1048576),
    });
  } else if (command.type === 'close') {
    for (const s of spectators) s.socket.disconnect();
    process.exit(0);
  }
});

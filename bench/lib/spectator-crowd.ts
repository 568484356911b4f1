/**
 * The spectators of bench/spectators.ts, in a process of their own (pinned to another core than the
 * server's with `--pin`): bare websockets speaking just enough Engine.IO v4 / Socket.IO v5, reading
 * only the version and time of each state frame. Driven by the parent over IPC:
 *
 * - `{ type: 'grow', url, target }` → `{ type: 'grown', connected, failed }`
 * - `{ type: 'expect', version }` → `{ type: 'got', latencies, missed, bytes }` once every connected
 *   spectator has that version (or 15 s passed): for each, its receipt time minus the frame's
 *   `serverTime` (the commit), in ms
 * - `{ type: 'cpu' }` → `{ type: 'cpu', ms }` (this process's CPU so far); `{ type: 'close' }`.
 */
import WebSocket from 'ws';

interface Frame {
  version: number;
  serverTime: number;
  at: number;
}

type Command =
  | { type: 'grow'; url: string; target: number }
  | { type: 'expect'; version: number }
  | { type: 'cpu' }
  | { type: 'close' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let waiting: { version: number; remaining: number; resolve: () => void } | null = null;
let lastBytes = 0;

class Spectator {
  private ws: WebSocket;
  connected = false;
  failed = false;
  latest: Frame | null = null;
  constructor(url: string) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('0')) {
        this.ws.send('40/SplitOrSteal,');
      } else if (text === '2') {
        this.ws.send('3');
      } else if (text.startsWith('40/SplitOrSteal')) {
        this.connected = true;
      } else if (text.startsWith('44/SplitOrSteal')) {
        this.failed = true;
      } else if (text.startsWith('42/SplitOrSteal,["ReceiveGameState"')) {
        const at = Date.now();
        const version = Number(/"version":(\d+)/.exec(text)?.[1]);
        const serverTime = Date.parse(/"serverTime":"([^"]+)"/.exec(text)?.[1] ?? '');
        this.latest = { version, serverTime, at };
        lastBytes = text.length;
        if (waiting && version >= waiting.version && --waiting.remaining === 0) waiting.resolve();
      }
    });
    this.ws.on('error', () => {
      this.failed = true;
    });
    this.ws.on('close', () => {
      this.connected = false;
    });
  }
  close() {
    this.ws.terminate();
  }
}

const spectators: Spectator[] = [];
const reply = (message: object) => process.send!(message);

async function grow(url: string, target: number) {
  while (spectators.length < target) {
    const fresh = Array.from({ length: Math.min(250, target - spectators.length) }, () => new Spectator(url));
    spectators.push(...fresh);
    const t0 = Date.now();
    while (fresh.some((s) => !s.connected && !s.failed) && Date.now() - t0 < 30_000) await sleep(20);
  }
  reply({
    type: 'grown',
    connected: spectators.filter((s) => s.connected).length,
    failed: spectators.filter((s) => s.failed).length,
  });
}

async function expectVersion(version: number) {
  const live = spectators.filter((s) => s.connected);
  const done = new Promise<void>((resolve) => {
    waiting = { version, remaining: live.filter((s) => !(s.latest && s.latest.version >= version)).length, resolve };
    if (waiting.remaining === 0) resolve();
  });
  await Promise.race([done, sleep(15_000)]);
  waiting = null;
  const frames = live.map((s) => s.latest).filter((f): f is Frame => f !== null && f.version >= version);
  reply({
    type: 'got',
    latencies: frames.map((f) => f.at - f.serverTime),
    missed: live.length - frames.length,
    bytes: lastBytes,
  });
}

process.on('message', (command: Command) => {
  if (command.type === 'grow') void grow(command.url, command.target);
  else if (command.type === 'expect') void expectVersion(command.version);
  else if (command.type === 'cpu') {
    const used = process.cpuUsage();
    reply({ type: 'cpu', ms: (used.user + used.system) / 1000 });
  } else if (command.type === 'close') {
    for (const s of spectators) s.close();
    process.exit(0);
  }
});

/**
 * The rolling-restart scenario (docs/operations.md#graceful-drain-and-rolling-restarts, "Several
 * processes, for real"), shared by the test (./rolling-restart.test.ts) and the benchmark
 * (bench/rolling-restart.ts). It drives the cluster from outside only: HTTP, hub sockets,
 * and SQL reads of the books.
 *
 * `npm run cluster`'s Cluster (scripts/cluster.ts: HAProxy with deploy/haproxy.cfg in front of N
 * processes) runs on a fresh PostgreSQL database and a Redis key prefix of its own. Under a steady
 * load, everything through the proxy —
 *
 * - purchases: `POST /api/Order/OrderProduct` at a fixed rate (open loop), round-robin over buyers;
 * - chat: signed Kick `chat.message.sent` webhook deliveries at a fixed rate (the processes trust
 *   a key pair made here); one answered other than 200 is sent again later, like Kick's retries;
 * - two live games played over and over through hub calls: Split or Steal (two players and a
 *   spectator) and Deal or No Deal (the owner and a spectator). Every hub client reconnects on the
 *   web client's schedule (apps/web/src/lib/hub.ts: 0, 2, 10, 30 s) and resyncs with
 *   GetGameState; the drivers act on the state they read, so a call whose answer was lost is not
 *   blindly repeated —
 *
 * each process is sent SIGTERM in turn, waits until it exited, is started again and counted in by
 * the proxy. Then the books are read from the database:
 *
 * - every acknowledged purchase is an order, exactly once (per buyer: orders = 200 answers), and
 *   every order has exactly one ledger debit;
 * - every acknowledged webhook's message is stored;
 * - the ledger invariant: each user's balance is the sum of their ledger rows and the newest row's
 *   balance_after (no double effect, no lost one);
 * - every game deadline fired within `deadlineBoundMs` of its time (observed by the clients: the
 *   server time of the first state that moved on, an upper bound of the real lateness);
 *
 * and the figures are reported: the longest client-visible gap (a hub client's disconnect to its
 * resync answer, and the longest purchase answer), requests that failed, and the restarts' timings.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import type { HubResult, HubSpec } from '@kickback/common/hubs/hub';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealHub, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { Cluster } from '../../../scripts/cluster';
import { devSignIn } from './dev-sign-in';
import { freePort, withDatabase } from './processes';

/** The web hub client's reconnect schedule (apps/web/src/lib/hub.ts RECONNECT_DELAYS_MS). */
const RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000];

export interface RollingRestartOptions {
  processes: number;
  /** A PostgreSQL URL with the right to create databases; a fresh one is made and dropped. */
  baseDatabaseUrl: string;
  redisUrl: string;
  /**
   * Through Caddy's HTTPS (the rehearsal's local CA). The load's clients then skip the certificate
   * check (NODE_TLS_REJECT_UNAUTHORIZED for this run: Node 20 has no per-process CA list to add to
   * after start); test/tls-front.test.ts checks the certificate itself.
   */
  tls?: boolean;
  /** How each server process is started (see Cluster). */
  command?: { argv: string[]; cwd: string };
  purchasesPerSecond: number;
  chatPerSecond: number;
  buyers: number;
  /** Load before the first restart and after the last. */
  steadyMs: number;
  timerSweepMs: number;
  drainMs: number;
  /** A deadline observed later than this after its time counts as late. */
  deadlineBoundMs: number;
  log?: (line: string) => void;
  /** Server and proxy output (default: dropped, kept for a failure report). */
  output?: (source: string, text: string) => void;
}

export interface RollingRestartReport {
  restarts: Array<{ downAfterMs: number; exitedAfterMs: number; backAfterMs: number }>;
  purchases: {
    acknowledged: number;
    failed: number;
    failures: string[];
    orders: number;
    orderLedgerRows: number;
    maxLatencyMs: number;
    p99LatencyMs: number;
    longestWithoutAckMs: number;
  };
  chat: { acknowledged: number; retried: number; stored: number; missing: number };
  games: {
    splitOrStealRounds: number;
    dealOrNoDealRounds: number;
    deadlines: number;
    maxLatenessMs: number;
    unfinished: string[];
  };
  hub: { disconnects: number; longestGapMs: number; laterAttempts: number; gaveUp: number };
  ledger: { users: number; mismatches: string[] };
  /** Every broken promise, in words; empty when the run kept them all. */
  violations: string[];
  durationMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A hub connection that behaves like the web's HubConnection: its reconnect schedule, a resync after. */
class LiveClient {
  readonly socket: Socket;
  disconnects = 0;
  gaps: number[] = [];
  gaveUp = false;
  /** Reconnects that needed more than the first (0 s) attempt. */
  laterAttempts = 0;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private lostAt: number | null = null;
  private closed = false;

  constructor(
    url: string,
    hub: HubSpec,
    gameId: string,
    cookie: string | undefined,
    private readonly onState: (state: unknown) => void,
    /** The HTTPS front's CA (socket.io-client checks certificates whatever the environment says). */
    ca?: string,
  ) {
    this.socket = io(`${url}${hub.namespace}`, {
      ...(ca ? { ca } : {}),
      transports: ['websocket'],
      query: { gameid: gameId },
      extraHeaders: cookie ? { cookie } : {},
      forceNew: true,
      reconnection: false, // the web's schedule, below
      timeout: 5000,
    });
    this.socket.onAny((_event: string, payload: unknown) => {
      if (payload && typeof payload === 'object' && 'version' in payload) this.onState(payload);
    });
    this.socket.on('disconnect', () => {
      if (this.closed) return;
      this.disconnects += 1;
      this.lostAt ??= Date.now();
      this.lost();
    });
    this.socket.on('connect_error', () => {
      if (!this.closed) this.lost();
    });
    this.socket.on('connect', () => {
      if (this.attempt > 1) this.laterAttempts += 1; // the 0 s retry did not get through
      this.attempt = 0;
      const lostAt = this.lostAt;
      if (lostAt === null) return;
      // Resync like the web does on every reconnect; the gap ends with its answer.
      void this.ask<unknown>('GetGameState').then((answer) => {
        if (answer?.ok && answer.data) this.onState(answer.data);
        this.gaps.push(Date.now() - lostAt);
        this.lostAt = null;
      });
    });
  }

  private lost(): void {
    if (this.retry) return;
    const delay = RECONNECT_DELAYS_MS[this.attempt];
    if (delay === undefined) {
      this.gaveUp = true;
      return;
    }
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) this.socket.connect();
    }, delay);
  }

  private ask<T>(name: string, ...payload: unknown[]): Promise<HubResult<T> | null> {
    return (this.socket.timeout(10_000).emitWithAck(name, ...payload) as Promise<HubResult<T>>).catch(() => null);
  }

  /** Waits for the connection (false after `ms`). */
  async connected(ms = 40_000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.socket.connected) {
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  }

  /** A call's data, its refusal (`{ refused }`), or null when the answer was lost (disconnect). */
  async call<T>(name: string, ...payload: unknown[]): Promise<{ data: T } | { refused: string } | null> {
    if (!(await this.connected())) return null;
    const answer = await this.ask<T>(name, ...payload);
    if (!answer) return null;
    if (answer.ok) {
      if (answer.data && typeof answer.data === 'object' && 'version' in answer.data) this.onState(answer.data);
      return { data: answer.data };
    }
    return { refused: answer.error };
  }

  /** The state, read again until an answer comes. */
  async state<T>(): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await this.call<T>('GetGameState');
      if (answer && 'data' in answer && answer.data) return answer.data;
      if (Date.now() > deadline) throw new Error('no game state for a minute');
      await sleep(100);
    }
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.socket.disconnect();
  }
}

/** The n-th SteamID64 of this run's people. */
function steamIdOf(n: number): string {
  return `7656119${String(8_900_000_000 + (process.pid % 10_000) * 1000 + n).padStart(10, '0')}`;
}

/** Polls `check` until it holds or `ms` passed. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(50);
}

/** Deadlines of one game as its clients saw them: each timed phase and when the state moved on. */
class DeadlineWatch {
  private readonly open = new Map<string, { endsAt: number; version: number }>();
  readonly lateness: number[] = [];

  observe(state: { version: number; phaseEndsAt: string | null; serverTime: string }): void {
    const at = Date.parse(state.serverTime);
    for (const [key, phase] of this.open) {
      if (state.version > phase.version && state.phaseEndsAt !== key) {
        this.open.delete(key);
        this.lateness.push(at - phase.endsAt);
      }
    }
    if (state.phaseEndsAt && !this.open.has(state.phaseEndsAt) && !this.closedKeys.has(state.phaseEndsAt)) {
      this.open.set(state.phaseEndsAt, { endsAt: Date.parse(state.phaseEndsAt), version: state.version });
      this.closedKeys.add(state.phaseEndsAt);
    }
  }

  private readonly closedKeys = new Set<string>();

  get pending(): number {
    return this.open.size;
  }
}

function kickDelivery(privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'], n: number, content: string) {
  const at = new Date();
  const messageId = `rr-${at.getTime().toString(36)}-${n}`;
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const user = (id: number, username: string, identity: object | null) => ({
    is_anonymous: false,
    user_id: id,
    username,
    is_verified: false,
    profile_picture: '',
    channel_slug: username,
    identity,
  });
  const body = JSON.stringify({
    message_id: `msg-${messageId}`,
    replies_to: null,
    broadcaster: user(1000001, 'vex', null),
    sender: user(30_000_000 + (n % 50), `rrchatter${n % 50}`, { username_color: '#53FC18', badges: [] }),
    content,
    emotes: [],
    created_at: timestamp,
  });
  const signature = sign('sha256', Buffer.from(`${messageId}.${timestamp}.${body}`), privateKey).toString('base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'kick-event-message-id': messageId,
      'kick-event-subscription-id': '01JROLLINGRESTART000000000',
      'kick-event-signature': signature,
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': 'chat.message.sent',
      'kick-event-version': '1',
    },
  };
}

export async function runRollingRestart(opts: RollingRestartOptions): Promise<RollingRestartReport> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const dbName = `kb_rr_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const prefix = `kbrr:${dbName}:`;
  const adminClient = async (text: string) => {
    const c = new pg.Client({ connectionString: opts.baseDatabaseUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  const databaseUrl = withDatabase(opts.baseDatabaseUrl, dbName);
  await adminClient(`CREATE DATABASE ${dbName}`);

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const output: string[] = [];
  const cluster = new Cluster({
    processes: opts.processes,
    port: await freePort(),
    tls: opts.tls ?? false,
    databaseUrl,
    redisUrl: opts.redisUrl,
    ...(opts.command ? { command: opts.command } : {}),
    output:
      opts.output ??
      ((source, text) => {
        output.push(`[${source}] ${text}`);
        if (output.length > 400) output.shift();
      }),
    env: {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
      REDIS_PREFIX: prefix,
      TIMER_SWEEP_MS: String(opts.timerSweepMs),
      DRAIN_MS: String(opts.drainMs),
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_RATE_LIMIT_PER_MINUTE: '1000000',
      LEADERBOARD_POLLER: '0',
      ADMIN_STEAM_IDS: steamIdOf(1), // the first person signed in below
      KICK_WEBHOOK_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  const database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  database.on('error', () => undefined); // the drop at the end ends its connections
  const clients: LiveClient[] = [];
  const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  if (opts.tls) process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  try {
    await cluster.start().catch((err: Error) => {
      // A process that exits while starting says why only in its output, kept here, not in the error.
      throw new Error(`${err.message}\nserver output (last lines):\n${output.join('')}`, { cause: err });
    });
    const ca = opts.tls ? readFileSync(cluster.caRoot, 'utf8') : undefined;
    log(`cluster up: ${cluster.url}, ${opts.processes} processes`);
    const base = cluster.url;

    let steam = 0;
    const person = async (name: string) => {
      steam += 1;
      const cookie = await devSignIn(base, steamIdOf(steam), name);
      const me = await fetch(`${base}/api/User/ping`, { headers: { cookie, 'x-requested-with': 'kickback' } });
      return { id: ((await me.json()) as { openId: string }).openId, cookie };
    };
    const http = async (path: string, cookie: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'x-requested-with': 'kickback',
          cookie,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: Record<string, unknown> | null = null;
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        json = { text: text.replace(/\s+/g, ' ').slice(0, 120) }; // the proxy's own error page
      }
      return { status: res.status, json: json ?? {} };
    };
    /** Setup and game creation: sent again until answered (nothing here is at stake). */
    const must = async (path: string, cookie: string, body?: unknown) => {
      for (let i = 0; ; i++) {
        const res = await http(path, cookie, body).catch(() => null);
        if (res && res.status === 200) return res.json;
        if (i > 50) throw new Error(`${path}: ${res ? `${res.status} ${JSON.stringify(res.json)}` : 'no answer'}`);
        await sleep(200);
      }
    };

    const host = await person('RollingHost'); // the first: ADMIN_STEAM_IDS names it
    const buyers = [];
    for (let i = 0; i < opts.buyers; i++) buyers.push({ ...(await person(`Buyer${i}`)), acked: 0 });
    for (const b of buyers) {
      await must(`/api/admin/users/${b.id}/balance`, host.cookie, {
        currency: 'points',
        amount: 1_000_000,
        reason: 'rolling restart',
      });
    }
    const product = await must('/api/admin/products', host.cookie, {
      name: 'Restart-proof mug',
      price: 3,
      category: 'Bench',
      stock: null,
    });
    const productId = product.id as number;
    const alice = await person('Alice');
    const bob = await person('Bob');
    const olive = await person('Olive');

    let stopping = false;
    const violations: string[] = [];

    // Purchases, open loop.
    const latencies: number[] = [];
    const purchaseFailures: string[] = [];
    let failed = 0;
    let lastAck = Date.now();
    let longestWithoutAck = 0;
    const inFlight = new Set<Promise<void>>();
    const purchases = (async () => {
      const every = 1000 / opts.purchasesPerSecond;
      let n = 0;
      const t0 = Date.now();
      while (!stopping) {
        const buyer = buyers[n % buyers.length]!;
        n += 1;
        const sent = Date.now();
        const p = http('/api/Order/OrderProduct', buyer.cookie, { productId }).then(
          (res) => {
            const now = Date.now();
            latencies.push(now - sent);
            if (res.status === 200) {
              buyer.acked += 1;
              longestWithoutAck = Math.max(longestWithoutAck, now - lastAck);
              lastAck = now;
            } else {
              failed += 1;
              purchaseFailures.push(`+${now - started} ms: HTTP ${res.status} ${JSON.stringify(res.json)}`);
            }
          },
          (err: unknown) => {
            failed += 1;
            const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
            purchaseFailures.push(
              `+${Date.now() - started} ms: ${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`,
            );
          },
        );
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
        await sleep(Math.max(0, t0 + n * every - Date.now()));
      }
    })();

    // Chat webhooks, open loop; what is not answered 200 is delivered again (Kick retries).
    const ackedChat = new Set<string>();
    let chatRetried = 0;
    const chatInFlight = new Set<Promise<void>>();
    const deliver = async (n: number, content: string): Promise<void> => {
      for (;;) {
        const d = kickDelivery(privateKey, n, content);
        const res = await fetch(`${base}/webhooks/kick`, { method: 'POST', headers: d.headers, body: d.body }).catch(
          () => null,
        );
        if (res) await res.arrayBuffer();
        if (res?.status === 200) {
          ackedChat.add(content);
          return;
        }
        chatRetried += 1;
        await sleep(500);
      }
    };
    const chat = (async () => {
      const every = 1000 / opts.chatPerSecond;
      let n = 0;
      const t0 = Date.now();
      while (!stopping) {
        n += 1;
        const p = deliver(n, `rolling restart message ${n} ${randomBytes(4).toString('hex')}`);
        chatInFlight.add(p);
        void p.finally(() => chatInFlight.delete(p));
        await sleep(Math.max(0, t0 + n * every - Date.now()));
      }
    })();

    // Split or Steal, round after round: two players and a spectator, every one of them on
    // whichever process the proxy picks.
    const watches: DeadlineWatch[] = [];
    const unfinished: string[] = [];
    let sosRounds = 0;
    const splitOrSteal = (async () => {
      while (!stopping) {
        const { gameId } = (await must('/api/SplitOrStealGame/create', host.cookie, {
          reward: 2,
          counterInSeconds: 5,
        })) as { gameId: string };
        const watch = new DeadlineWatch();
        watches.push(watch);
        const onState = (s: unknown) => watch.observe(s as SplitOrStealState);
        const a = new LiveClient(base, splitOrStealHub, gameId, alice.cookie, onState, ca);
        const b = new LiveClient(base, splitOrStealHub, gameId, bob.cookie, onState, ca);
        const spectator = new LiveClient(base, splitOrStealHub, gameId, undefined, onState, ca);
        clients.push(a, b, spectator);
        const roundEnds = Date.now() + 60_000;
        for (;;) {
          if (Date.now() > roundEnds) {
            unfinished.push(`Split or Steal ${gameId}`);
            break;
          }
          const s = await spectator.state<SplitOrStealState>();
          if (s.status === 4) break;
          if (s.status <= 2) {
            if (!s.player1) await a.call('JoinGame', 1);
            if (!s.player2) await b.call('JoinGame', 2);
          } else if (s.status === 3) {
            if (s.player1?.selection === null) await a.call('UpdateSelection', 1);
            if (s.player2?.selection === null) await b.call('UpdateSelection', 1);
          }
          await sleep(200);
        }
        await until(() => watch.pending === 0, 10_000);
        sosRounds += 1;
        for (const c of [a, b, spectator]) c.close();
      }
    })();

    // Deal or No Deal, round after round: the owner plays (a deal after the third offer), the win
    // screen's deadline ends each game.
    let dondRounds = 0;
    const dealOrNoDeal = (async () => {
      while (!stopping) {
        const { gameId } = (await must('/api/DealOrNoDeal/create', host.cookie, {
          playerUserId: olive.id,
          isPrivate: false,
          reward: 0,
          Amounts: [...DEFAULT_AMOUNTS],
        })) as { gameId: string };
        const watch = new DeadlineWatch();
        watches.push(watch);
        const onState = (s: unknown) => watch.observe(s as DealOrNoDealState);
        const owner = new LiveClient(base, dealOrNoDealHub, gameId, olive.cookie, onState, ca);
        const spectator = new LiveClient(base, dealOrNoDealHub, gameId, undefined, onState, ca);
        clients.push(owner, spectator);
        const roundEnds = Date.now() + 60_000;
        for (;;) {
          if (Date.now() > roundEnds) {
            unfinished.push(`Deal or No Deal ${gameId}`);
            break;
          }
          const s = await owner.state<DealOrNoDealState>();
          if (s.status === 0) break;
          if (s.status === 1) await owner.call('StartGame');
          else if (s.status === 2) await owner.call('SelectBox', 12);
          else if (s.status === 3) {
            const next = s.boxesInfo.find((box) => !box.isOpened && box.id !== s.primaryBoxId);
            if (next) await owner.call('SelectBox', next.id);
          } else if (s.status === 4) await owner.call('AnswerOffer', s.round >= 2);
          else if (s.status === 8) await owner.call('answerSwapOffer', false);
          await sleep(s.status === 6 ? 250 : 120);
        }
        await until(() => watch.pending === 0, 10_000);
        dondRounds += 1;
        for (const c of [owner, spectator]) c.close();
      }
    })();

    await sleep(opts.steadyMs);
    log('steady load running; restarting each process in turn');
    const restarts = [];
    for (let i = 0; i < opts.processes; i++) {
      const r = await cluster.restart(i);
      log(
        `  +${Date.now() - started} ms ${cluster.members[i]!.name}: out of rotation after ${r.downAfterMs} ms, exited after ${r.exitedAfterMs} ms, back after ${r.backAfterMs} ms`,
      );
      restarts.push(r);
    }
    await sleep(opts.steadyMs);
    stopping = true;
    log('load stopped; letting the games finish');
    await Promise.all([purchases, chat]);
    await Promise.all([...inFlight, ...chatInFlight]);
    await Promise.all([splitOrSteal, dealOrNoDeal]);

    // The books. Chat messages are recorded before the webhook answers; give stragglers no time.
    const q = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await database.query<T>(text, params)).rows;
    const ordersPerUser = new Map<string, number>();
    for (const row of await q<{ user_id: string; n: string }>(
      'SELECT user_id, count(*) AS n FROM orders GROUP BY user_id',
    )) {
      ordersPerUser.set(row.user_id, Number(row.n));
    }
    let acknowledged = 0;
    for (const b of buyers) {
      acknowledged += b.acked;
      const inDb = ordersPerUser.get(b.id) ?? 0;
      if (inDb !== b.acked) violations.push(`buyer ${b.id}: ${b.acked} purchases acknowledged, ${inDb} orders stored`);
    }
    const [orderRow] = await q<{ orders: string; entries: string; doubled: string }>(`
      SELECT (SELECT count(*) FROM orders) AS orders,
             (SELECT count(*) FROM ledger WHERE reason = 'order') AS entries,
             (SELECT count(*) FROM (SELECT reference FROM ledger WHERE reason = 'order' GROUP BY reference HAVING count(*) > 1) d) AS doubled`);
    const orders = Number(orderRow!.orders);
    const orderLedgerRows = Number(orderRow!.entries);
    if (orders !== orderLedgerRows)
      violations.push(`${orders} orders but ${orderLedgerRows} order debits in the ledger`);
    if (Number(orderRow!.doubled) > 0) violations.push(`${orderRow!.doubled} orders debited twice`);
    const [doubledWins] = await q<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT reference FROM ledger WHERE reason = 'game_win' GROUP BY reference HAVING count(*) > 1) d`,
    );
    if (Number(doubledWins!.n) > 0) violations.push(`${doubledWins!.n} game winnings paid twice`);

    const mismatches: string[] = [];
    const balances = await q<{ id: string; points: string; summed: string | null; newest: string | null }>(`
      SELECT u.id, u.points,
             (SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points') AS summed,
             (SELECT balance_after FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points' ORDER BY id DESC LIMIT 1) AS newest
      FROM users u`);
    for (const row of balances) {
      const points = Number(row.points);
      if (Number(row.summed ?? 0) !== points || (row.newest !== null && Number(row.newest) !== points)) {
        mismatches.push(
          `user ${row.id}: balance ${row.points}, ledger sum ${row.summed}, newest balance_after ${row.newest}`,
        );
      }
    }
    violations.push(...mismatches);

    const stored = new Set(
      (
        await q<{ content: string }>(`SELECT content FROM chat_messages WHERE content LIKE 'rolling restart message %'`)
      ).map((r) => r.content),
    );
    const missing = [...ackedChat].filter((c) => !stored.has(c));
    if (missing.length)
      violations.push(`${missing.length} acknowledged chat messages not stored (${missing.slice(0, 3).join('; ')})`);

    const lateness = watches.flatMap((w) => w.lateness);
    const maxLateness = lateness.length ? Math.max(...lateness) : 0;
    if (maxLateness > opts.deadlineBoundMs) {
      violations.push(`a game deadline fired ${maxLateness} ms late (bound ${opts.deadlineBoundMs} ms)`);
    }
    if (unfinished.length) violations.push(`games that did not finish: ${unfinished.join(', ')}`);
    if (sosRounds === 0 || dondRounds === 0) violations.push('a game never finished a round');

    const gaps = clients.flatMap((c) => c.gaps);
    const gaveUp = clients.filter((c) => c.gaveUp).length;
    if (gaveUp) violations.push(`${gaveUp} hub clients ran out of reconnect attempts`);
    const sorted = [...latencies].sort((x, y) => x - y);

    const report: RollingRestartReport = {
      restarts,
      purchases: {
        acknowledged,
        failed,
        failures: purchaseFailures.slice(0, 10),
        orders,
        orderLedgerRows,
        maxLatencyMs: sorted.at(-1) ?? 0,
        p99LatencyMs: percentile(sorted, 99),
        longestWithoutAckMs: longestWithoutAck,
      },
      chat: { acknowledged: ackedChat.size, retried: chatRetried, stored: stored.size, missing: missing.length },
      games: {
        splitOrStealRounds: sosRounds,
        dealOrNoDealRounds: dondRounds,
        deadlines: lateness.length,
        maxLatenessMs: maxLateness,
        unfinished,
      },
      hub: {
        disconnects: clients.reduce((n, c) => n + c.disconnects, 0),
        longestGapMs: gaps.length ? Math.max(...gaps) : 0,
        laterAttempts: clients.reduce((n, c) => n + c.laterAttempts, 0),
        gaveUp,
      },
      ledger: { users: balances.length, mismatches },
      violations,
      durationMs: Date.now() - started,
    };
    if (violations.length) log(`server output (last lines):\n${output.join('')}`);
    return report;
  } finally {
    if (opts.tls) {
      if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
    }
    for (const c of clients) c.close();
    await cluster.stop().catch(() => undefined);
    await database.end().catch(() => undefined);
    await adminClient(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    const redis = new Redis(opts.redisUrl);
    const keys = await redis.keys(`${prefix}*`).catch(() => [] as string[]);
    if (keys.length) await redis.del(...keys).catch(() => undefined);
    redis.disconnect();
  }
}

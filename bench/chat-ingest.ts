/**
 * `npm run bench -- chat-ingest [--rate 5000] [--seconds 60] [--burst-rate 20000] [--burst-seconds 10]
 *   [--chatters 10000] [--bettors 300] [--bet-share 0.05] [--dup-share 0.05] [--connections 16]
 *   [--warm-up-seconds 3] [--bare-seconds 5] [--features [--filter-share 0.1] [--command-share 0.01]]`
 * (`npm run build` first; `--pg-only` / `--pglite-only`; a short run: `--seconds 5 --burst-seconds 2`;
 * `--profile <dir>`: the server's V8 CPU profile)
 *
 * Kick chat through the real webhook route: the built server runs as its own process (on a fresh
 * PostgreSQL database — BENCH_DATABASE_URL, else the local server when one answers — and on a fresh
 * in-memory PGlite) trusting a key pair made here (KICK_WEBHOOK_PUBLIC_KEY), and receives signed
 * `chat.message.sent` deliveries exactly as Kick sends them: plain chat from 10,000 distinct
 * chatters, `!bet` commands from chatters linked (through `!verify`) to site users with points, and
 * redeliveries of earlier deliveries. Two phases, each offered open-loop at a fixed rate (latency
 * counts from the moment a delivery was due, so a slow server cannot hide its queue):
 *
 * - sustained: `--rate` messages/s for `--seconds` (target 5,000/s for 60 s, p99 < 50 ms);
 * - burst: `--burst-rate` for `--burst-seconds` (target 20,000/s for 10 s absorbed without loss).
 *
 * A delivery's answer comes once its message is durably recorded and processed (a bet committed),
 * so the answer time is the time from delivery to the bet being committed. A bettor's next bet is
 * sent only once the previous one is answered (Kick's order within one chatter), and a redelivery
 * answered "try again" (503) is sent again like Kick's retry. Every answer is checked (200, and each
 * message answered "processed" once, its redeliveries "duplicate"). Afterwards it checks the books through
 * each bettor's My activity: every bet sent was committed exactly once, in the order sent (the n-th
 * bet of a user stakes n points, so the ledger must read -1, -2, -3, …).
 *
 * After the phases, a bare Fastify is loaded for `--bare-seconds` (lib/bare-request-cpu.ts): the
 * server's CPU per message of the sustained phase is printed as a multiple of that bare request's
 * CPU (target ≤ 5×), beside the rate it carried and the ceiling that CPU per message sets for one
 * process on one core.
 *
 * `--features`: after the sustained phase, the admin sets up 20 custom commands, 5 timers and every
 * moderation filter through the admin API, and a second sustained phase sends the same mix (a share
 * of plain chat breaking a filter, a share using a command: plain chat in the first phase); its
 * server CPU per message is printed as a multiple of the first's (target ≤ 1.2×), and its p99 is
 * held to the sustained target.
 *
 * Signing costs ~0.7 ms of RSA per delivery, so deliveries are signed before each phase by worker
 * threads (not measured), and each delivery's whole HTTP request is built then; the sender writes
 * those bytes, pipelined, over `--connections` keep-alive sockets and reads only the status line,
 * Content-Length and body of the answers (lib/pipelined-client.ts), so it takes as little as it can of
 * the cores it measures.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
import { bareRequestCpuMs } from './lib/bare-request-cpu';
import { PipelinedClient } from './lib/pipelined-client';
import { cpuSnapshot, cpuSpent, startServer, stopServer, withFreshPgDatabase } from './lib/server-process';
import { freePort, signIn } from './lib/site';
import { printFigures, summarise } from './lib/stats';

const ADMIN_STEAM_ID = '76561199999999001'; // the dev provider's demo admin
const START_POINTS = 1_000_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const rate = arg('rate', 5000);
const seconds = arg('seconds', 60);
const burstRate = arg('burst-rate', 20_000);
const burstSeconds = arg('burst-seconds', 10);
const chatterCount = arg('chatters', 10_000);
const bettorCount = Math.min(arg('bettors', 300), chatterCount);
const betShare = arg('bet-share', 0.05);
const dupShare = arg('dup-share', 0.05);
/** Keep-alive sockets the deliveries are pipelined over. */
const connections = arg('connections', 16);
/** Seconds at `--rate` before the measured phases (1,000 messages at 1,000/s before 2026-11-27 14:10). */
const warmUpSeconds = arg('warm-up-seconds', 3);
const poolSize = arg('pool', 10);
const TARGET = { rate: 5000, p99: 50, burstRate: 20_000, bareRatio: 5 };
/** Seconds of load on a bare Fastify after the phases: the CPU of one bare request, this run's yardstick. */
const bareSeconds = arg('bare-seconds', 5);
/**
 * `--features`: a second sustained phase in the same run with 20 custom commands, 5 timers and every
 * moderation filter on (set up through the admin API), its CPU per message set against the first's
 * (target ≤ 1.2×). Both phases send the same mix: `--filter-share` of plain chat breaks a filter (a
 * banned word) and `--command-share` uses a custom command, plain chat while they are off.
 */
const features = process.argv.includes('--features');
const filterShare = features ? arg('filter-share', 0.1) : 0;
const commandShare = features ? arg('command-share', 0.01) : 0;
const FEATURES_TARGET = 1.2;
const CUSTOM_COMMANDS = 20;
const TIMERS = 5;
const BANNED_WORD = 'benchspamword';
/** `--profile <dir>`: the server writes a V8 CPU profile there when it stops. */
const profileDir = (() => {
  const i = process.argv.indexOf('--profile');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

const { publicPem, privatePem } = benchKickKeys();
const signAll = (items: Unsigned[]) => signDeliveries(items, privatePem);

/** A full garbage collection of this process, now. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** A deterministic generator, so two runs (before and after a change) send the same mix. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Bettor {
  chatter: number;
  cookie: string;
  id: string;
  /** Bets sent so far; the n-th stakes n points. */
  bets: number;
  /** A delivery of this bettor's is on its way: the next waits for its answer (Kick's order). */
  busy: boolean;
  /** Deliveries due meanwhile, in order (indexes into the phase's plan). */
  waiting: number[];
}

interface Planned {
  at: number;
  req: Buffer;
  bettor: Bettor | null;
  duplicate: boolean;
  /** The chat message it carries (a redelivery carries an earlier delivery's). */
  message: number;
}

async function plan(
  port: number,
  count: number,
  perSecond: number,
  bettors: Bettor[],
  random: () => number,
): Promise<Planned[]> {
  const now = new Date();
  const unsigned: Unsigned[] = [];
  const kinds: Array<{ bettor: Bettor | null; dupOf: number | null }> = [];
  const originalBettor: Array<Bettor | null> = [];
  let nextBettor = 0;
  for (let i = 0; i < count; i++) {
    const r = random();
    if (i > 10 && r < dupShare) {
      // A redelivery of one of the last few hundred deliveries (Kick retries within seconds).
      const back = 1 + Math.floor(random() * Math.min(300, unsigned.length));
      const dupOf = unsigned.length - back;
      // A bet's redelivery follows its original (Kick redelivers what it delivered).
      kinds.push({ bettor: originalBettor[dupOf] ?? null, dupOf });
      continue;
    }
    if (r < dupShare + betShare && bettors.length > 0) {
      const bettor = bettors[nextBettor++ % bettors.length]!;
      bettor.bets += 1;
      unsigned.push(unsignedChat(bettor.chatter, `!bet ${1 + (bettor.chatter % 2)} ${bettor.bets}`, now));
      originalBettor.push(bettor);
      kinds.push({ bettor, dupOf: null });
      continue;
    }
    const chatter = Math.floor(random() * chatterCount);
    const extra = features ? random() : 1;
    const content =
      extra < filterShare
        ? `gg ${i} ${BANNED_WORD} lets go`
        : extra < filterShare + commandShare
          ? `!benchcmd${i % CUSTOM_COMMANDS}`
          : `gg ${i} ${chatter % 7 === 0 ? 'what a pull' : 'lets go'}`;
    unsigned.push(unsignedChat(chatter, content, now));
    originalBettor.push(null);
    kinds.push({ bettor: null, dupOf: null });
  }
  const signatures = await signAll(unsigned);
  const reqs = unsigned.map((u, k) => request(port, u, signatures[k]!));
  let original = 0;
  return kinds.map((k, i) => {
    const at = (i * 1000) / perSecond;
    if (k.dupOf !== null) return { at, req: reqs[k.dupOf]!, bettor: k.bettor, duplicate: true, message: k.dupOf };
    const message = original++;
    return { at, req: reqs[message]!, bettor: k.bettor, duplicate: false, message };
  });
}

interface PhaseResult {
  sent: number;
  seconds: number;
  latencies: number[];
  betLatencies: number[];
  /** Answer times grouped by the second of the phase the delivery was due in. */
  bySecond: number[][];
  failed: number;
  retried: number;
  /** Messages not answered "processed" exactly once over their deliveries (the rest "duplicate"). */
  miscounted: number;
  /** The failed answers, by status and the start of the body. */
  failures: Map<string, number>;
}

const PROCESSED = Buffer.from('{"ok":true}');
const DUPLICATE = Buffer.from('{"ok":true,"duplicate":true}');

/**
 * Offers the planned deliveries open-loop at their due times over a few pipelined keep-alive
 * sockets (lib/pipelined-client.ts); resolves once all are answered. A timer wakes when the next
 * delivery is due and writes every delivery due by then. A bettor's delivery waits for the answer
 * to the bettor's previous one (Kick's order within a chatter); latency still counts from when it
 * was due. A 503 ("being processed elsewhere") or a lost connection is sent again after 50 ms, as
 * Kick retries. Each answer is checked: 200 with `{"ok":true}` (processed) or
 * `{"ok":true,"duplicate":true}`, and every message processed exactly once over its deliveries.
 */
function offer(port: number, sockets: number, planned: Planned[]): Promise<PhaseResult> {
  const n = planned.length;
  const latencies = new Float64Array(n);
  const attempts = new Uint8Array(n);
  const processedOnce = new Uint16Array(n);
  let answered = 0;
  let failed = 0;
  let retried = 0;
  const failures = new Map<string, number>();
  const fail = (status: number, body: Buffer) => {
    failed += 1;
    const key = `${status} ${body.toString('utf8', 0, Math.min(body.length, 80))}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  };
  let next = 0;
  let started = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));

  const send = (i: number) => client.send(planned[i]!.req, i);
  const settle = (i: number) => {
    const p = planned[i]!;
    latencies[i] = performance.now() - started - p.at;
    answered += 1;
    const b = p.bettor;
    if (b) {
      const following = b.waiting.shift();
      if (following === undefined) b.busy = false;
      else send(following);
    }
    if (answered === n) done();
  };
  const client = new PipelinedClient(port, sockets, (i, status, body) => {
    if (status === 200) {
      if (body.equals(PROCESSED)) processedOnce[planned[i]!.message]! += 1;
      else if (!body.equals(DUPLICATE)) fail(status, body);
      settle(i);
    } else if ((status === 503 || status === 0) && attempts[i]! < 20) {
      attempts[i]! += 1;
      retried += 1;
      setTimeout(() => send(i), 50);
    } else {
      fail(status, body);
      settle(i);
    }
  });
  const tick = () => {
    const now = performance.now() - started;
    while (next < n && planned[next]!.at <= now) {
      const i = next++;
      const b = planned[i]!.bettor;
      if (!b) send(i);
      else if (b.busy) b.waiting.push(i);
      else {
        b.busy = true;
        send(i);
      }
    }
    if (next < n) setTimeout(tick, Math.max(0, planned[next]!.at - (performance.now() - started)));
  };
  started = performance.now();
  tick();
  return finished.then(() => {
    const seconds = (performance.now() - started) / 1000;
    client.close();
    const all: number[] = [];
    const bets: number[] = [];
    const bySecond: number[][] = [];
    const messages = new Set<number>();
    for (let i = 0; i < n; i++) {
      const p = planned[i]!;
      all.push(latencies[i]!);
      (bySecond[Math.floor(p.at / 1000)] ??= []).push(latencies[i]!);
      if (p.bettor && !p.duplicate) bets.push(latencies[i]!);
      messages.add(p.message);
    }
    let miscounted = 0;
    for (const m of messages) if (processedOnce[m] !== 1) miscounted += 1;
    return { sent: n, seconds, latencies: all, betLatencies: bets, bySecond, failed, retried, miscounted, failures };
  });
}

/**
 * `--features`: what a busy channel runs beside its chat, set up as a moderator does, through the
 * admin API: 20 custom commands, 5 timers (one a minute) and every moderation filter on, acting by
 * deleting (no warning first).
 */
async function setUpFeatures(base: string, admin: string): Promise<void> {
  const must = async (what: string, r: Promise<{ status: number; json: unknown }>) => {
    const { status, json } = await r;
    if (status !== 200) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`);
  };
  for (let k = 0; k < CUSTOM_COMMANDS; k++) {
    await must(
      `command ${k}`,
      call(base, '/api/admin/commands', admin, {
        name: `benchcmd${k}`,
        aliases: [`bc${k}`],
        response: `{user} command ${k} answers`,
        userCooldownSeconds: 0,
        globalCooldownSeconds: 0,
        permission: 'everyone',
        liveOnly: false,
        cost: 0,
        enabled: true,
      }),
    );
  }
  for (let k = 0; k < TIMERS; k++) {
    await must(
      `timer ${k}`,
      call(base, '/api/admin/commands/timers', admin, {
        name: `Bench timer ${k}`,
        message: `Timer ${k}: follow the channel`,
        intervalMinutes: 1,
        minLines: 10,
        liveOnly: false,
        enabled: true,
      }),
    );
  }
  const on = { enabled: true, action: 'delete', timeoutMinutes: 10, warnFirst: false };
  await must(
    'moderation filters',
    call(
      base,
      '/api/admin/moderation',
      admin,
      {
        links: { ...on, allowedDomains: ['kick.com'], permitSeconds: 60 },
        caps: { ...on, minLetters: 10, maxPercent: 70 },
        repeatedChars: { ...on, maxRun: 10 },
        repeatedMessages: { ...on, maxRepeats: 2, windowSeconds: 60 },
        length: { ...on, maxLength: 400 },
        emotes: { ...on, maxEmotes: 10 },
        bannedWords: { ...on, words: [BANNED_WORD, 'scamlink', 'freecoins'] },
        regex: { ...on, patterns: ['free\\s+coins\\d+', '^buy followers'] },
        immunity: { badges: ['og'] },
      },
      'PUT',
    ),
  );
}

async function run(label: string, databaseUrl: string | null): Promise<boolean> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(
    port,
    databaseUrl,
    {
      KICK_WEBHOOK_PUBLIC_KEY: publicPem,
      DATABASE_POOL_SIZE: String(poolSize),
      // All deliveries come from one address; the webhook's own budget (120,000 a minute by
      // default) would answer 429 to a run faster than 2,000/s over a minute.
      WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000000',
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const client = new KeepAliveClient(port, 20); // the set-up's !verify deliveries
  try {
    const admin = await signIn(base, ADMIN_STEAM_ID, 'StreamerAdmin', { demo: true });
    // Bettors: site users who linked their Kick account with `!verify` in chat, with points.
    const bettors: Bettor[] = [];
    await inBatches(
      Array.from({ length: bettorCount }, (_, i) => i),
      20,
      async (i) => {
        const { cookie, id } = await linkChatter({
          base,
          port,
          admin,
          client,
          chatter: i,
          points: START_POINTS,
          privatePem,
        });
        bettors[i] = { chatter: i, cookie, id, bets: 0, busy: false, waiting: [] };
      },
    );
    // Not kept idle through the phases: once, an idle one got an answer with no request waiting.
    client.close();
    const opened = await call(base, '/api/predictions', admin, {
      question: 'Does the bonus pay over 100x?',
      answers: [
        { text: 'Yes', color: '#22c55e' },
        { text: 'No', color: '#ef4444' },
      ],
    });
    if (opened.status !== 200) throw new Error(`open prediction: HTTP ${opened.status}`);

    const random = lcg(42);
    // Warm-up, not measured: the sustained rate for a few seconds right before the sustained phase
    // (planned first, so its bets come first in each bettor's order), so the figures are those of a
    // running server — the JIT, the pool's connections and PostgreSQL's plans warm — and not of one
    // that sat idle while the phase was being signed.
    const warmUp = await plan(port, Math.round(rate * warmUpSeconds), rate, bettors, random);

    const figures: Record<string, string | number> = {};
    let targetsMet = true;
    let sustained = { serverCpuMs: 0, throughput: 0 };
    let withFeatures = { serverCpuMs: 0, throughput: 0 };
    const phase = async (
      name: string,
      perSecond: number,
      duration: number,
      target: 'sustained' | 'burst',
      warm: Planned[] = [],
    ): Promise<{ serverCpuMs: number; throughput: number }> => {
      const planned = await plan(port, Math.round(perSecond * duration), perSecond, bettors, random);
      // The plan's garbage (signing, 100,000s of requests) collected before the clock starts, not
      // in the sender's first seconds; and the sender's own stalls reported beside the figures.
      collectGarbage();
      if (warm.length > 0) await offer(port, connections, warm);
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      const before = await cpuSnapshot(server.pid!, databaseUrl);
      figures[`${name}: started at`] = new Date().toISOString(); // to set beside PostgreSQL's log
      const r = await offer(port, connections, planned);
      loopDelay.disable();
      const cpu = cpuSpent(before, await cpuSnapshot(server.pid!, databaseUrl));
      const all = summarise(r.latencies);
      const bets = summarise(r.betLatencies);
      const throughput = r.sent / r.seconds;
      const per = (ms: number) => (ms / r.sent).toFixed(3);
      figures[`${name}: offered`] = `${perSecond}/s for ${duration} s (${r.sent} deliveries)`;
      figures[`${name}: messages/s`] = throughput;
      figures[`${name}: answer p50/p99/max`] =
        `${all.p50.toFixed(1)} / ${all.p99.toFixed(1)} / ${all.max.toFixed(0)} ms`;
      figures[`${name}: bet p99 (committed)`] = `${bets.p99.toFixed(1)} ms over ${bets.count} bets`;
      // Where the tail is: a warm-up, a few stalls, or a queue that grows.
      figures[`${name}: p99 by second (ms)`] = r.bySecond.map((l) => summarise(l).p99.toFixed(0)).join(' ');
      figures[`${name}: failed / retried`] = `${r.failed} / ${r.retried}`;
      figures[`${name}: sender's loop delay max`] = `${(loopDelay.max / 1e6).toFixed(0)} ms`;
      if (r.failed > 0) {
        const top = [...r.failures].sort((x, y) => y[1] - x[1]).slice(0, 3);
        figures[`${name}: failed answers`] = top.map(([k, count]) => `${count}× ${k}`).join('; ');
      }
      figures[`${name}: answers`] =
        r.miscounted === 0
          ? 'every message answered "processed" once, its redeliveries "duplicate"'
          : `WRONG: ${r.miscounted} messages not answered "processed" exactly once`;
      figures[`${name}: CPU ms per message`] =
        `server ${per(cpu.server)}${databaseUrl ? `, postgres ${per(cpu.postgres)}` : ''}, client ${per(cpu.client)}`;
      if (target === 'sustained') {
        const met =
          throughput >= perSecond * 0.98 &&
          all.p99 < TARGET.p99 &&
          bets.p99 < TARGET.p99 &&
          r.failed === 0 &&
          r.miscounted === 0;
        targetsMet &&= met;
        figures[`${name}: target`] =
          `${perSecond}/s sustained, p99 < ${TARGET.p99} ms: ${met ? 'met' : 'NOT met'}` +
          (perSecond < TARGET.rate || duration < 60 ? ` (short run; the target is ${TARGET.rate}/s for 60 s)` : '');
      } else {
        const met = r.failed === 0 && r.miscounted === 0;
        targetsMet &&= met;
        figures[`${name}: target`] =
          `absorbed without loss: ${met ? 'yes' : 'NO'}, drained in ${r.seconds.toFixed(1)} s` +
          (perSecond < TARGET.burstRate ? ` (short run; the target is ${TARGET.burstRate}/s for 10 s)` : '');
      }
      return { serverCpuMs: cpu.server / r.sent, throughput };
    };
    sustained = await phase('sustained', rate, seconds, 'sustained', warmUp);
    if (features) {
      // The same mix again once the admin has set up the commands, timers and filters.
      await setUpFeatures(base, admin);
      const warm = await plan(port, Math.round(rate * warmUpSeconds), rate, bettors, random);
      withFeatures = await phase('sustained, features on', rate, seconds, 'sustained', warm);
      const ratio = withFeatures.serverCpuMs / sustained.serverCpuMs;
      const met = ratio <= FEATURES_TARGET;
      targetsMet &&= met;
      figures['features on ÷ off (server CPU per message)'] =
        `${ratio.toFixed(2)}× (${CUSTOM_COMMANDS} commands, ${TIMERS} timers, every filter on; ` +
        `${Math.round(filterShare * 100)} % of messages break a filter, ${Math.round(commandShare * 100)} % use a command; ` +
        `target ≤ ${FEATURES_TARGET}×: ${met ? 'met' : 'NOT met'})`;
    }
    await phase('burst', burstRate, burstSeconds, 'burst');

    // The yardstick of this run: the CPU of a bare Fastify request, then the ratio and the ceiling
    // one process's core sets at this run's CPU per message (the database's CPU apart).
    if (bareSeconds > 0) {
      const bare = await bareRequestCpuMs(bareSeconds, 64);
      const ratio = sustained.serverCpuMs / bare.cpuMsPerRequest;
      const ratioMet = ratio <= TARGET.bareRatio;
      targetsMet &&= ratioMet;
      figures['bare Fastify request CPU'] =
        `${(bare.cpuMsPerRequest * 1000).toFixed(1)} µs (${bare.requestsPerSecond.toFixed(0)} req/s, ${bareSeconds} s, same run)`;
      figures['server CPU per message ÷ bare request'] =
        `${ratio.toFixed(1)}× (target ≤ ${TARGET.bareRatio}×: ${ratioMet ? 'met' : 'NOT met'})`;
      figures['sustained rate vs ceiling'] =
        `${sustained.throughput.toFixed(0)} messages/s carried; one core at ${sustained.serverCpuMs.toFixed(3)} ms per message caps a process at ${(1000 / sustained.serverCpuMs).toFixed(0)}/s`;
    }

    // The books, through each bettor's My activity: every bet once, in the order sent. The pages
    // (newest first) are read one after another while the server may still write a bettor's
    // ledger — chat points are credited by a flush every few seconds — and an entry written between
    // two pages moves every older one a place down, so the next page begins with the entry that
    // ended the one before. Entries are therefore kept by their id: an entry read twice is one
    // entry (before, such a re-read was reported as a bet committed twice).
    let wrong = 0;
    let committed = 0;
    let reread = 0;
    const example: string[] = [];
    await inBatches(bettors, 20, async (b) => {
      const entries = new Map<number, number>();
      for (let page = 1; ; page++) {
        const { json } = await call<{ items: Array<{ id: number; delta: number; reason: string }>; pageSize: number }>(
          base,
          `/api/me/activity?page=${page}`,
          b.cookie,
        );
        for (const e of json.items) {
          if (e.reason !== 'prediction_bet') continue;
          if (entries.has(e.id)) reread += 1;
          entries.set(e.id, e.delta);
        }
        if (json.items.length < json.pageSize) break;
      }
      const deltas = [...entries].sort((x, y) => x[0] - y[0]).map(([id, delta]) => ({ id, delta }));
      committed += deltas.length;
      const expected = Array.from({ length: b.bets }, (_, k) => -(k + 1));
      const got = deltas.map((d) => d.delta);
      if (got.join() !== expected.join()) {
        wrong += 1;
        if (example.length < 3)
          example.push(`bettor${b.chatter}: sent ${b.bets}, ledger [${got.slice(0, 12).join(', ')}]`);
      }
    });
    const sentBets = bettors.reduce((s, b) => s + b.bets, 0);
    figures.books =
      wrong === 0
        ? `every bet committed once, in order (${committed} bets from ${bettors.length} bettors)`
        : `WRONG: ${wrong} bettors off (${committed} committed for ${sentBets} sent; ${example.join('; ')})`;
    if (reread > 0)
      figures['books: bets read twice across pages'] = `${reread} (a newer entry moved the pages; counted once)`;
    printFigures(
      `${label}: signed Kick deliveries over HTTP, ${chatterCount} chatters, ${bettors.length} bettors, ` +
        `${Math.round(betShare * 100)} % bets, ${Math.round(dupShare * 100)} % redeliveries`,
      figures,
    );
    return wrong === 0 && targetsMet;
  } finally {
    client.close();
    await stopServer(server);
  }
}

const only = process.argv.includes('--pg-only') ? 'pg' : process.argv.includes('--pglite-only') ? 'pglite' : 'both';
let ok = true;

if (only !== 'pglite') {
  ok = (await withFreshPgDatabase((url) => run(`PostgreSQL (fresh database, pool ${poolSize})`, url))) && ok;
}
if (only !== 'pg') ok = (await run('PGlite (in memory)', null)) && ok;
if (!ok) process.exitCode = 1;

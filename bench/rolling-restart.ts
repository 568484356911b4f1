/**
 * `npm run bench -- rolling-restart [--processes 3] [--purchases 40] [--chat 20] [--buyers 8]
 *   [--steady 5] [--drain 5000] [--sweep 1000]` (`npm run build` first; needs caddy, PostgreSQL
 * and Redis: BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres; BENCH_REDIS_URL,
 * else redis://127.0.0.1:6379)
 *
 * A rolling restart behind Caddy (apps/server/test/rolling-restart.ts, the scenario the
 * rolling-restart test runs with two processes): the built server as `--processes` processes
 * behind deploy/Caddyfile on a fresh PostgreSQL database, under `--purchases` purchases/s,
 * `--chat` signed Kick chat deliveries/s and two live games (Split or Steal, Deal or No Deal)
 * played through hub calls; each process gets SIGTERM in turn (drains for `--drain` ms), exits,
 * starts again and is counted in by the proxy. Prints the restarts' timings, the longest
 * client-visible gap (hub reconnect to resync, longest purchase answer, longest stretch without an
 * acknowledged purchase), deadline lateness, and the checks of the books; exits 1 when a check fails.
 */
import { builtServer } from '../apps/server/test/processes';
import { runRollingRestart } from '../apps/server/test/rolling-restart';
import { printFigures } from './lib/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}

const processes = arg('processes', 3);
const sweep = arg('sweep', 1000);

const report = await runRollingRestart({
  processes,
  baseDatabaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  command: builtServer(undefined, ['--enable-source-maps']),
  purchasesPerSecond: arg('purchases', 40),
  chatPerSecond: arg('chat', 20),
  buyers: arg('buyers', 8),
  steadyMs: arg('steady', 5) * 1000,
  timerSweepMs: sweep,
  drainMs: arg('drain', 5000),
  deadlineBoundMs: sweep + 3000,
  log: (line) => console.log(line),
});

report.restarts.forEach((r, i) =>
  printFigures(`Restart of app${i + 1}`, {
    'out of rotation after (ms)': r.downAfterMs,
    'exited after (ms)': r.exitedAfterMs,
    'back in rotation after (ms)': r.backAfterMs,
  }),
);
printFigures('Client-visible gaps', {
  'hub: longest gap (ms)': report.hub.longestGapMs,
  'hub: disconnects': report.hub.disconnects,
  'hub: 0 s retry failed': report.hub.laterAttempts,
  'hub: clients that gave up': report.hub.gaveUp,
  'purchase: longest answer (ms)': report.purchases.maxLatencyMs,
  'purchase: p99 answer (ms)': report.purchases.p99LatencyMs,
  'longest without an ack (ms)': report.purchases.longestWithoutAckMs,
});
printFigures('Purchases', {
  acknowledged: report.purchases.acknowledged,
  'failed (not acknowledged)': report.purchases.failed,
  'orders in the database': report.purchases.orders,
  'order debits in the ledger': report.purchases.orderLedgerRows,
});
printFigures('Chat (Kick webhooks)', {
  acknowledged: report.chat.acknowledged,
  'sent again (not 200)': report.chat.retried,
  stored: report.chat.stored,
  'acknowledged, not stored': report.chat.missing,
});
printFigures('Games', {
  'Split or Steal rounds': report.games.splitOrStealRounds,
  'Deal or No Deal rounds': report.games.dealOrNoDealRounds,
  'deadlines observed': report.games.deadlines,
  'latest deadline (ms late)': report.games.maxLatenessMs,
});
printFigures('Ledger', { users: report.ledger.users, 'balance ≠ ledger': report.ledger.mismatches.length });
for (const f of report.purchases.failures) console.log(`  failed purchase: ${f}`);
console.log(
  report.violations.length
    ? `\nFAILED:\n${report.violations.map((v) => `  - ${v}`).join('\n')}`
    : `\nAll checks passed (${(report.durationMs / 1000).toFixed(0)} s).`,
);
process.exit(report.violations.length || report.purchases.failed ? 1 : 0);

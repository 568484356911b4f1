/**
 * One autocannon run in a process of its own, so that the generator's CPU is measured apart from
 * the server's: `tsx lib/load-runner.ts <url> <connections> <seconds> [header:value ...]`. Prints
 * one JSON line: requests/s, p50 and p99 latency (ms), non-2xx count and the CPU it used (ms).
 */
import autocannon from 'autocannon';

const [url, connections, seconds, ...headerArgs] = process.argv.slice(2);
const headers = Object.fromEntries(
  headerArgs.map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1)] as const),
);
const cpu0 = process.cpuUsage();
const result = await autocannon({
  url: url!,
  connections: Number(connections),
  duration: Number(seconds),
  headers,
});
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMs: (cpu.user + cpu.system) / 1000,
    seconds: Number(seconds),
  }),
);

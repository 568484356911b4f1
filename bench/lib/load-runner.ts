/**
 * autocannon in a process of its own, so that the generator's CPU is measured apart from the
 * server's. Two ways to run it:
 *
 *   tsx lib/load-runner.ts <url> <connections> <seconds> [header:value ...]   one load, then exits
 *   tsx lib/load-runner.ts --serve                                            one load per input line
 *
 * `--serve` reads JSON lines `{ url, connections, seconds, headers }` on standard input and answers
 * each with a result line, so that a benchmark alternating between two servers pays no process
 * start between the two halves of a pair. A result line is JSON: requests/s, p50 and p99 latency
 * (ms), totals, non-2xx count and the CPU the generator used for that load (ms).
 */
import autocannon from 'autocannon';
import { createInterface } from 'node:readline';

export interface LoadRequest {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
}

async function run(req: LoadRequest): Promise<string> {
  const cpu0 = process.cpuUsage();
  const result = await autocannon({
    url: req.url,
    connections: req.connections,
    duration: req.seconds,
    headers: req.headers,
  });
  const cpu = process.cpuUsage(cpu0);
  return JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMs: (cpu.user + cpu.system) / 1000,
    seconds: req.seconds,
  });
}

if (process.argv[2] === '--serve') {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim()) process.stdout.write(`${await run(JSON.parse(line) as LoadRequest)}\n`);
  }
} else {
  const [url, connections, seconds, ...headerArgs] = process.argv.slice(2);
  const headers = Object.fromEntries(
    headerArgs.map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1)] as const),
  );
  console.log(await run({ url: url!, connections: Number(connections), seconds: Number(seconds), headers }));
}

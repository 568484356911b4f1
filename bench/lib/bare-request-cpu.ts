/**
 * The CPU of one request to a bare Fastify on this machine, now: the yardstick the chat-ingest
 * benchmark divides its server CPU per message by, measured in the same run so a busy or a slower
 * machine moves both alike. A bare Fastify (lib/bare-server.ts, `GET /hello`) in a process of its
 * own is loaded with autocannon (lib/load-runner.ts, another process) for `seconds`; the answer is
 * the bare server's CPU (user + system, from /proc) divided by the requests it answered.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBareServer } from './bare-process';
import { processCpuMs } from './server-process';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function bareRequestCpuMs(
  seconds: number,
  connections: number,
): Promise<{ cpuMsPerRequest: number; requestsPerSecond: number }> {
  const bare = await startBareServer();
  try {
    const before = processCpuMs(bare.pid);
    const runner = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'load-runner.ts'), `${bare.url}/hello`, String(connections), String(seconds)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    runner.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) =>
      runner.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load runner exited ${code}`)))),
    );
    const cpu = processCpuMs(bare.pid) - before;
    const result = JSON.parse(out.trim().split('\n').pop()!) as { total: number; rps: number };
    return { cpuMsPerRequest: cpu / Math.max(1, result.total), requestsPerSecond: result.rps };
  } finally {
    bare.stop();
  }
}

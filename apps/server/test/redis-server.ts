/**
 * A `redis-server` of a test's own, on a port of its own (never the machine's shared Redis, which
 * other tests use): the Redis outage tests stop, kill, pause and resume it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

/** Why a test cannot start a redis-server here, or null. */
export const noRedisServer =
  spawnSync('redis-server', ['--version']).status === 0 ? null : 'redis-server is not installed';

/** A redis-server of the test's own on `port`, without persistence, answering once this resolves. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Ends `child` with `signal` (a paused one is resumed first, so that it can exit). */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill(signal);
  });
}

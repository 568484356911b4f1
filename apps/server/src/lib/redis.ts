/**
 * The Redis connection of a process (only with REDIS_URL): the Socket.IO streams adapter, the
 * API rate-limit store, the hub call budgets, the game-chat flood limits and the cache
 * invalidations share it. Without Redis all of these run in-process.
 *
 * Redis going away must not slow a request down (docs/operations-redis-outage.md): a command on
 * this client fails at once while the connection is not ready (no offline queue) and after
 * COMMAND_TIMEOUT_MS on a connection that stopped answering, and every user of Redis falls back
 * to its in-process equivalent. A Redis that hangs (connection open, no answers) is an outage too:
 * a command that times out — a request's, or the heartbeat's PING every HEARTBEAT_MS — is
 * confirmed by one more PING, and if that times out as well the status goes down and the
 * connection is dropped, so every command fails at once until a new connection is ready. `RedisStatus` says whether Redis is usable now, logs the outage
 * once and its end once, and tells the caches when the process rejoins (what was published
 * meanwhile was lost). Subscribers and the adapter's stream reader are duplicates that do queue:
 * they wait for the connection instead of failing in a loop.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/** A command on a connection that stopped answering fails after this long. */
export const COMMAND_TIMEOUT_MS = 300;
/** While up, a PING this often: a Redis that hangs is noticed without waiting for traffic. */
export const HEARTBEAT_MS = 250;
const TIMED_OUT = 'Command timed out';
/** Reconnection attempts: quickly at first, then every second while Redis is away. */
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, 1000);

export class RedisStatus {
  private ready = false;
  private outageSince: number | null = null;
  private closing = false;
  private readonly rejoinListeners: Array<() => void> = [];
  private readonly changeListeners: Array<(up: boolean) => void> = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  /** True while commands can be sent; false before the first connection and during an outage. */
  get up(): boolean {
    return this.ready;
  }

  /** When the process lost Redis (ms since the epoch), or null. */
  get downSince(): number | null {
    return this.outageSince;
  }

  markUp(): void {
    if (this.ready) return;
    this.ready = true;
    const since = this.outageSince;
    this.outageSince = null;
    if (since !== null) {
      this.log.warn(
        { downForMs: Date.now() - since },
        'Redis reachable again: shared limits, broadcasts and invalidations resume',
      );
      for (const listener of this.rejoinListeners) listener();
    }
    for (const listener of this.changeListeners) listener(true);
  }

  markDown(reason: string): void {
    const wasUp = this.ready;
    this.ready = false;
    if (this.outageSince !== null || this.closing) return;
    this.outageSince = Date.now();
    // Logged once per outage (ioredis reports every failed reconnection attempt).
    this.log.error(
      { reason },
      wasUp
        ? 'Redis unreachable: running degraded on in-process limits, broadcasts and caches until it returns'
        : 'Redis not reachable at start: running degraded on in-process limits, broadcasts and caches until it answers',
    );
    for (const listener of this.changeListeners) listener(false);
  }

  /** The process is closing its connections: not an outage. */
  close(): void {
    this.closing = true;
    this.ready = false;
  }

  /** Called once Redis is back after an outage (not at the first connection). */
  onRejoin(listener: () => void): void {
    this.rejoinListeners.push(listener);
  }

  onChange(listener: (up: boolean) => void): void {
    this.changeListeners.push(listener);
  }
}

export interface OpenedRedis {
  client: Redis;
  status: RedisStatus;
}

export function openRedis(url: string, log: FastifyBaseLogger, startTimeoutMs = 2000): OpenedRedis {
  const status = new RedisStatus(log);
  const client = new Redis(url, {
    connectionName: 'kickback',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: reconnectDelay,
  });
  client.on('ready', () => status.markUp());
  watchForHang(client, status);
  client.on('close', () => status.markDown('connection closed'));
  client.on('end', () => status.markDown('connection ended'));
  client.on('error', (err: Error) => {
    // ioredis reconnects by itself; a connection error while not ready is the outage.
    if (client.status !== 'ready') status.markDown(err.message);
  });
  // Not ready within the start budget: degraded from the start (logged once), joins when it answers.
  setTimeout(() => {
    if (!status.up) status.markDown('no connection yet');
  }, startTimeoutMs).unref();

  // Subscribers and the stream reader wait for the connection (queued, no timeout: XREAD blocks).
  const duplicate = client.duplicate.bind(client);
  const queued: Partial<RedisOptions> = {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined as unknown as number,
  };
  client.duplicate = (override?: Partial<RedisOptions>) => {
    const copy = duplicate({ ...queued, ...override });
    copy.on('error', () => {
      // reconnects by itself; the outage is reported by the main connection.
    });
    return copy;
  };
  return { client, status };
}

/**
 * A connection that is open but stopped answering (a Redis stopped with SIGSTOP, a frozen VM, a
 * network path that drops packets) gives no `close` or `error`: each command only times out. One
 * timed-out command may be this process's own stall (an event loop blocked past the timeout
 * fires the timer before it reads the answer), so a second PING confirms it; two in a row mark
 * Redis down and drop the connection. ioredis then reconnects, and `ready` (markUp) comes only
 * once Redis answers its handshake again.
 */
function watchForHang(client: Redis, status: RedisStatus): void {
  let confirming = false;
  const confirm = () => {
    if (confirming || !status.up || client.status !== 'ready') return;
    confirming = true;
    client
      .ping()
      .then(
        () => undefined,
        (err: Error) => {
          if (err.message !== TIMED_OUT || client.status !== 'ready') return;
          status.markDown(`commands time out after ${COMMAND_TIMEOUT_MS} ms`);
          // Destroyed, not ended: an ended socket waits for the silent peer's FIN before ioredis
          // reconnects, which a dead network path never sends.
          client.stream.destroy();
        },
      )
      .finally(() => {
        confirming = false;
      });
  };
  const onTimeout = (err: unknown) => {
    if (err instanceof Error && err.message === TIMED_OUT) confirm();
  };
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    const result = send(...args);
    args[0].promise.catch(onTimeout);
    return result;
  }) as Redis['sendCommand'];
  const heartbeat = setInterval(() => {
    if (client.status === 'end') return clearInterval(heartbeat);
    if (!confirming && status.up && client.status === 'ready') client.ping().catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
}

/** Resolves once the client is ready, or after `ms` (the app then starts degraded). */
export function readyWithin(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
  });
}

/**
 * Subscribes `subscriber` (a queued duplicate) to `channel`. With Redis up it waits for the
 * subscription (briefly), so a process is subscribed once it is ready; with Redis away it does not
 * wait: the subscription is sent when Redis answers, and ioredis renews it after every reconnection.
 */
export async function subscribeQueued(
  subscriber: Redis,
  channel: string,
  main: Redis,
  onError: (err: Error) => void,
): Promise<void> {
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    (err: Error) => onError(err),
  );
  if (main.status !== 'ready') return;
  await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
}

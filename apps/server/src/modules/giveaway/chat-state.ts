/**
 * What the giveaway's chat handlers ask of every chat message, kept in memory per process: the
 * active keys (is this text a key?) and the last roll's winners (is this sender one?). A plain chat
 * message then costs the giveaway no query at all; only a key goes to the database (entries.ts),
 * which checks the key and reads the round and the filters again in its own statement.
 *
 * Read once, then again after every change to the keys or the winners (`changed()`, after commit),
 * which with Redis is published to every process (like the linked Kick users and the session cache),
 * and at the latest every RELOAD_EVERY_MS, which bounds what a lost invalidation could leave stale.
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { subscribeQueued } from '../../lib/redis';
import type { Database } from '../../db/client';

export interface GiveawayChatView {
  /** Active keys, lower case. */
  keys: ReadonlySet<string>;
  /** Kick ids of the last roll's winners. */
  winners: ReadonlySet<string>;
}

const RELOAD_EVERY_MS = 30_000;

const STATEMENT = `
  SELECT last_winner_kick_ids AS winners,
         ARRAY(SELECT key_lower FROM giveaway_keys WHERE is_active) AS keys
  FROM giveaway_settings WHERE id = 1`;

export class GiveawayChatState {
  private view: GiveawayChatView | null = null;
  private loadedAt = 0;
  private loading: Promise<GiveawayChatView> | null = null;
  /** Bumped by every invalidation, so a read that started before one is not kept. */
  private generation = 0;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly database: Database,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The keys and winners as of the last change (read from the database when invalidated). */
  current(): GiveawayChatView | Promise<GiveawayChatView> {
    if (this.view && this.nowMs() - this.loadedAt <= RELOAD_EVERY_MS) return this.view;
    return this.load();
  }

  /** The keys or the winners changed here (call after commit): this process and every other reload. */
  changed(): void {
    this.invalidateLocally();
    for (const listener of this.listeners) listener();
  }

  /** Another process announced a change. */
  invalidateLocally(): void {
    this.generation += 1;
    this.view = null;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private load(): Promise<GiveawayChatView> {
    this.loading ??= (async () => {
      try {
        for (;;) {
          const generation = this.generation;
          const [row] = await this.database.query<{ winners: string[]; keys: string[] }>(
            STATEMENT,
            [],
            'kickback_giveaway_chat_state',
          );
          if (generation !== this.generation) continue; // a change raced the read: read again
          this.view = { keys: new Set(row?.keys ?? []), winners: new Set(row?.winners ?? []) };
          this.loadedAt = this.nowMs();
          return this.view;
        }
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}

/** With Redis (REDIS_URL): a change in one process reloads the state in every process. */
export async function syncGiveawayChatState(
  app: FastifyInstance,
  redis: Redis,
  state: GiveawayChatState,
): Promise<void> {
  const channel = `${app.config.redisPrefix}giveaway-chat-state`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {
    // ioredis reconnects by itself; until then the periodic reload bounds staleness.
  });
  subscriber.on('message', (from: string) => {
    if (from === channel) state.invalidateLocally();
  });
  await subscribeQueued(subscriber, channel, redis, (err) => {
    app.log.warn({ err: err.message }, 'giveaway chat state: not subscribed yet');
  });
  state.onChange(() => {
    redis.publish(channel, '1').catch((err: Error) => {
      // While Redis is away (logged once, lib/redis.ts) the other processes reload within 30 s.
      if (app.redisStatus?.up !== false) {
        app.log.warn({ err: err.message }, 'giveaway change not published; other processes reload within 30 s');
      }
    });
  });
  app.addHook('onClose', async () => void (await subscriber.quit().catch(() => subscriber.disconnect())));
}

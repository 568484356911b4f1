/**
 * Who linked which Kick account, in memory: the pipeline looks every chat message's sender up here
 * instead of in the database. The whole set is read once (the linked accounts of one streamer's
 * community are a few thousand rows); a link, an unlink, an exclusion or a Kick rename refreshes
 * that user's entry through `changed(userId)`, which with Redis is published to every process
 * (like session-cache evictions). A full reload every few minutes bounds what a lost message could
 * leave stale; the rules that matter also check the database in their own transaction (a bet reads
 * the bettor's exclusion with the row lock it takes anyway).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { subscribeQueued } from '../../lib/redis';
import type { Database } from '../../db/client';

/** What chat handlers know of the site user behind a Kick account (never balances: those are read fresh). */
export interface LinkedChatter {
  id: string;
  username: string;
  kickId: string;
  kickUsername: string | null;
  excluded: boolean;
}

type Row = { id: string; username: string; kick_id: string; kick_username: string | null; excluded: boolean };

const COLUMNS = 'id, username, kick_id, kick_username, excluded';
export const RELOAD_EVERY_MS = 5 * 60 * 1000;

const toChatter = (r: Row): LinkedChatter => ({
  id: r.id,
  username: r.username,
  kickId: r.kick_id,
  kickUsername: r.kick_username,
  excluded: r.excluded,
});

export class LinkedUsers {
  private byKick = new Map<string, LinkedChatter>();
  private kickOf = new Map<string, string>();
  private loading: Promise<void> | null = null;
  private loadedAt = 0;
  /** Bumped by every change, so a full load that started before one does not undo it. */
  private generation = 0;
  private publish: ((userId: string) => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The site user who linked this Kick account, or null. */
  async find(kickUserId: string): Promise<LinkedChatter | null> {
    if (this.loadedAt === 0) await this.loadAll();
    return this.findLoaded(kickUserId)!;
  }

  /**
   * `find` without a promise once the set is loaded (every message but the first few): the
   * site user, or null; undefined while the set was never loaded (call `find`).
   */
  findLoaded(kickUserId: string): LinkedChatter | null | undefined {
    if (this.loadedAt === 0) return undefined;
    if (this.nowMs() - this.loadedAt > RELOAD_EVERY_MS && !this.loading) {
      // The periodic reload runs beside the chat, which meanwhile reads the set it has: waiting
      // for it would hold every message of that moment. A failed reload is tried by the next message.
      this.loadAll().catch(() => undefined);
    }
    return this.byKick.get(kickUserId) ?? null;
  }

  /** A user's link, exclusion or Kick name changed (after commit): refresh here and everywhere. */
  async changed(userId: string): Promise<void> {
    await this.refresh(userId);
    this.publish?.(userId);
  }

  /** Refreshes one user's entry from the database (a change made here or announced by another process). */
  async refresh(userId: string): Promise<void> {
    this.generation += 1;
    const [row] = await this.database.query<Row>(
      `SELECT ${COLUMNS} FROM users WHERE id = $1 AND kick_id IS NOT NULL`,
      [userId],
      'chat_linked_user',
    );
    this.forget(userId);
    if (row) this.put(toChatter(row));
  }

  private forget(userId: string): void {
    const kickId = this.kickOf.get(userId);
    if (kickId !== undefined && this.byKick.get(kickId)?.id === userId) this.byKick.delete(kickId);
    this.kickOf.delete(userId);
  }

  private put(c: LinkedChatter): void {
    const previous = this.byKick.get(c.kickId);
    if (previous && previous.id !== c.id) this.kickOf.delete(previous.id);
    this.byKick.set(c.kickId, c);
    this.kickOf.set(c.id, c.kickId);
  }

  private loadAll(): Promise<void> {
    this.loading ??= (async () => {
      try {
        for (;;) {
          const generation = this.generation;
          const rows = await this.database.query<Row>(`SELECT ${COLUMNS} FROM users WHERE kick_id IS NOT NULL`);
          if (generation !== this.generation) continue; // a change raced the load: read again
          this.byKick = new Map();
          this.kickOf = new Map();
          for (const r of rows) this.put(toChatter(r));
          this.loadedAt = this.nowMs();
          return;
        }
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** With Redis: changes reach the other processes, and theirs reach this one. */
  async syncThrough(redis: Redis, channel: string, log: FastifyBaseLogger): Promise<() => Promise<void>> {
    const subscriber = redis.duplicate();
    subscriber.on('error', () => {
      // ioredis reconnects by itself; until then the periodic reload bounds staleness.
    });
    subscriber.on('message', (from: string, userId: string) => {
      if (from !== channel) return;
      this.refresh(userId).catch((err: unknown) => log.warn({ err }, 'linked Kick user not refreshed'));
    });
    await subscribeQueued(subscriber, channel, redis, (err) => {
      log.warn({ err: err.message }, 'linked Kick users: not subscribed yet');
    });
    this.publish = (userId) => {
      redis.publish(channel, userId).catch((err: Error) => {
        // While Redis is away (logged once, lib/redis.ts) the periodic reload bounds staleness.
        if (redis.status === 'ready') {
          log.warn({ err: err.message }, 'linked Kick user change not published; other processes reload later');
        }
      });
    };
    return async () => void (await subscriber.quit().catch(() => subscriber.disconnect()));
  }
}

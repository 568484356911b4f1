/**
 * A short-lived, bounded in-process cache of loaded sessions, keyed by the session id (the token's
 * sha256). Only routes that declare `config: { identityOnly: true }` read through it — handlers
 * that use nothing of `request.user` but its id (placing an order: the statement checks the
 * balance itself). Every other route reads the session row and the user afresh, so balances, role,
 * exclusion and linked accounts are never served from here.
 *
 * Staleness is bounded: an entry lives at most `ttlMs` (a few seconds) and never past the
 * session's own expiry. In this process, ending a session evicts it at once and changing a user's
 * role or exclusion evicts all of that user's entries; with Redis the evictions are published to
 * the other processes too (session-cache-sync.ts). Without Redis, another process may accept a
 * signed-out session on identity-only routes for at most `ttlMs` (docs/architecture.md#hot-paths).
 */
import type { LoadedSession } from './sessions';

export const SESSION_CACHE_TTL_MS = 5_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  session: LoadedSession;
  /** When the entry stops being served (ms since the epoch): the earlier of TTL and session expiry. */
  until: number;
}

export type Eviction = { sessionId: string } | { userId: string };

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: Array<(eviction: Eviction) => void> = [];

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly maxEntries = SESSION_CACHE_MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(sessionId: string, nowMs: number): LoadedSession | null {
    const entry = this.entries.get(sessionId);
    if (!entry) return null;
    if (nowMs >= entry.until) {
      this.entries.delete(sessionId);
      return null;
    }
    return entry.session;
  }

  set(session: LoadedSession, nowMs: number): void {
    const until = Math.min(nowMs + this.ttlMs, session.expiresAt.getTime());
    if (until <= nowMs) return;
    this.entries.delete(session.id);
    // Oldest first out: a Map iterates in insertion order.
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(session.id, { session, until });
  }

  /** Drops a session (sign-out) or every session of a user (role, exclusion), here and, when
   * someone listens (Redis), in the other processes. */
  evict(eviction: Eviction): void {
    this.evictLocally(eviction);
    for (const listener of this.listeners) listener(eviction);
  }

  /** Drops entries without telling the listeners (evictions that came from another process). */
  evictLocally(eviction: Eviction): void {
    if ('sessionId' in eviction) {
      this.entries.delete(eviction.sessionId);
      return;
    }
    for (const [id, entry] of this.entries) {
      if (entry.session.user.id === eviction.userId) this.entries.delete(id);
    }
  }

  onEvict(listener: (eviction: Eviction) => void): void {
    this.listeners.push(listener);
  }

  clear(): void {
    this.entries.clear();
  }
}

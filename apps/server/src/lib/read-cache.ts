/**
 * Public reads kept as ready-to-send bodies: a read is built (queried, validated and serialised by
 * its response schema) once, then every request gets the same bytes and ETag until the read is
 * invalidated, its time-to-live runs out or its own deadline passes. Concurrent misses share one
 * build; an invalidation during a build drops that build's entry, so the next request builds anew.
 *
 * Keys are `<area>:<rest>` (`products`, `leaderboard:1:now`); `invalidate('leaderboard:1:')` drops
 * every key starting with the prefix. Invalidations are also handed to the listeners (the Redis
 * sync in read-cache-sync.ts publishes them to the other processes).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface ReadyBody {
  /** The serialised JSON body. */
  readonly body: Buffer;
  /** A strong ETag of the body (quoted). */
  readonly etag: string;
  /** The body compressed once per build (bodies of COMPRESS_MIN_BYTES or more). */
  readonly br: Buffer | null;
  readonly gzip: Buffer | null;
}

/** Smaller bodies go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1400;

/** What a build returns: the body and, optionally, business time after which it must not be served. */
export interface Built {
  ready: ReadyBody;
  validUntil?: number;
}

interface Entry {
  expires: number;
  validUntil: number;
  value: Promise<ReadyBody | null>;
  /** The built body once `value` has resolved to one (what `peek` answers without a promise). */
  ready: ReadyBody | null;
}

export function readyBody(json: string): ReadyBody {
  const body = Buffer.from(json);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const compress = body.length >= COMPRESS_MIN_BYTES;
  return {
    body,
    etag,
    br: compress ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : null,
    gzip: compress ? gzipSync(body, { level: 9 }) : null,
  };
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: Array<(prefix: string) => void> = [];
  private readonly dropListeners: Array<(prefix: string) => void> = [];

  /**
   * The ready body of `key` (null: nothing to serve, e.g. a hidden board). `ttlMs` 0 builds on
   * every call; `now` is business time, compared with the build's `validUntil`.
   */
  get(key: string, ttlMs: number, now: number, build: () => Promise<Built | null>): Promise<ReadyBody | null> {
    const hit = this.entries.get(key);
    const at = performance.now();
    if (hit && hit.expires > at && hit.validUntil > now) return hit.value;
    const entry: Entry = { expires: at + ttlMs, validUntil: Infinity, value: Promise.resolve(null), ready: null };
    entry.value = build().then(
      (built) => {
        if (built?.validUntil !== undefined) entry.validUntil = built.validUntil;
        entry.ready = built?.ready ?? null;
        return entry.ready;
      },
      (err: unknown) => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw err;
      },
    );
    if (ttlMs > 0) this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The ready body of `key` when `get` would answer it at once from a built entry, else null (not
   * built yet, being built, expired, or nothing to serve): the hot path of a read, with no promise.
   */
  peek(key: string, now: number): ReadyBody | null {
    const hit = this.entries.get(key);
    if (hit?.ready && hit.expires > performance.now() && hit.validUntil > now) return hit.ready;
    return null;
  }

  /** Drops every entry whose key starts with `prefix` here and tells the listeners. */
  invalidate(prefix: string): void {
    this.invalidateLocally(prefix);
    for (const listener of this.listeners) listener(prefix);
  }

  /** Drops entries here only (an invalidation that came from another process). */
  invalidateLocally(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const listener of this.dropListeners) listener(prefix);
  }

  /** Hears every drop in this process, its own and those from other processes (a cached value kept outside). */
  onDrop(listener: (prefix: string) => void): void {
    this.dropListeners.push(listener);
  }

  onInvalidate(listener: (prefix: string) => void): void {
    this.listeners.push(listener);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Public reads served from memory (`app.reads`, lib/read-cache.ts). A route declares
 * `config: cachedReadConfig` and answers with `cachedRead(app, { key, schema, build })`: the build
 * runs once per rebuild, its value goes through the route's response schema exactly as an uncached
 * answer would (the same serializer), and the bytes are kept with their ETag. Requests get those
 * bytes as they are (Fastify sends a Buffer without serialising it again), or 304 when the
 * browser's If-None-Match names the ETag. Writes that change a read call `app.reads.invalidate(key)`
 * once committed; with Redis every process drops it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { notFound } from '../lib/errors';
import { ReadCache, readyBody, type ReadyBody } from '../lib/read-cache';
import { syncReadCache } from '../lib/read-cache-sync';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ready-to-send public reads; invalidate a key (or key prefix) after a write commits. */
    reads: ReadCache;
  }
}

/** Route config of a cached public read: no session lookup (plugins/session.ts). */
export const cachedReadConfig = { access: 'public', sessionless: true } as const;

/**
 * The options of a cached read registered from its shared definition (plugins/endpoints.ts): no
 * session lookup, and no @fastify/compress hooks: the handler sends the bytes compressed once per
 * build to every client that takes br or gzip (`encodingFor`), and a GET has no body to inflate.
 */
export const sessionlessRead = { config: { sessionless: true }, compress: false, decompress: false } as const;

export const cachedReadsPlugin = fp(async (app: FastifyInstance) => {
  const cache = new ReadCache();
  app.decorate('reads', cache);
  if (app.redis) await syncReadCache(app, app.redis, cache);
});

export interface CachedReadOptions<S extends z.ZodType> {
  /** The cache key (see lib/read-cache.ts for prefixes). */
  key: string;
  /** The route's 200 response schema. */
  schema: S;
  /** How long a built body may be served without an invalidation (0: build every time). */
  ttlMs: number;
  cacheControl: string;
  /** The value to send, or null for 404; `validUntil` (business time, ms) ends the entry early. */
  build: () => Promise<{ value: z.input<S>; validUntil?: number } | null>;
}

/**
 * The best encoding the browser accepts that we hold ('br' before 'gzip'), or null. `x-gzip` and
 * `*` count as gzip unless the request says `x-no-compression`, as @fastify/compress reads them: it
 * used to compress those answers per request, and the route no longer runs it.
 */
export function encodingFor(headers: FastifyRequest['headers'], ready: ReadyBody): 'br' | 'gzip' | null {
  const acceptEncoding = headers['accept-encoding'];
  if (!acceptEncoding || !ready.br) return null;
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  if ((accepted.has('x-gzip') || accepted.has('*')) && headers['x-no-compression'] === undefined) return 'gzip';
  return null;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends `ready` (or 304) with its headers. */
function send(request: FastifyRequest, reply: FastifyReply, ready: ReadyBody, cacheControl: string): void {
  reply.header('cache-control', cacheControl);
  reply.header('etag', ready.etag);
  if (matches(request.headers['if-none-match'], ready.etag)) {
    reply.code(304).send();
    return;
  }
  // A Buffer goes out as it is: the response schema is not run again, nothing is compressed here.
  reply.header('content-type', 'application/json; charset=utf-8');
  if (ready.br) reply.header('vary', 'accept-encoding');
  const encoding = encodingFor(request.headers, ready);
  if (encoding) reply.header('content-encoding', encoding).send(encoding === 'br' ? ready.br : ready.gzip);
  else reply.send(ready.body);
}

/**
 * The handler of a cached public read: a built entry is sent at once (no promise on the hot path),
 * otherwise once its build is done.
 */
export function cachedRead<S extends z.ZodType>(
  app: FastifyInstance,
  opts: CachedReadOptions<S>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void {
  let serialize: ((value: unknown) => string) | null = null;
  const build = async () => {
    const built = await opts.build();
    if (!built) return null;
    serialize ??= serializerCompiler({ schema: opts.schema, method: 'GET', url: opts.key, httpStatus: '200' }) as (
      value: unknown,
    ) => string;
    return {
      ready: readyBody(serialize(built.value)),
      ...(built.validUntil !== undefined ? { validUntil: built.validUntil } : {}),
    };
  };
  const afterBuild = async (request: FastifyRequest, reply: FastifyReply, now: number) => {
    const ready = await app.reads.get(opts.key, opts.ttlMs, now, build);
    if (!ready) throw notFound();
    send(request, reply, ready, opts.cacheControl);
  };
  return (request, reply) => {
    const now = app.clock.now().getTime();
    const ready = app.reads.peek(opts.key, now);
    if (!ready) return afterBuild(request, reply, now);
    send(request, reply, ready, opts.cacheControl);
  };
}

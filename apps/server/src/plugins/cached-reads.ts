/**
 * Public reads served from memory (`app.reads`, lib/read-cache.ts). A public GET is registered with
 * `cachedReadRoute(app, endpoint, { key, ttlMs, cacheControl, build })`: the build runs once per
 * rebuild, its value goes through the route's response schema exactly as an uncached
 * answer would (the same serializer), and the bytes are kept with their ETag. Requests get those
 * bytes as they are (Fastify sends a Buffer without serialising it again), or 304 when the
 * browser's If-None-Match names the ETag. Writes that change a read call `app.reads.invalidate(key)`
 * once committed; with Redis every process drops it. A read at a static path is also answered in
 * front of the router (lib/read-fast-path.ts), with the same headers (lib/read-answer.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { plugin } from '../lib/plugin';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { EndpointSpec } from '@kickback/common/http/endpoint';
import { notFound } from '../lib/errors';
import { sendReady } from '../lib/read-answer';
import { ReadCache, readyBody } from '../lib/read-cache';
import { syncReadCache } from '../lib/read-cache-sync';
import type { ReadFastPath } from '../lib/read-fast-path';
import { passesCsrf } from './csrf';
import { route, type EndpointHandler } from './endpoints';
import { logRequest } from './request-log';
import { clientAddress, trustFunction } from '../lib/trust-proxy';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ready-to-send public reads; invalidate a key (or key prefix) after a write commits. */
    reads: ReadCache;
    /** The cached reads answered in front of the router (lib/read-fast-path.ts). */
    readFastPath: ReadFastPath;
  }
}

/**
 * The options of a cached read registered from its shared definition (plugins/endpoints.ts): no
 * session lookup, and no @fastify/compress hooks: the handler sends the bytes compressed once per
 * build to every client that takes br or gzip (`encodingFor`), and a GET has no body to inflate.
 */
const sessionlessRead = { config: { sessionless: true }, compress: false, decompress: false } as const;

export const cachedReadsPlugin = plugin({
  name: 'cachedReadsPlugin',
  dependencies: ['securityHeadersPlugin'],
})(async (app: FastifyInstance, opts: { fastPath: ReadFastPath }) => {
  const cache = new ReadCache();
  app.decorate('reads', cache);
  app.decorate('readFastPath', opts.fastPath);
  if (app.redis) await syncReadCache(app, app.redis, cache);
  // The fast path answers once every plugin it leans on is loaded, and stops when the app starts
  // closing, so that Fastify's closing answers (503, Connection: close) are given.
  app.addHook('onReady', (done) => {
    const { config, clock, rateBudget, httpMetrics, log } = app;
    const trust = trustFunction(config.trustProxy);
    opts.fastPath.connect({
      peek: (key) => cache.peek(key, clock.now().getTime()),
      passesCsrf: (headers) => passesCsrf(headers, config.publicOrigin),
      securityHeaders: app.apiSecurityHeaders,
      clientAddress: (req) => clientAddress(req, trust),
      takeBudget: (key, done) => rateBudget.takeApi(key, done),
      answered: (route, url, status, ms) => {
        httpMetrics?.observe('GET', route, status, ms / 1000);
        logRequest(log, config.requestLog, 'GET', url, status, ms, undefined, true);
      },
      failed: (err) => log.error({ err }, 'cached read fast path failed; the router answers'),
    });
    done();
  });
  app.addHook('preClose', (done) => {
    opts.fastPath.disconnect();
    done();
  });
});

export interface CachedReadOptions<S extends z.ZodType> {
  /** The cache key (see lib/read-cache.ts for prefixes). */
  key: string;
  /** How long a built body may be served without an invalidation (0: build every time). */
  ttlMs: number;
  cacheControl: string;
  /** The value to send, or null for 404; `validUntil` (business time, ms) ends the entry early. */
  build: () => Promise<{ value: z.input<S>; validUntil?: number } | null>;
}

/**
 * Registers `endpoint` (a public GET) as a cached read: its handler (`cachedRead`) and, for a static
 * path, the fast path in front of the router.
 */
export function cachedReadRoute<const E extends EndpointSpec>(
  app: FastifyInstance,
  endpoint: E,
  opts: CachedReadOptions<E['response']>,
): void {
  const handler = cachedRead(app, endpoint.response, opts);
  route(app, endpoint, sessionlessRead, handler as unknown as EndpointHandler<E>);
  if (!endpoint.params && !endpoint.query) {
    app.readFastPath.add(endpoint.path, { key: opts.key, route: endpoint.path, cacheControl: opts.cacheControl });
  }
}

/**
 * The handler of a cached public read: a built entry is sent at once (no promise on the hot path),
 * otherwise once its build is done.
 */
function cachedRead<S extends z.ZodType>(
  app: FastifyInstance,
  schema: S,
  opts: CachedReadOptions<S>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void {
  let serialize: ((value: unknown) => string) | null = null;
  const build = async () => {
    const built = await opts.build();
    if (!built) return null;
    serialize ??= serializerCompiler({ schema, method: 'GET', url: opts.key, httpStatus: '200' }) as (
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
    sendReady(request, reply, ready, opts.cacheControl);
  };
  return (request, reply) => {
    const now = app.clock.now().getTime();
    const ready = app.reads.peek(opts.key, now);
    if (!ready) return afterBuild(request, reply, now);
    sendReady(request, reply, ready, opts.cacheControl);
  };
}

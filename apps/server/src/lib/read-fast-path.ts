/**
 * Cached public reads answered in front of the router. A cached read's answer is bytes already made
 * (lib/read-cache.ts); what Fastify adds around them per request (request and reply objects, the
 * router, eleven hook runners, a promise chain in the rate limiter, the headers set one by one) cost
 * about as much as Node's own HTTP work, which held the reads at 50–70 % of a bare Fastify sending
 * the same body (bench/reads).
 *
 * So the http server Fastify listens on (its `serverFactory`) first offers each request to this
 * path. It answers only the plain case, with everything the router's answer carries:
 *
 * - a GET of exactly a registered read's path (any other spelling, a query string or HEAD goes to
 *   the router, which answers it the same way);
 * - that passes the CSRF check (plugins/csrf.ts) — a refusal is the router's to give;
 * - whose body is built and current (`peek`) — a miss is built by the router's handler;
 * - within the caller's budget, taken from @fastify/rate-limit's own store (lib/rate-budget.ts), so
 *   a request counts once whichever way it is answered — a refusal (429) is the router's;
 *
 * and sends the API's security headers, the read's headers (lib/read-answer.ts, the same function
 * the route's handler uses), 304 on a matching If-None-Match, the compressed copy the browser takes,
 * then records the request in the metrics and the request log. Everything else, and every request
 * once the app starts closing, goes to Fastify's handler untouched.
 *
 * It also answers a GET of exactly a built asset's path (`/assets/<hashed name>`, and the public
 * pictures and sounds such as `/brand/logo.svg`, registered by plugins/static-web.ts from the bytes
 * it read at start): a page load asks for ~20 of them, and
 * through the router each one cost a stat, an open, a read stream, a close and, for the small files
 * the build leaves uncompressed, a brotli stream per request (bench/stream-night). An asset needs no
 * CSRF check, session or rate budget (the router's answer has none either); its answer is the
 * document security headers, the caching headers and the copy the browser takes, or 304.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { ReadyBody } from './read-cache';
import { bodyFor, encodingFor, etagMatches, readHeaders, type ReadEncoding } from './read-answer';

export interface FastRead {
  /** The cache key (lib/read-cache.ts). */
  key: string;
  /** The route's pattern, as the router reports it (the metrics' route label). */
  route: string;
  cacheControl: string;
}

/** What the fast path needs of the app, connected once every plugin is loaded. */
export interface FastPathDeps {
  /** The built, current body of `key`, or null (`ReadCache.peek` at business time now). */
  peek(key: string): ReadyBody | null;
  /** The request passes the CSRF check. */
  passesCsrf(headers: IncomingHttpHeaders): boolean;
  /** The API's security headers (plugins/security-headers.ts). */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  /** The caller's address as `request.ip` gives it (the proxy's forwarded address when trusted). */
  clientAddress(req: IncomingMessage): string | undefined;
  /** Takes one request from `key`'s budget; `done(false)` when it is spent or cannot be read. */
  takeBudget(key: string, done: (allowed: boolean) => void): void;
  /** Records an answered request (metrics and request log); arguments, not an object per request. */
  answered(route: string, url: string, status: number, ms: number): void;
  /** Reports a fault of the fast path (the request then goes to the router). */
  failed(err: unknown): void;
}

type Variant = ReadEncoding | 'plain' | 'not-modified';

/**
 * A built asset held in memory: its bytes (plain, and the build's .br and .gz when it wrote them)
 * and, made once, the flat header list each answer sends (Content-Length included).
 */
export interface FastAsset extends ReadyBody {
  /** The metrics' route label. */
  route: string;
  headers: Record<Variant, string[]>;
}

interface Registered extends FastRead {
  /** The flat header lists of the last body served, per variant (made once per body). */
  headersOf: ReadyBody | null;
  headers: Map<Variant, string[]>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The timeouts Fastify sets on a server it makes itself (fastify/lib/server.js). */
interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export class ReadFastPath {
  private readonly reads = new Map<string, Registered>();
  private readonly assets = new Map<string, FastAsset>();
  private deps: FastPathDeps | null = null;
  /** Requests this path answered (tests tell its answers from the router's by it). */
  answeredCount = 0;

  /** Serves `read` at exactly `path` (a static path: no parameters, no query). */
  add(path: string, read: FastRead): void {
    if (path.includes(':') || path.includes('*')) throw new Error(`${path}: only static paths take the fast path`);
    this.reads.set(path, { ...read, headersOf: null, headers: new Map() });
  }

  /** Serves `asset` at exactly `path` (a built file whose name changes with its content). */
  addAsset(path: string, asset: FastAsset): void {
    this.assets.set(path, asset);
  }

  /** Starts answering (the app is ready). */
  connect(deps: FastPathDeps): void {
    this.deps = deps;
  }

  /** Stops answering: from now on the router sees every request (the app is closing). */
  disconnect(): void {
    this.deps = null;
  }

  /**
   * Fastify's `serverFactory`: the HTTP/1.1 server Fastify would make, with the same timeouts, whose
   * requests go through `handle` first.
   */
  readonly serverFactory = (handler: Handler, options: ServerTimeouts): Server => {
    const server = createServer((req, res) => this.handle(req, res, handler));
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /**
   * Answers `req` when it is a plain cached read, else hands it to `next` (the router). Should
   * anything here throw before the answer has begun, the router answers instead (with its error
   * handling), so a fault here cannot take the process down.
   */
  handle(req: IncomingMessage, res: ServerResponse, next: Handler): void {
    const deps = this.deps;
    if (deps === null || req.method !== 'GET') return next(req, res);
    const asset = this.assets.get(req.url!);
    if (asset !== undefined) {
      try {
        return this.sendAsset(deps, asset, req, res);
      } catch (err) {
        return this.failed(err, req, res, next);
      }
    }
    const read = this.reads.get(req.url!);
    if (read === undefined) return next(req, res);
    const started = performance.now();
    let ready: ReadyBody | null;
    let address: string | undefined;
    try {
      ready = deps.passesCsrf(req.headers) ? deps.peek(read.key) : null;
      address = ready ? deps.clientAddress(req) : undefined;
    } catch (err) {
      return this.failed(err, req, res, next);
    }
    if (!ready || !address) return next(req, res);
    const built = ready;
    deps.takeBudget(address, (allowed) => {
      if (!allowed) return next(req, res);
      try {
        this.send(deps, read, built, req, res, started);
      } catch (err) {
        this.failed(err, req, res, next);
      }
    });
  }

  private failed(err: unknown, req: IncomingMessage, res: ServerResponse, next: Handler): void {
    this.deps?.failed(err);
    // Not begun: the router answers. Begun but cut short: the client must not wait for the rest.
    if (!res.headersSent) next(req, res);
    else if (!res.writableEnded) res.destroy();
  }

  private sendAsset(deps: FastPathDeps, asset: FastAsset, req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    if (etagMatches(req.headers['if-none-match'], asset.etag)) {
      res.writeHead(304, asset.headers['not-modified']);
      res.end();
    } else {
      const encoding = encodingFor(req.headers, asset);
      const variant = encoding === 'gzip' && !asset.gzip ? 'plain' : (encoding ?? 'plain');
      res.writeHead(200, asset.headers[variant]);
      res.end(variant === 'plain' ? asset.body : bodyFor(asset, variant));
    }
    this.answeredCount += 1;
    deps.answered(asset.route, req.url!, res.statusCode, performance.now() - started);
  }

  private send(
    deps: FastPathDeps,
    read: Registered,
    ready: ReadyBody,
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
  ): void {
    if (read.headersOf !== ready) {
      read.headersOf = ready;
      read.headers.clear();
    }
    let status = 200;
    let variant: Variant;
    let body: Buffer | undefined;
    if (etagMatches(req.headers['if-none-match'], ready.etag)) {
      status = 304;
      variant = 'not-modified';
    } else {
      const encoding = encodingFor(req.headers, ready);
      variant = encoding ?? 'plain';
      body = bodyFor(ready, encoding);
    }
    let headers = read.headers.get(variant);
    if (!headers) {
      const pairs = [
        ...deps.securityHeaders,
        ...readHeaders(ready, read.cacheControl, variant === 'plain' ? null : variant),
        ...(body ? [['content-length', String(body.length)] as const] : []),
      ];
      headers = pairs.flat();
      read.headers.set(variant, headers);
    }
    res.writeHead(status, headers);
    res.end(body);
    this.answeredCount += 1;
    deps.answered(read.route, req.url!, status, performance.now() - started);
  }
}

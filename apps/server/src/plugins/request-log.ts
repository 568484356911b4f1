/**
 * One log line per request worth a line, after the answer (Fastify's own request logging is off):
 * method, path without the query, status, milliseconds and the signed-in user. By default that is a
 * write (any method but GET, HEAD and OPTIONS), a refusal or error (status 400 and above) and a slow
 * request; `REQUEST_LOG=all` logs every one (docs/operations.md#logs). A healthy `/healthz` probe is
 * never logged. Answers given outside the router (the cached reads' fast path) go through the same
 * `logRequest`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RequestLogPolicy } from '../config';
import { plugin } from '../lib/plugin';
import pino from 'pino';

const infoLevels = new Set(['trace', 'debug', 'info']);

let lastRequestId = 0;
/** Request ids as Fastify makes them (`req-1`, `req-2`, …), one sequence for both kinds of answer. */
export function nextRequestId(): string {
  lastRequestId = (lastRequestId + 1) & 0x7fffffff;
  return `req-${lastRequestId.toString(36)}`;
}

const { chindingsSym, timeSym, streamSym, messageKeySym, mixinSym, hooksSym, needsMetadataGsym } = pino.symbols;

/** The parts of a pino logger the pre-serialised line is made of (pino's own symbols). */
interface PinoInternals {
  bindings: string | undefined;
  time: (() => string) | undefined;
  stream: { write(line: string): unknown } | undefined;
}

/** `log`'s internals when it is a plain pino logger whose lines `requestLineText` can make, else null. */
function plainPino(log: FastifyBaseLogger): PinoInternals | null {
  const p = log as unknown as Record<symbol, unknown>;
  const stream = p[streamSym] as (Record<symbol, unknown> & { write(line: string): unknown }) | undefined;
  const hooks = p[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  if (!stream || typeof stream.write !== 'function' || stream[needsMetadataGsym]) return null;
  if (p[messageKeySym] !== 'msg' || p[mixinSym] || hooks?.logMethod || hooks?.streamWrite) return null;
  const time = p[timeSym];
  const bindings = p[chindingsSym];
  if (typeof time !== 'function' || typeof bindings !== 'string') return null;
  return { bindings, time: time as () => string, stream };
}

/**
 * `plainPino` of the logger last asked about: the fast path logs every answer on the app's logger,
 * so its checks run once rather than per request. The bindings are read again each time (a pino
 * logger's `setBindings` changes them in place); its stream, time function and hooks never change.
 */
let lastLogger: FastifyBaseLogger | null = null;
let lastInternals: PinoInternals | null = null;
function internalsOf(log: FastifyBaseLogger): PinoInternals | null {
  if (log !== lastLogger) {
    lastLogger = log;
    lastInternals = plainPino(log);
  } else if (lastInternals !== null) {
    lastInternals.bindings = (log as unknown as Record<symbol, string>)[chindingsSym];
  }
  return lastInternals;
}

/**
 * The request's line exactly as pino would write it for `log.info({ reqId?, method, url, status, ms,
 * user? }, 'request')` — `{"level":30,"time":…` then the logger's bindings (pid, hostname and, on a
 * request's child logger, its reqId), the fields, `"msg":"request"` — made as one string, or null
 * when `log` is not a plain pino logger (a mixin, hooks or a multistream would change the line):
 * pino's general path (object walk, serialisers, redaction, a JSON.stringify per value) cost ~4 µs
 * a request, a fifth of a cached read.
 */
export function requestLineText(log: FastifyBaseLogger, fields: RequestFields): string | null {
  const p = internalsOf(log);
  return p === null
    ? null
    : lineText(p, fields.reqId, fields.method, fields.url, fields.status, fields.ms, fields.user);
}

/** The line from its values as arguments: no object per request (see `logRequest`). */
function lineText(
  p: PinoInternals,
  reqId: string | undefined,
  method: string,
  url: string,
  status: number,
  ms: number,
  user: string | undefined,
): string {
  return (
    `{"level":30${p.time!()}${p.bindings}` +
    (reqId === undefined ? '' : `,"reqId":${jsonString(reqId)}`) +
    `,"method":${jsonString(method)},"url":${jsonString(url)}` +
    `,"status":${status},"ms":${ms}` +
    (user === undefined ? '' : `,"user":${jsonString(user)}`) +
    `,"msg":"request"}\n`
  );
}

/**
 * `JSON.stringify(s)` for a string, without its cost for the usual path or id: when nothing in it
 * needs an escape (a quote, a backslash, a control character, a surrogate half), it is only quoted.
 */
function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

interface RequestFields {
  reqId?: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  user?: string | undefined;
}

/**
 * Logs one request on `log` (a request's child logger carries its id; `newId` gives a line logged on
 * the app's logger an id of its own), pre-serialised when `log` allows it (`requestLineText`). The
 * values come as arguments: building an object per request (with the spread of an optional id)
 * measured 6–9 µs of a 22 µs cached read on the 2-core machine, its garbage collected on the
 * machine's other core (docs/benchmarks.md, `reads`).
 */
export function logRequest(
  log: FastifyBaseLogger,
  policy: RequestLogPolicy,
  method: string,
  rawUrl: string,
  status: number,
  elapsedMs: number,
  user: string | undefined,
  newId = false,
): void {
  // A plain read answered in time, or LOG_LEVEL=warn: nothing is made.
  if (!worthALine(policy, method, status, elapsedMs) || !infoLevels.has(log.level)) return;
  const q = rawUrl.indexOf('?');
  const url = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (status === 200 && url === '/healthz') return;
  const reqId = newId ? nextRequestId() : undefined;
  const ms = Math.round(elapsedMs);
  const p = internalsOf(log);
  if (p !== null) {
    p.stream!.write(lineText(p, reqId, method, url, status, ms, user));
    return;
  }
  // pino leaves out the fields that are undefined (reqId, user), as the line above does.
  log.info({ reqId, method, url, status, ms, user }, 'request');
}

/**
 * Whether an answered request gets a line. The access log of every read belongs to the front (Caddy
 * logs each request it proxies or serves): a line per cached read cost the app a tenth of the read
 * on slower machines (docs/benchmarks.md, `reads`), so by default the app logs what changes
 * something, what went wrong and what was slow.
 */
function worthALine(policy: RequestLogPolicy, method: string, status: number, elapsedMs: number): boolean {
  return (
    policy.all ||
    status >= 400 ||
    elapsedMs >= policy.slowMs ||
    (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS')
  );
}

export const requestLogPlugin = plugin({
  name: 'requestLogPlugin',
})(async (app: FastifyInstance) => {
  const policy = app.config.requestLog;
  // A callback hook: nothing to wait for, so no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request.log, policy, request.method, request.url, reply.statusCode, reply.elapsedTime, request.user?.id);
    done();
  });
});

/**
 * One log line per request, after the answer (Fastify's own request logging is off): method, path
 * without the query, status, milliseconds and the signed-in user. A healthy `/healthz` probe is not
 * logged. Answers given outside the router (the cached reads' fast path) log the same line through
 * `logRequest`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  user?: string | undefined;
}

const infoLevels = new Set(['trace', 'debug', 'info']);

let lastRequestId = 0;
/** Request ids as Fastify makes them (`req-1`, `req-2`, …), one sequence for both kinds of answer. */
export function nextRequestId(): string {
  lastRequestId = (lastRequestId + 1) & 0x7fffffff;
  return `req-${lastRequestId.toString(36)}`;
}

/**
 * Logs `line` on `log` (a request's child logger carries its id; `newId` gives a line logged on the
 * app's logger an id of its own).
 */
export function logRequest(log: FastifyBaseLogger, line: RequestLine, newId = false): void {
  // LOG_LEVEL=warn: not even the object.
  if (!infoLevels.has(log.level)) return;
  const url = line.url.split('?')[0]!;
  if (url === '/healthz' && line.status === 200) return;
  const fields = { method: line.method, url, status: line.status, ms: Math.round(line.ms), user: line.user };
  log.info(newId ? { reqId: nextRequestId(), ...fields } : fields, 'request');
}

export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  // A callback hook: nothing to wait for, so no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request.log, {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      user: request.user?.id,
    });
    done();
  });
});

/**
 * How a cached public read answers (lib/read-cache.ts holds the bodies): which compressed copy a
 * browser gets, when a conditional request earns a 304, and the headers that go with each. Shared
 * by the route's handler (plugins/cached-reads.ts) and the fast path in front of the router
 * (lib/read-fast-path.ts), so the two cannot send different answers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReadyBody } from './read-cache';

export type ReadEncoding = 'br' | 'gzip';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The best encoding the browser accepts that we hold ('br' before 'gzip'), or null. `x-gzip` and
 * `*` count as gzip unless the request says `x-no-compression`, as @fastify/compress reads them: it
 * used to compress those answers per request, and the route no longer runs it.
 */
export function encodingFor(headers: IncomingHttpHeaders, ready: ReadyBody): ReadEncoding | null {
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

/** If-None-Match names the body's ETag (weak or strong), or is `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The bytes a 200 sends for `encoding`. */
export function bodyFor(ready: ReadyBody, encoding: ReadEncoding | null): Buffer {
  if (encoding === 'br') return ready.br!;
  if (encoding === 'gzip') return ready.gzip!;
  return ready.body;
}

/**
 * The read's own headers, in the order they go out after the security headers: a 304 (`encoding`
 * 'not-modified') carries only the caching pair; a 200 adds its type, `vary` when a compressed copy
 * exists, and its encoding. Content-Length is the sender's (Fastify or the fast path).
 */
export function readHeaders(
  ready: ReadyBody,
  cacheControl: string,
  encoding: ReadEncoding | null | 'not-modified',
  contentType = JSON_CONTENT_TYPE,
): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['cache-control', cacheControl],
    ['etag', ready.etag],
  ];
  if (encoding === 'not-modified') return headers;
  headers.push(['content-type', contentType]);
  if (ready.br) headers.push(['vary', 'accept-encoding']);
  if (encoding) headers.push(['content-encoding', encoding]);
  return headers;
}

/**
 * Answers through Fastify with a ready body: a 304 when the request names its ETag, else the best
 * copy the browser accepts, with `readHeaders`. A Buffer goes out as it is: no response schema is
 * run again and nothing is compressed here.
 */
export function sendReady(
  request: FastifyRequest,
  reply: FastifyReply,
  ready: ReadyBody,
  cacheControl: string,
  contentType = JSON_CONTENT_TYPE,
): FastifyReply {
  const notModified = etagMatches(request.headers['if-none-match'], ready.etag);
  const encoding = notModified ? null : encodingFor(request.headers, ready);
  for (const [name, value] of readHeaders(ready, cacheControl, notModified ? 'not-modified' : encoding, contentType)) {
    reply.header(name, value);
  }
  return notModified ? reply.code(304).send() : reply.code(200).send(bodyFor(ready, encoding));
}

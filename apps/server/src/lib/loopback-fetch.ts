/**
 * Outbound HTTP for integrations. Requests to our own public origin (the dev identity provider and
 * the other local simulators are mounted in this app) are answered in-process through
 * `app.inject`, so simulators work the same under `npm start`, behind a proxy and in tests without
 * a listening socket. Everything else goes to the network.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';

type HttpMethod = NonNullable<InjectOptions['method']>;

async function bodyOf(body: RequestInit['body']): Promise<string | Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(await new Response(body).arrayBuffer());
}

export function createLoopbackFetch(
  app: FastifyInstance,
  publicOrigin: string,
  network: typeof fetch = globalThis.fetch,
): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : input.toString());
    if (url.origin !== publicOrigin) return network(input, init);
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? request?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase() as HttpMethod;
    const payload = await bodyOf(init?.body ?? (request ? await request.arrayBuffer() : undefined));
    init?.signal?.throwIfAborted();
    const res = await app.inject({ method, url: url.pathname + url.search, headers, payload });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [String(v)]) out.append(k, item);
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || method === 'HEAD';
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };
}

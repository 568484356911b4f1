/**
 * Which proxies' X-Forwarded-For entries are believed (TRUST_PROXY; docs/security.md). Only the
 * configured hops are: a hop count N believes the N entries nearest the server (the proxies'
 * own appends), an address list believes entries added by those addresses. Anything a client
 * wrote further left is never the client's address. One rule for the router (request.ip), the
 * read fast path and the hubs.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Off, a number of proxy hops, or the proxies' addresses / CIDR ranges. */
export type TrustProxy = false | number | string[];

export type TrustFn = (address: string, hop: number) => boolean;

/** The trust rule, or null when no proxy is trusted (the peer's address is the client's). */
export function trustFunction(trust: TrustProxy): TrustFn | null {
  if (trust === false) return null;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile(trust);
}

/** The client's address as request.ip gives it under the same rule. */
export function clientAddress(req: IncomingMessage, trust: TrustFn | null): string | undefined {
  return trust ? proxyAddr(req, trust) : req.socket.remoteAddress;
}

/**
 * TRUST_PROXY as written: "0"/"false"/"no"/"" off; a whole number of hops ("1" for one proxy, Caddy,
 * in front); else a comma-separated list of proxy addresses or CIDR ranges. "true" and "yes" are
 * refused: they do not say how many proxies stand in front, and a wrong count is either every
 * visitor on one budget or a forgeable address. Throws on anything it cannot read.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const v = (text ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no') return false;
  if (v === 'true' || v === 'yes') throw new Error('a yes/no is not a hop count');
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  proxyAddr.compile(list);
  return list;
}

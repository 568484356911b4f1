/**
 * Whether a request comes from this machine: the socket's peer is a loopback address and so is
 * the client address the router believes (request.ip, which TRUST_PROXY may take from
 * X-Forwarded-For). Both must be: a proxy on this machine forwarding a visitor from elsewhere
 * (socket loopback, request.ip the visitor) is not this machine, and neither is a client elsewhere
 * that forges `X-Forwarded-For: 127.0.0.1` straight at the server (request.ip loopback, socket not).
 * Used by the dev identity provider (docs/go-live.md#dev-sign-in-never-runs-on-a-public-address-by-accident).
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8, ::1, and their IPv4-mapped IPv6 forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  return isIP(a) === 4 && a.startsWith('127.');
}

export function isLoopbackClient(request: Pick<FastifyRequest, 'ip' | 'socket'>): boolean {
  return isLoopbackAddress(request.socket.remoteAddress) && isLoopbackAddress(request.ip);
}

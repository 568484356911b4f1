/** The reason shown to admins carries what lies under "fetch failed". */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { errorReason } from './error-reason';

describe('errorReason', () => {
  it('adds the cause of a failed fetch: the host that does not resolve', () => {
    // What Node's fetch throws when DNS has no such host.
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), {
      code: 'ENOTFOUND',
      hostname: 'api.example.invalid',
    });
    expect(errorReason(new TypeError('fetch failed', { cause: dns }))).toBe(
      'fetch failed (getaddrinfo ENOTFOUND api.example.invalid)',
    );
  });

  it('a real failed fetch (nothing listens on the port) says the connection was refused', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const err = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(errorReason(err)).toMatch(/^fetch failed \(.*ECONNREFUSED.*\)$/);
  });

  it('an AggregateError cause (every address refused) is named by its first error, or its code', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const all = Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' });
    expect(errorReason(new TypeError('fetch failed', { cause: all }))).toBe(
      'fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
    );
    const bare = Object.assign(new AggregateError([], ''), { code: 'ETIMEDOUT' });
    expect(errorReason(new TypeError('fetch failed', { cause: bare }))).toBe('fetch failed (ETIMEDOUT)');
  });

  it('an error without a cause is its message; a cause already in the message is not repeated', () => {
    expect(errorReason(new Error('Kick answered 500'))).toBe('Kick answered 500');
    const cause = new Error('timeout');
    expect(errorReason(new Error('request failed: timeout', { cause }))).toBe('request failed: timeout');
    expect(errorReason('plain')).toBe('plain');
  });
});

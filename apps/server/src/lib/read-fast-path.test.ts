/** The fast path's own rules, with stand-ins for the app (the real app: plugins/read-fast-path.test.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readyBody } from './read-cache';
import { ReadFastPath, type FastPathDeps } from './read-fast-path';

function setUp(overrides: Partial<FastPathDeps> = {}) {
  const path = new ReadFastPath();
  path.add('/api/site', { key: 'site', route: '/api/site', cacheControl: 'no-cache' });
  const failures: unknown[] = [];
  const answered: number[] = [];
  path.connect({
    peek: () => readyBody('{"ok":true}'),
    passesCsrf: () => true,
    securityHeaders: [['X-Frame-Options', 'DENY']],
    clientAddress: () => '192.0.2.1',
    takeBudget: (_key, done) => done(true),
    answered: (_route, _url, status) => answered.push(status),
    failed: (err) => failures.push(err),
    ...overrides,
  });
  const res = {
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    status: 0,
    writeHead(status: number) {
      this.status = status;
      this.headersSent = true;
    },
    end() {
      this.writableEnded = true;
    },
    destroy() {
      this.destroyed = true;
    },
  };
  let routed = 0;
  const handle = (url = '/api/site', method = 'GET') =>
    path.handle({ method, url, headers: {} } as unknown as IncomingMessage, res as unknown as ServerResponse, () => {
      routed += 1;
    });
  return { path, res, handle, failures, answered, routed: () => routed };
}

describe('ReadFastPath', () => {
  it('answers a GET of a registered path and hands anything else to the router', () => {
    const s = setUp();
    s.handle();
    expect(s.res.status).toBe(200);
    expect(s.answered).toEqual([200]);
    s.handle('/api/site?x=1');
    s.handle('/api/Site');
    s.handle('/api/site', 'HEAD');
    expect(s.routed()).toBe(3);
  });

  it('hands the request to the router when something throws before the answer begins', () => {
    const s = setUp({
      peek: () => {
        throw new Error('clock broke');
      },
    });
    s.handle();
    expect(s.routed()).toBe(1);
    expect(s.res.headersSent).toBe(false);
    expect(s.failures).toHaveLength(1);
  });

  it('keeps a complete answer when recording it throws (no second answer, the connection kept)', () => {
    const s = setUp({
      answered: () => {
        throw new Error('metrics broke');
      },
    });
    s.handle();
    expect(s.res.status).toBe(200);
    expect(s.routed()).toBe(0);
    expect(s.res.destroyed).toBe(false);
    expect(s.failures).toHaveLength(1);
  });

  it('refuses to register a path with parameters', () => {
    expect(() => new ReadFastPath().add('/api/x/:id', { key: 'x', route: '/api/x/:id', cacheControl: '' })).toThrow();
  });
});

/** One log line per answered request (plugins/request-log.ts). */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, LogCapture, type TestApp } from '../../test/app';
import { logRequest, requestLineText } from './request-log';

describe('request log with REQUEST_LOG=all', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await buildTestApp({ logs, env: { REQUEST_LOG: 'all' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const lines = () => logs.lines.filter((l) => l.msg === 'request');

  it('logs method, path without the query, status, time, the signed-in user and the request id', async () => {
    const user = await t.signIn();
    logs.lines.length = 0;
    expect((await t.call({ url: '/api/User/ping?x=secret', as: user })).statusCode).toBe(200);
    expect((await t.call({ url: '/api/admin/users' })).statusCode).toBe(401);
    expect(lines()).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/User/ping', status: 200, user: user.user.id }),
      expect.objectContaining({ method: 'GET', url: '/api/admin/users', status: 401 }),
    ]);
    for (const line of lines()) {
      expect(line.reqId).toMatch(/^req-/);
      expect(typeof line.ms).toBe('number');
    }
  });

  it('leaves out a healthy /healthz probe', async () => {
    logs.lines.length = 0;
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect(lines()).toEqual([]);
  });
});

describe('request log at the default REQUEST_LOG (changes)', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await buildTestApp({
      logs,
      routes: (app) => {
        app.post('/api/test/write', { config: { access: 'user' } }, async () => ({ ok: true }));
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const lines = () => logs.lines.filter((l) => l.msg === 'request');

  it('logs writes, refusals and errors, not a plain read answered in time', async () => {
    const user = await t.signIn();
    logs.lines.length = 0;
    expect((await t.call({ url: '/api/User/ping', as: user })).statusCode).toBe(200);
    expect((await t.call({ url: '/api/site' })).statusCode).toBe(200);
    expect((await t.call({ url: '/api/admin/users' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/no-such-thing' })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: '/api/test/write', as: user, body: {} })).statusCode).toBe(200);
    expect(lines()).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/admin/users', status: 401 }),
      expect.objectContaining({ method: 'GET', url: '/api/no-such-thing', status: 404 }),
      expect.objectContaining({ method: 'POST', url: '/api/test/write', status: 200, user: user.user.id }),
    ]);
  });

  it('logs a slow read, and every read when the policy says all', () => {
    const written: string[] = [];
    const logger = pino({ timestamp: false }, { write: (l: string) => written.push(l) });
    logRequest(logger, { all: false, slowMs: 1000 }, 'GET', '/api/site', 200, 999, undefined);
    expect(written).toEqual([]);
    logRequest(logger, { all: false, slowMs: 1000 }, 'GET', '/api/site?x=1', 200, 1000, undefined);
    logRequest(logger, { all: true, slowMs: 1000 }, 'HEAD', '/api/site', 200, 1, undefined);
    expect(written.map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/site', status: 200, ms: 1000 }),
      expect.objectContaining({ method: 'HEAD', url: '/api/site', status: 200, ms: 1 }),
    ]);
  });
});

describe('the pre-serialised request line', () => {
  const capture = (options: pino.LoggerOptions = {}) => {
    const written: string[] = [];
    const logger = pino(
      { timestamp: () => ',"time":1764300000000', ...options },
      { write: (l: string) => written.push(l) },
    );
    return { logger, written };
  };

  it('is byte for byte the line pino writes for the same fields, on the app logger and a request child', () => {
    const { logger, written } = capture({ redact: ['req.headers.cookie'] });
    const child = logger.child({ reqId: 'req-7' });
    const cases = [
      { log: logger, fields: { reqId: 'req-8', method: 'GET', url: '/api/site', status: 200, ms: 0 } },
      { log: child, fields: { method: 'POST', url: '/api/x "quoted" \\ é', status: 409, ms: 12, user: 'u-1' } },
      { log: child, fields: { method: 'GET', url: '/assets/a.js', status: 304, ms: 3, user: undefined } },
      { log: logger, fields: { method: 'GET', url: '/x\u0001\t😀\ud800', status: 404, ms: 1, user: 'Zoë "Z"' } },
    ];
    for (const { log, fields } of cases) {
      written.length = 0;
      log.info(fields, 'request');
      expect(requestLineText(log, fields)).toBe(written[0]);
    }
  });

  it('is not used for a logger whose lines pino changes (a mixin): logRequest goes through pino then', () => {
    const { logger, written } = capture({ mixin: () => ({ extra: 1 }) });
    const fields = { method: 'GET', url: '/api/site', status: 200, ms: 1 };
    expect(requestLineText(logger, fields)).toBeNull();
    logRequest(logger, { all: true, slowMs: 1000 }, fields.method, fields.url, fields.status, fields.ms, undefined);
    expect(JSON.parse(written[0]!)).toMatchObject({ ...fields, extra: 1, msg: 'request' });
  });
});

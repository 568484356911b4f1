/** One log line per answered request (plugins/request-log.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, LogCapture, type TestApp } from '../../test/app';

describe('request log', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await buildTestApp({ logs });
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

/**
 * The request log is written asynchronously in 64 KB batches (lib/log-destination.ts,
 * docs/operations.md#logs); a graceful stop must still write every line. The server itself is
 * started at the default log level with its standard output on a pipe, as a process manager runs it.
 */
import { expect, it } from 'vitest';
import { ServerProcesses } from '../test/processes';

it('writes every request line, and the last lines, before a graceful stop exits', async () => {
  const server = new ServerProcesses({
    env: {
      NODE_ENV: 'development',
      DATA_DIR: ':memory:',
      DEMO_DATA: '0',
      DRAIN_MS: '0',
      LEADERBOARD_POLLER: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Every read gets its line (the default logs writes, refusals and slow requests only).
      REQUEST_LOG: 'all',
    },
  });
  let stdout = '';
  try {
    const [base] = (await server.start()).urls;
    const headers = { 'X-Requested-With': 'kickback' };
    // The cached read is answered on the fast path, the other through the router: both log.
    for (let i = 0; i < 200; i++) expect((await fetch(`${base}/api/site`, { headers })).status).toBe(200);
    for (let i = 0; i < 20; i++) await fetch(`${base}/api/Product/GetProducts`, { headers });
    expect((await server.stop(0)).code).toBe(0);
    stdout = server.members[0]!.stdout.join('');
  } finally {
    await server.stopAll('SIGKILL');
  }
  const lines = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; url?: string });
  expect(lines.filter((l) => l.msg === 'request' && l.url === '/api/site')).toHaveLength(200);
  expect(lines.filter((l) => l.msg === 'request' && l.url === '/api/Product/GetProducts')).toHaveLength(20);
  expect(lines.map((l) => l.msg)).toContain('shutting down');
});

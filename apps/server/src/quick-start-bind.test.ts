/**
 * The quick start is never an open door (docs/go-live.md#dev-sign-in-never-runs-on-a-public-address-by-accident):
 * the real server, started as `npm start` starts it (no HOST, dev sign-in), cannot be reached
 * through this machine's network address; told to listen on every interface, its dev sign-in
 * still refuses a client that comes through that address.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcesses } from '../test/processes';

/** One of this machine's own addresses that is not loopback (its network card's). */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe.skipIf(!outside)('the quick start on a machine with a network address', () => {
  let quickStart: ServerProcesses;
  let everywhere: ServerProcesses;
  beforeAll(async () => {
    const env = { DATA_DIR: ':memory:', LOG_LEVEL: 'warn', LEADERBOARD_POLLER: '0', DEMO_DATA: '0' };
    [quickStart, everywhere] = await Promise.all([
      new ServerProcesses({ env: { ...env, HOST: '', LOG_LEVEL: 'info' } }).start(),
      new ServerProcesses({ env: { ...env, HOST: '0.0.0.0' } }).start(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([quickStart?.stopAll(), everywhere?.stopAll()]);
  });

  it('logs each migration it applied to the fresh database, once', async () => {
    const applied = () =>
      quickStart.members[0]!.stdout.join('')
        .split('\n')
        .filter((l) => l.includes('"msg":"migration applied: '))
        .map((l) => (JSON.parse(l) as { migration: string }).migration);
    // Log lines reach standard output in batches, possibly after the server answers
    // (docs/operations.md#logs): the last migration's line is the one waited for.
    await expect.poll(() => applied().length).toBeGreaterThan(10);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const names = applied();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort());
  });

  it('listens on loopback only without HOST', async () => {
    const { port } = quickStart.members[0]!;
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const fromOutside = await fetch(`http://${outside}:${port}/healthz`).then(
      (r) => `answered ${r.status}`,
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    expect(fromOutside).toBe('ECONNREFUSED');
  });

  it('with HOST=0.0.0.0, dev sign-in answers this machine and refuses a client through the network address', async () => {
    const { port } = everywhere.members[0]!;
    const signInPage = async (host: string) => {
      const start = await fetch(`http://${host}:${port}/auth/steam/signin`, { redirect: 'manual' });
      const login = new URL(start.headers.get('location')!);
      return fetch(`http://${host}:${port}${login.pathname}${login.search}`);
    };
    expect((await signInPage('127.0.0.1')).status).toBe(200);
    const refused = await signInPage(outside!);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Dev sign-in works on this machine only');
    // The site itself answers there: only the sign-in is closed.
    expect((await fetch(`http://${outside}:${port}/healthz`)).status).toBe(200);
  });
});

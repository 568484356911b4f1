/**
 * /metrics: Prometheus text with HTTP latency, hub calls, sockets, webhook deliveries, timer
 * lateness and pool waits; only for configured addresses or the bearer token, off otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { buildTestApp, type TestApp } from '../../test/app';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { chatPayload, postDelivery, signedDelivery } from '../../test/kick';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics behind a proxy (TRUST_PROXY)', () => {
  // A proxy on 127.0.0.1 that appends (as Caddy does after a trusted proxy) adds the real client (198.51.100.20) to whatever the client sent.
  for (const trust of ['1', '127.0.0.1', 'loopback, 10.0.0.0/8']) {
    it(`with TRUST_PROXY=${trust} a forged leftmost address is not the client's`, async () => {
      const t = await buildTestApp({ env: { METRICS_ALLOW: '10.1.2.3', TRUST_PROXY: trust } });
      try {
        const via = (xff: string) =>
          t.app.inject({ url: '/metrics', headers: { 'x-forwarded-for': xff }, remoteAddress: '127.0.0.1' });
        expect((await via('10.1.2.3, 198.51.100.20')).statusCode).toBe(403);
        expect((await via('10.1.2.3,198.51.100.20')).statusCode).toBe(403);
        expect((await via('198.51.100.20')).statusCode).toBe(403);
        // The allowed address itself, behind the proxy: allowed.
        expect((await via('10.1.2.3')).statusCode).toBe(200);
        // A hop count believes whatever peer connects (the processes are reachable only through the
        // proxy); an address list believes the header only from those addresses.
        if (trust === '1') return;
        const direct = await t.app.inject({
          url: '/metrics',
          headers: { 'x-forwarded-for': '10.1.2.3' },
          remoteAddress: '203.0.113.50',
        });
        expect(direct.statusCode).toBe(403);
      } finally {
        await t.close();
      }
    });
  }

  it('refuses a TRUST_PROXY it cannot read', async () => {
    await expect(buildTestApp({ env: { TRUST_PROXY: 'not-an-address' } })).rejects.toThrow(/TRUST_PROXY/);
  });
});

describe('/metrics', () => {
  let t: TestApp;
  let url: string;
  let clock: WallClock;
  beforeAll(async () => {
    clock = new WallClock();
    t = await buildTestApp({ clock, env: { METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.1.2.3' } });
    url = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = (headers: Record<string, string> = {}, remoteAddress = '192.0.2.1') =>
    t.app.inject({ url: '/metrics', headers, remoteAddress });

  it('answers only the configured addresses and the bearer token', async () => {
    expect((await scrape()).statusCode).toBe(403);
    expect((await scrape({ authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(403);
    expect((await scrape({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    expect((await scrape({}, '10.1.2.3')).statusCode).toBe(200);
  });

  it('counts HTTP latency per route, hub calls, sockets, room broadcasts, webhook deliveries, late timers and pool waits', async () => {
    expect((await t.call({ url: '/API/LeaderBoard/now' })).statusCode).toBe(200);
    expect((await postDelivery(t, signedDelivery(chatPayload(t, 'metered', 'hi')))).statusCode).toBe(200);

    const admin = await t.signIn({ role: 'Admin' });
    const [alice, bob] = [await t.signIn(), await t.signIn()];
    const created = await t.call({
      method: 'POST',
      url: '/api/SplitOrStealGame/create',
      as: admin,
      body: { reward: 1, counterInSeconds: 5, isPrivate: false },
    });
    const gameId = created.json().gameId as string;
    const sockets = [alice, bob].map(
      (who) => new HubClient(url, splitOrStealHub, { query: { gameid: gameId }, cookie: who.cookie }),
    );
    await Promise.all(sockets.map((s) => s.connected()));
    await sockets[0]!.ok('JoinGame', 1);
    const starting = await sockets[1]!.ok<SplitOrStealState>('JoinGame', 2);
    await sockets[1]!.call('JoinGame', 'x');
    clock.set(new Date(new Date(starting.phaseEndsAt!).getTime() + 1500));
    expect(await t.app.timers.runDue()).toBeGreaterThan(0);

    // A room's state broadcasts are coalesced (50 ms): the last one is written once its window ends.
    const broadcastsIn = (body: string) =>
      Number(/kickback_hub_broadcast_seconds_count\{hub="\/SplitOrSteal"\} (\d+)/.exec(body)?.[1] ?? 0);
    let res = await scrape({ authorization: `Bearer ${TOKEN}` });
    for (let tries = 0; broadcastsIn(res.body) < 2 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await scrape({ authorization: `Bearer ${TOKEN}` });
    }
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = res.body;
    expect(text).toMatch(
      /kickback_http_request_duration_seconds_count\{method="GET",route="\/api\/LeaderBoard\/now",status="200"\} 1/,
    );
    expect(text).toMatch(/kickback_webhook_deliveries_total\{route="\/webhooks\/kick",status="200"\} 1/);
    expect(text).toMatch(/kickback_hub_calls_total\{hub="\/SplitOrSteal",call="JoinGame",outcome="ok"\} 2/);
    expect(text).toMatch(/kickback_hub_calls_total\{hub="\/SplitOrSteal",call="JoinGame",outcome="refused"\} 1/);
    expect(text).toMatch(/kickback_hub_sockets 2/);
    // Each state broadcast of the game room: its fan-out time and CPU, and a frame per socket (2).
    const broadcasts = broadcastsIn(text);
    expect(broadcasts).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/kickback_hub_broadcast_cpu_seconds_total\{hub="\/SplitOrSteal"\} \d/);
    const frames = Number(/kickback_hub_broadcast_frames_total\{hub="\/SplitOrSteal"\} (\d+)/.exec(text)?.[1]);
    expect(frames).toBe(2 * broadcasts);
    expect(text).toMatch(/kickback_game_timer_lateness_seconds_count 1/);
    expect(text).toMatch(/kickback_game_timer_lateness_seconds_bucket\{le="1"\} 0/);
    expect(text).toMatch(/kickback_db_pool_waiting 0/);
    expect(text).toMatch(/kickback_nodejs_eventloop_lag_seconds/);
    for (const s of sockets) s.close();
  });
});

describe('/metrics without METRICS_ALLOW or METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const t = await buildTestApp();
    try {
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

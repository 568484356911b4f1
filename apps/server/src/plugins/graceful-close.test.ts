/**
 * Graceful drain (main.ts on SIGTERM): while draining, /healthz answers 503 so the load balancer
 * takes the process out of rotation; on close, a hub call being handled is answered before the
 * sockets are dropped (the client then reconnects elsewhere).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, defineHub, noPayload } from '@kickback/common/hubs/hub';
import { buildTestApp, type TestApp } from '../../test/app';
import { HubClient, listen } from '../../test/hub-client';

const slowHub = defineHub({
  namespace: '/TestSlow',
  query: z.object({}),
  calls: { Slow: call(noPayload, z.object({ done: z.boolean() }), 'visitor') },
  events: {},
});

let t: TestApp | null = null;
let client: HubClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await t?.close().catch(() => undefined);
  t = null;
});

describe('graceful drain', () => {
  it('/healthz answers 503 "draining" once the process is asked to stop', async () => {
    t = await buildTestApp();
    const before = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ status: 'ok' });

    t.app.lifecycle.draining = true;
    const during = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(during.statusCode).toBe(503);
    expect(during.json()).toMatchObject({ status: 'draining' });
  });

  it('gives a plugin 120 s to start (it may wait on a slow database), not the 10 s Fastify gives by default', async () => {
    t = await buildTestApp();
    expect(t.app.initialConfig.pluginTimeout).toBe(120_000);
  });

  it('a hub call in progress when the server closes is answered before its socket is dropped', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    t = await buildTestApp({
      routes: (app) =>
        app.realtime.register(slowHub, {
          connect: async () => undefined,
          calls: {
            Slow: async () => {
              started();
              await gate;
              return { done: true };
            },
          },
        }),
    });
    const url = await listen(t.app);
    client = await new HubClient(url, slowHub, { query: {} }).connected();

    const answer = client.call<{ done: boolean }>('Slow');
    await running;
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.socket.connected).toBe(true); // still waiting for the call
    release();
    expect(await answer).toEqual({ ok: true, data: { done: true } });
    await closing;
    await client.until(() => !client!.socket.connected, 'disconnect');
  });
});

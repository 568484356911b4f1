/**
 * The Integrations overview (`GET /api/admin/integrations`, `/healthz?details=1`): real or simulated,
 * configured or not, last success, last failure with its reason, next attempt, the live state —
 * here with one partner failing behind its bot protection, as an operator would find it.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationRow, IntegrationsOverview } from '@kickback/common/http/integrations';
import { buildTestApp, type TestApp } from '../../../test/app';
import { postDelivery, signedDelivery } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const rowOf = (o: IntegrationsOverview, id: string): IntegrationRow => {
  const found = o.rows.find((r) => r.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};

describe('Integrations overview', () => {
  it('shows every service, a failing partner with its reason, and the stream going live', async () => {
    const app = await buildTestApp();
    t = app;
    const admin = await app.signIn({ role: 'Admin' });
    await app.app.leaderboards.runCycle(7);
    await app.app.inject({
      method: 'POST',
      url: '/dev/partners/cases/bot-protection',
      headers: { 'content-type': 'application/json' },
      payload: '{"on":true}',
    });
    app.clock.advance(5 * 60_000);
    await app.app.leaderboards.runCycle(7);
    const live = signedDelivery(
      {
        broadcaster: { user_id: 1000001, username: 'vex' },
        is_live: true,
        title: 'Case opening',
        started_at: '2026-01-05T12:04:00Z',
        ended_at: null,
      },
      { type: 'livestream.status.updated', at: app.clock.now() },
    );
    expect((await postDelivery(app, live)).statusCode).toBe(200);

    const res = await app.call({ url: '/api/admin/integrations', as: admin });
    expect(res.statusCode).toBe(200);
    const o = res.json<IntegrationsOverview>();
    expect(o.rows.map((r) => r.id)).toEqual([
      'steam',
      'kick.webhooks',
      'kick.publicKey',
      'kick.subscriptions',
      'kick.websocket',
      'kick.bot',
      'discord.oauth',
      'discord.bot',
      'partner.clash',
      'partner.royale',
      'partner.csgobig',
      'partner.howl',
      'partner.rustmagic',
      'partner.roobet',
      'partner.cases',
    ]);
    expect(rowOf(o, 'steam')).toMatchObject({ mode: 'simulated', configured: true });
    expect(rowOf(o, 'kick.webhooks')).toMatchObject({
      mode: 'simulated',
      health: 'ok',
      lastSuccessAt: app.clock.now().toISOString(),
    });
    expect(rowOf(o, 'kick.subscriptions')).toMatchObject({ mode: 'off', health: 'off', configured: false });
    expect(rowOf(o, 'kick.websocket')).toMatchObject({
      mode: 'off',
      note: expect.stringContaining('webhooks recommended'),
    });
    expect(rowOf(o, 'kick.bot')).toMatchObject({ mode: 'simulated', note: 'not connected: replies are only logged' });
    expect(rowOf(o, 'partner.cases')).toMatchObject({
      mode: 'simulated',
      health: 'failing',
      lastSuccessAt: expect.any(String),
      lastFailure: expect.stringMatching(
        /^HTTP 403 — a bot-protection page, not the API: set this partner's cookie or headers in PARTNER_HEADERS: <!DOCTYPE html>/,
      ),
      nextAttemptAt: expect.any(String),
    });
    expect(rowOf(o, 'partner.howl')).toMatchObject({ health: 'waiting' });
    expect(o.kickLive).toEqual({ isLive: true, title: 'Case opening', changedAt: '2026-01-05T12:04:00.000Z' });
    expect(o.kickBot).toMatchObject({
      connected: false,
      cannotConnect: null,
      tokenKeySource: 'derived from SESSION_SECRET (development only)',
    });
  });

  it('is for admins: 401 without sign-in, 403 for users; /healthz?details=1 likewise, plain /healthz for all', async () => {
    const app = await buildTestApp();
    t = app;
    const user = await app.signIn({ name: 'Viewer' });
    const admin = await app.signIn({ role: 'Admin' });
    expect((await app.call({ url: '/api/admin/integrations' })).statusCode).toBe(401);
    expect((await app.call({ url: '/api/admin/integrations', as: user })).statusCode).toBe(403);
    expect((await app.call({ url: '/healthz' })).json()).toEqual({ status: 'ok', database: app.database.kind });
    expect((await app.call({ url: '/healthz?details=1' })).statusCode).toBe(401);
    expect((await app.call({ url: '/healthz?details=1', as: user })).statusCode).toBe(403);
    const details = await app.call({ url: '/healthz?details=1', as: admin });
    expect(details.json()).toMatchObject({
      status: 'ok',
      integrations: { rows: expect.any(Array), kickBot: expect.any(Object) },
    });
    expect(details.body).not.toMatch(/client_secret|kickback-dev-secret|access_token/);
  });
});

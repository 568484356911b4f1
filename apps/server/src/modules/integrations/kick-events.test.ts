/**
 * Admin → Integrations, Kick events: per event type the last delivery and the 24-hour count
 * (reconcile), which events are subscribed (their feature is on), "Connect Kick bot" asking only
 * for the scopes of the features that are on, and the features whose scopes the token lacks.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationsOverview } from '@kickback/common/http/integrations';
import { kickBotTokens } from '../../db/schema/kick-bot';
import { buildTestApp, type TestApp } from '../../../test/app';
import { chatPayload, connectKickBot, postDelivery, signedDelivery } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import fixtures from '../../integrations/fixtures/kick-webhook-events.json';
import { eventsToSubscribe } from '../../integrations/kick/features';
import { KickEventHandlers } from '../../integrations/kick/event-handlers';
import { KICK_EVENT_TYPES } from '../../integrations/kick/events';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const overview = async () => {
  const admin = await t.signIn({ role: 'Admin' });
  return (await t.call({ url: '/api/admin/integrations', as: admin })).json<IntegrationsOverview>();
};
const stat = (o: IntegrationsOverview, type: string) => o.kickEvents.find((e) => e.type === type);

describe('Kick events on Admin → Integrations', () => {
  it('shows per event type the last delivery and the deliveries of the last 24 hours', async () => {
    t = await buildTestApp();
    const ban = fixtures['moderation.banned'];
    for (let i = 0; i < 2; i++) {
      await postDelivery(t, signedDelivery(ban, { type: 'moderation.banned', at: t.clock.now() }));
    }
    await postDelivery(t, signedDelivery(chatPayload(t, 'talker', 'hi'), { at: t.clock.now() }));
    let o = await overview();
    expect(stat(o, 'moderation.banned')).toEqual({
      type: 'moderation.banned',
      subscribed: true,
      subscription: 'off',
      lastDeliveryAt: t.clock.now().toISOString(),
      last24h: 2,
    });
    expect(stat(o, 'chat.message.sent')).toMatchObject({ subscribed: true, last24h: 1 });
    // Support rewards handle KICKs: subscribed, nothing delivered yet.
    expect(stat(o, 'kicks.gifted')).toEqual({
      type: 'kicks.gifted',
      subscribed: true,
      subscription: 'off',
      lastDeliveryAt: null,
      last24h: 0,
    });

    // A day later: nothing in the last 24 hours, the last delivery still shown.
    const then = t.clock.now().toISOString();
    t.clock.advance(25 * 60 * 60 * 1000);
    o = await overview();
    expect(stat(o, 'moderation.banned')).toMatchObject({ lastDeliveryAt: then, last24h: 0 });
    expect(stat(o, 'chat.message.sent')).toMatchObject({ lastDeliveryAt: then, last24h: 0 });
  });

  it('subscribes to the events of the features that are on: a handler turns its feature on', async () => {
    const registry = new KickEventHandlers();
    expect(eventsToSubscribe(registry)).toEqual(['chat.message.sent']);
    registry.register('kicks.gifted', 'test', async () => undefined);
    expect(eventsToSubscribe(registry)).toContain('kicks.gifted');
    // The app's modules turn every feature on: all ten documented events.
    t = await buildTestApp();
    expect([...eventsToSubscribe(t.app.chat.kickEvents)].sort()).toEqual([...KICK_EVENT_TYPES].sort());
  });

  it('asks Kick for the scopes of the features that are on, and names a feature whose scope the token lacks', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const start = await t.call({
      method: 'POST',
      url: '/api/admin/integrations/kick-bot/connect',
      as: admin,
      body: {},
    });
    const scope = new URL(start.json<{ url: string }>().url).searchParams.get('scope')?.split(' ');
    expect(scope).toEqual(
      expect.arrayContaining([
        'chat:write',
        'moderation:ban',
        'kicks:read',
        'channel:rewards:read',
        'channel:rewards:write',
      ]),
    );

    await connectKickBot(t, admin);
    expect((await overview()).kickFeatures.every((f) => f.missing.length === 0)).toBe(true);
    // A token from before bans counted: the bans feature says what it lacks.
    await t.database.db.update(kickBotTokens).set({ scope: 'user:read chat:write events:subscribe' });
    const lacking = (await overview()).kickFeatures.filter((f) => f.missing.length > 0);
    expect(lacking).toEqual(
      expect.arrayContaining([
        { id: 'bans', label: 'Bans that count', scopes: ['moderation:ban'], missing: ['moderation:ban'] },
      ]),
    );
    expect(lacking.flatMap((f) => f.missing)).not.toContain('chat:write');
  });

  it('while subscribing to Kick fails, no event is called subscribed', async () => {
    t = await buildTestApp({
      env: { KICK_CLIENT_ID: 'client-id', KICK_CLIENT_SECRET: 'client-secret', KICK_BROADCASTER_USER_ID: '42' },
    });
    // Background work (the subscription keeper) runs in a listening server only: its report, as it makes it.
    t.app.integrationStatus.failed('kick.subscriptions', 'fetch failed (getaddrinfo ENOTFOUND api.kick.com)');
    let o = await overview();
    expect(o.rows.find((r) => r.id === 'kick.subscriptions')).toMatchObject({
      health: 'failing',
      lastFailure: 'fetch failed (getaddrinfo ENOTFOUND api.kick.com)',
    });
    expect(o.kickEvents.length).toBe(KICK_EVENT_TYPES.length);
    for (const e of o.kickEvents) expect(e, e.type).toMatchObject({ subscribed: true, subscription: 'failing' });
    // Once Kick confirms them (a later check), they are subscribed.
    t.clock.advance(60_000);
    t.app.integrationStatus.succeeded('kick.subscriptions', '10 events subscribed');
    o = await overview();
    for (const e of o.kickEvents) expect(e, e.type).toMatchObject({ subscribed: true, subscription: 'ok' });
  });
});

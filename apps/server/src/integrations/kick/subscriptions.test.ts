import { describe, expect, it } from 'vitest';
import { kickAppApi } from '../../../test/kick';
import pino from 'pino';
import { ensureKickSubscriptions, keepKickSubscriptions, type SubscriptionReport } from './subscriptions';

function fakeKick(existing: Array<{ event: string; broadcaster_user_id: number }>) {
  const calls: Array<{ method: string; url: string; auth: string | null; body: string }> = [];
  const http: typeof fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, auth: new Headers(init?.headers).get('authorization'), body: String(init?.body ?? '') });
    if (url === 'https://id.kick.com/oauth/token') {
      return Response.json({ access_token: 'app-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'GET') {
      return Response.json({
        data: existing.map((e, i) => ({ id: `sub-${i}`, app_id: 'app', ...e, version: 1, method: 'webhook' })),
        message: 'OK',
      });
    }
    if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { events: Array<{ name: string }> };
      return Response.json({
        data: body.events.map((e, i) => ({ name: e.name, version: 1, subscription_id: `new-${i}`, error: null })),
        message: 'OK',
      });
    }
    return new Response('{}', { status: 404 });
  };
  return { api: kickAppApi(http), calls };
}

/** The events of the features that are on in these tests. */
const events = [
  'chat.message.sent',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'livestream.status.updated',
];

describe('ensureKickSubscriptions', () => {
  it('creates only the missing webhook subscriptions for the channel, with an app token', async () => {
    const { api, calls } = fakeKick([
      { event: 'chat.message.sent', broadcaster_user_id: 42 },
      { event: 'channel.subscription.new', broadcaster_user_id: 99 }, // another channel's
    ]);
    const result = await ensureKickSubscriptions(api, '42', events);
    expect(result).toEqual({
      existing: ['chat.message.sent'],
      created: [
        'channel.subscription.new',
        'channel.subscription.renewal',
        'channel.subscription.gifts',
        'livestream.status.updated',
      ],
      failed: [],
    });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST https://id.kick.com/oauth/token',
      'GET https://api.kick.com/public/v1/events/subscriptions',
      'POST https://api.kick.com/public/v1/events/subscriptions',
    ]);
    expect(Object.fromEntries(new URLSearchParams(calls[0]?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client',
      client_secret: 'secret',
    });
    expect(calls[1]?.auth).toBe('Bearer app-token');
    expect(JSON.parse(calls[2]?.body ?? '')).toEqual({
      broadcaster_user_id: 42,
      events: [
        { name: 'channel.subscription.new', version: 1 },
        { name: 'channel.subscription.renewal', version: 1 },
        { name: 'channel.subscription.gifts', version: 1 },
        { name: 'livestream.status.updated', version: 1 },
      ],
      method: 'webhook',
    });
  });

  it('creates nothing when everything is in place, and reuses the app token', async () => {
    const all = [
      'chat.message.sent',
      'channel.subscription.new',
      'channel.subscription.renewal',
      'channel.subscription.gifts',
      'livestream.status.updated',
    ];
    const { api, calls } = fakeKick(all.map((event) => ({ event, broadcaster_user_id: 42 })));
    expect((await ensureKickSubscriptions(api, '42', events)).created).toEqual([]);
    await ensureKickSubscriptions(api, '42', events);
    expect(calls.filter((c) => c.url.endsWith('/oauth/token'))).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'POST' && c.url.includes('subscriptions'))).toHaveLength(0);
  });
});

describe('keepKickSubscriptions', () => {
  it('reports a check to every process in its turn, so the newest check is the last one shared', async () => {
    const { api } = fakeKick([]);
    let inTurn = false;
    const seen: string[] = [];
    const shared: SubscriptionReport = {
      succeeded: (_source, detail) => void seen.push(`${inTurn ? 'in turn' : 'out of turn'}: ${detail}`),
      failed: (_source, reason) => void seen.push(`${inTurn ? 'in turn' : 'out of turn'}: ${reason}`),
    };
    const stop = keepKickSubscriptions(
      api,
      '42',
      pino({ level: 'silent' }),
      undefined,
      () => events,
      async (fn) => {
        inTurn = true;
        try {
          return await fn();
        } finally {
          inTurn = false;
        }
      },
      shared,
    );
    try {
      const deadline = Date.now() + 20_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual(['in turn: 5 events subscribed']);
    } finally {
      stop();
    }
  });
});

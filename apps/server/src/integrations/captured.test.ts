/**
 * Payloads captured from the real services (docs/integrations.md#captured-payloads), each through the
 * project's own route or parser: Kick's webhook body and header set (UUID message id, `emotes:
 * null`, nanosecond timestamps), a reply, an anonymous gift, Pusher frames, Discord's token and
 * 50007 answers (and its 429, which the simulator must match), and a Clash row. Fields the
 * reference elides ("…") are filled with plausible values; everything it quotes is verbatim.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, kickChatActivity } from '../db/schema/chat';
import { ManualClock } from '../lib/clock';
import { buildTestApp, type TestApp } from '../../test/app';
import { postDelivery, signedDelivery } from '../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../test/warm';
import { createDiscordDmSender } from './discord/bot';
import { exchangeDiscordCode } from './discord/oauth';
import { chatMessageFromPusher } from './kick/pusher';
import { parseClashFamily } from './partners/clash/adapter';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const read = (name: string): unknown => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('Kick webhooks, captured', () => {
  const headers = read('kick-webhook-headers.json') as Record<string, string>;

  let app: TestApp;

  async function start() {
    const timestamp = headers['Kick-Event-Message-Timestamp'] ?? '';
    app = await buildTestApp({ clock: new ManualClock(timestamp), env: { KICK_BROADCASTER_USER_ID: '2437913' } });
    t = app;
    return new Date(timestamp);
  }

  function deliver(at: Date, body: unknown, type: string, messageId: string) {
    const d = signedDelivery(body, { at, type, messageId });
    d.headers['kick-event-subscription-id'] = headers['Kick-Event-Subscription-Id'] ?? '';
    expect(d.headers['kick-event-message-timestamp']).toBe(headers['Kick-Event-Message-Timestamp']);
    return postDelivery(app, d);
  }

  it('takes the captured chat.message.sent and its reply variant through POST /webhooks/kick', async () => {
    const at = await start();
    const first = await deliver(
      at,
      read('kick-webhook-chat.json'),
      'chat.message.sent',
      headers['Kick-Event-Message-Id'] ?? '',
    );
    expect(first.statusCode).toBe(200);
    const reply = await deliver(at, read('kick-webhook-reply.json'), 'chat.message.sent', '01JMN13ZK3PC8F4W6X2T0Y9B7E');
    expect(reply.statusCode).toBe(200);

    const rows = await app.database.db.select().from(chatMessages);
    const byId = new Map(rows.map((r) => [r.messageId, r]));
    expect(byId.get('306a5724-0c4b-4f1e-9d5a-8f3b2c1d0e9f')).toMatchObject({
      kickUserId: '2437913',
      kickUsername: 'thestaticmage',
      color: '#DEB2FF',
      badges: ['broadcaster'],
      isSubscriber: false,
      content: 'Test 8',
      sentAt: new Date('2025-08-20T07:07:44.479Z'),
    });
    expect(byId.get('8b1f0d2e-5a7c-4e3b-9f6d-1c2b3a4d5e6f')).toMatchObject({
      kickUsername: 'GiftyGamer',
      badges: ['sub_gifter', 'subscriber'],
      isSubscriber: true,
      content: 'replying to you',
    });
  });

  it('takes a gift whose gifter is anonymous (all fields null) and records the giftee', async () => {
    const at = await start();
    const res = await deliver(
      at,
      read('kick-webhook-gifts-anonymous.json'),
      'channel.subscription.gifts',
      '01JMN13ZK3PC8F4W6X2T0Y9B7F',
    );
    expect(res.statusCode).toBe(200);
    const [giftee] = await app.database.db
      .select()
      .from(kickChatActivity)
      .where(eq(kickChatActivity.kickUsername, 'LuckyGiftee'));
    expect(giftee).toMatchObject({ kickUserId: '4400551', isSubscriber: true });
  });
});

describe('Kick chat websocket (Pusher) frames, captured', () => {
  const frames = read('kick-pusher-frames.json') as { chat: string; reply: string };
  const dataOf = (frame: string) => {
    const outer = JSON.parse(frame) as { event: string; data: string; channel: string };
    expect(outer.event).toBe('App\\Events\\ChatMessageEvent');
    expect(typeof outer.data).toBe('string'); // double-encoded, as Kick sends it
    return JSON.parse(outer.data) as unknown;
  };

  it('reads the chat message and a reply whose original sender id is a string', () => {
    const now = new Date('2024-04-25T07:30:00Z');
    expect(chatMessageFromPusher(dataOf(frames.chat), now)).toMatchObject({
      messageId: 'cb4cd57d-3e1f-4b6a-9c2d-7e8f9a0b1c2d',
      kickUserId: '1840624',
      kickUsername: 'Slowpokee',
      color: '#E9113C',
      badges: [],
      content: 'mhm',
      sentAt: new Date('2024-04-25T07:29:14Z'),
    });
    expect(chatMessageFromPusher(dataOf(frames.reply), now)).toMatchObject({
      kickUsername: 'Replier',
      isSubscriber: true,
      content: 'agreed',
    });
  });
});

describe('Discord answers, captured', () => {
  const captured = read('discord-captured.json') as {
    token: Record<string, unknown>;
    rateLimited: { status: number; headers: Record<string, string>; body: Record<string, unknown> };
    noDms: { status: number; body: Record<string, unknown> };
  };

  it('exchanges a code against the captured token answer', async () => {
    const http: typeof fetch = async () => Response.json(captured.token);
    const token = await exchangeDiscordCode(
      http,
      { apiUrl: 'https://discord.com/api/v10', clientId: 'c', clientSecret: 's' },
      'code',
      'https://site.example/auth/discord/callback',
    );
    expect(token).toBe('6qrZcUqja7812RVdnEKjpzOL4CvHBFG');
  });

  it('sorts the captured 50007 as "DMs closed" (also what a user sharing no server gets)', async () => {
    const http: typeof fetch = async (input) => {
      if (String(input).endsWith('/users/@me/channels')) return Response.json({ id: '222222222222222222', type: 1 });
      return Response.json(captured.noDms.body, { status: captured.noDms.status });
    };
    const sender = createDiscordDmSender(
      { mode: 'discord', token: 't', api: 'https://discord.test/api', version: '10' },
      http,
    );
    const outcome = await sender.send('111111111111111111', 'hello');
    sender.close();
    expect(outcome).toMatchObject({ ok: false, reason: 'dms_closed' });
  });

  it('the simulator answers a 429 the way the captured one looks', async () => {
    const app = await buildTestApp();
    t = app;
    const bot = app.config.discord.bot;
    if (bot.mode !== 'simulator') throw new Error('expected the simulator');
    const post = (url: string, body: unknown) =>
      app.app.inject({
        method: 'POST',
        url: `/dev/discord/api/v10${url}`,
        headers: { 'content-type': 'application/json', authorization: `Bot ${bot.token}` },
        payload: JSON.stringify(body),
      });
    const channel = (await post('/users/@me/channels', { recipient_id: '123456789012345678' })).json<{ id: string }>();
    app.app.discordSimulator!.bot.rateLimitEvery = 1;
    const limited = await post(`/channels/${channel.id}/messages`, { content: 'x' });
    expect(limited.statusCode).toBe(captured.rateLimited.status);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.headers['x-ratelimit-scope']).toBe(captured.rateLimited.headers['x-ratelimit-scope']);
    const body = limited.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(Object.keys(captured.rateLimited.body).sort());
    expect(body.message).toBe(captured.rateLimited.body.message);
    expect(body.global).toBe(false);
    expect(Number(limited.headers['retry-after'])).toBe(Math.ceil(Number(body.retry_after)));
  });
});

describe('a Clash row, captured', () => {
  it('reads name, id, avatar and cents (÷100) from the captured row shape', () => {
    const window = {
      start: new Date('2026-03-02T00:00:00Z'),
      end: new Date('2026-03-09T00:00:00Z'),
      now: new Date('2026-03-04T12:00:00Z'),
    };
    const rows = parseClashFamily(
      read('clash-row.json'),
      { site: 1, unit: 'gems', avatarOrigin: 'https://clash.gg' },
      window,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        username: 'CaptureRow',
        externalId: '7211843',
        avatarUrl: 'https://clash.gg/avatars/7211843.png',
        wagered: 1534250n,
        unit: 'gems',
      }),
    ]);
  });
});

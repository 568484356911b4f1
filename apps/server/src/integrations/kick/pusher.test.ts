import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ChatMessage } from './chat-message';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import type { KickSubscriber } from './events';
import { ManualClock } from '../../lib/clock';
import { IntegrationStatus } from '../status';
import { KickPusherReader } from './pusher';

/** A minimal Pusher-protocol server, as Kick's chat websocket behaves. */
class FakePusher {
  readonly server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  readonly sockets: WebSocket[] = [];
  readonly received: Array<{ event: string; data: unknown }> = [];
  answerPings = true;
  activityTimeout = 120;

  constructor() {
    this.server.on('connection', (socket) => {
      this.sockets.push(socket);
      socket.on('message', (raw) => {
        const frame = JSON.parse(raw.toString()) as { event: string; data: { channel?: string } };
        this.received.push(frame);
        if (frame.event === 'pusher:subscribe') {
          socket.send(
            JSON.stringify({
              event: 'pusher_internal:subscription_succeeded',
              channel: frame.data.channel,
              data: '{}',
            }),
          );
        }
        if (frame.event === 'pusher:ping' && this.answerPings)
          socket.send(JSON.stringify({ event: 'pusher:pong', data: '{}' }));
      });
      socket.send(
        JSON.stringify({
          event: 'pusher:connection_established',
          data: JSON.stringify({ socket_id: `${this.sockets.length}.1`, activity_timeout: this.activityTimeout }),
        }),
      );
    });
  }

  static async start(configure: (s: FakePusher) => void = () => {}): Promise<FakePusher> {
    const s = new FakePusher();
    configure(s);
    await once(s.server, 'listening');
    return s;
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/app/key?protocol=7`;
  }

  latest(): WebSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no connection');
    return socket;
  }

  emit(event: string, data: unknown, channel = 'chatrooms.668.v2') {
    this.latest().send(JSON.stringify({ event, channel, data: JSON.stringify(data) }));
  }

  count(event: string): number {
    return this.received.filter((f) => f.event === event).length;
  }

  close() {
    for (const s of this.sockets) s.terminate();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function until(check: () => boolean, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let server: FakePusher;
let reader: KickPusherReader;
afterEach(async () => {
  await reader?.stop();
  await server?.close();
});

function startReader(
  opts: {
    pongTimeoutMs?: number;
    maxActivityMs?: number;
    status?: IntegrationStatus;
    goneBackoff?: { initialMs: number; maxMs: number };
  } = {},
) {
  const messages: ChatMessage[] = [];
  const subscribers: KickSubscriber[] = [];
  reader = new KickPusherReader({
    url: server.url,
    chatroomId: '668',
    log: pino({ level: 'silent' }),
    backoff: { initialMs: 20, maxMs: 100 },
    onMessage: async (m) => {
      messages.push(m);
    },
    onSubscribers: async (list) => {
      subscribers.push(...list);
    },
    ...opts,
  });
  reader.start();
  return { messages, subscribers };
}

const chatEvent = (id: string, content: string) => ({
  id,
  chatroom_id: 668,
  content,
  type: 'message',
  created_at: '2026-01-05T12:00:00+00:00',
  sender: {
    id: 9001,
    username: 'PusherPal',
    slug: 'pusherpal',
    identity: { color: '#1475E1', badges: [{ type: 'subscriber', text: 'Subscriber', count: 3 }] },
  },
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('KickPusherReader', () => {
  it('subscribes to chatrooms.<id>.v2 and turns ChatMessageEvent into pipeline messages', async () => {
    server = await FakePusher.start();
    const { messages, subscribers } = startReader();
    await until(() => reader.status === 'subscribed');
    expect(server.received[0]).toEqual({ event: 'pusher:subscribe', data: { auth: '', channel: 'chatrooms.668.v2' } });
    server.emit('App\\Events\\ChatMessageEvent', chatEvent('m-1', '!verify ABC123'));
    server.emit('App\\Events\\SubscriptionEvent', { chatroom_id: 668, username: 'NewSub', months: 1 });
    server.emit('App\\Events\\ChatMessageEvent', { id: 'broken' });
    await until(() => messages.length === 1 && subscribers.length === 1);
    expect(messages[0]).toEqual({
      messageId: 'm-1',
      kickUserId: '9001',
      kickUsername: 'PusherPal',
      color: '#1475E1',
      isSubscriber: true,
      badges: ['subscriber'],
      content: '!verify ABC123',
      sentAt: new Date('2026-01-05T12:00:00Z'),
    });
    expect(subscribers).toEqual([{ kickUserId: null, kickUsername: 'NewSub', expiresAt: null }]);
  });

  it('answers the server’s pings and pings after activity_timeout of silence', async () => {
    server = await FakePusher.start((s) => {
      s.activityTimeout = 1;
    });
    startReader({ maxActivityMs: 100 });
    await until(() => reader.status === 'subscribed');
    server.latest().send(JSON.stringify({ event: 'pusher:ping', data: '{}' }));
    await until(() => server.count('pusher:pong') === 1);
    await until(() => server.count('pusher:ping') >= 2); // keeps pinging while quiet, pong answered
    expect(server.sockets).toHaveLength(1);
  });

  it('reconnects (with backoff) when pongs stop or the connection drops, and resubscribes', async () => {
    server = await FakePusher.start((s) => {
      s.answerPings = false;
    });
    startReader({ maxActivityMs: 50, pongTimeoutMs: 50 });
    await until(() => server.sockets.length >= 2 && reader.status === 'subscribed');
    server.answerPings = true;
    const before = server.sockets.length;
    server.latest().terminate();
    await until(() => server.sockets.length === before + 1 && reader.status === 'subscribed');
    expect(server.count('pusher:subscribe')).toBe(server.sockets.length);
  });

  it('on a "gone" close (4000–4099) reports the source down, loudly, and keeps trying with a long backoff', async () => {
    server = await FakePusher.start();
    const status = new IntegrationStatus(new ManualClock('2026-03-04T12:00:00Z'));
    startReader({ status, goneBackoff: { initialMs: 200, maxMs: 1000 } });
    await until(() => reader.status === 'subscribed');
    expect(status.get('kick.websocket')).toMatchObject({ down: false, detail: 'chatrooms.668.v2' });
    server.latest().close(4001, 'Application does not exist');
    await until(() => status.get('kick.websocket').down);
    expect(reader.status).toBe('waiting');
    expect(status.get('kick.websocket').lastFailure).toBe('gone: closed with code 4001 ("do not reconnect")');
    expect(status.get('kick.websocket').nextAttemptAt).not.toBeNull();
    expect(server.sockets).toHaveLength(1); // the long backoff: not at once
    await until(() => reader.status === 'subscribed' && server.sockets.length === 2);
    expect(status.get('kick.websocket').down).toBe(false);
  });

  it('takes a handshake answered 404 (the endpoint moved) as gone, and says why', async () => {
    const http = createServer((_req, res) => {
      res.writeHead(404).end('Not Found');
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const status = new IntegrationStatus(new ManualClock('2026-03-04T12:00:00Z'));
    const lines: Array<{ level: number; msg: string }> = [];
    reader = new KickPusherReader({
      url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/app/gone`,
      chatroomId: '668',
      log: pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) }),
      goneBackoff: { initialMs: 60_000, maxMs: 60_000 },
      status,
      onMessage: async () => {},
      onSubscribers: async () => {},
    });
    reader.start();
    try {
      await until(() => status.get('kick.websocket').down);
      expect(status.get('kick.websocket').lastFailure).toBe('gone: Unexpected server response: 404');
      expect(reader.status).toBe('waiting');
      expect(lines.find((l) => l.msg.startsWith('kick chat websocket is gone'))).toMatchObject({ level: 50 });
    } finally {
      await reader.stop();
      http.close();
    }
  });

  it('stop() closes the connection and stops reconnecting', async () => {
    server = await FakePusher.start();
    startReader();
    await until(() => reader.status === 'subscribed');
    await reader.stop();
    await once(server.latest(), 'close');
    await new Promise((r) => setTimeout(r, 150));
    expect(server.sockets).toHaveLength(1);
  });
});

describe('a listening server with KICK_CHATROOM_ID', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('reads chat from the websocket into the pipeline: !verify links the account', async () => {
    server = await FakePusher.start();
    t = await buildTestApp({ env: { KICK_CHATROOM_ID: '668', KICK_PUSHER_URL: server.url } });
    const user = await t.signIn({ name: 'WsViewer' });
    const { key } = (await t.call({ url: '/api/User/link/kick', as: user })).json() as { key: string };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await until(() => server.count('pusher:subscribe') === 1);
    server.emit('App\\Events\\ChatMessageEvent', chatEvent('ws-1', `!verify ${key}`));
    const started = Date.now();
    while ((await t.reload(user.user.id)).kickId === null) {
      if (Date.now() - started > 5000) throw new Error('not linked');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await t.reload(user.user.id)).toMatchObject({ kickId: '9001', kickUsername: 'PusherPal' });
  });
});

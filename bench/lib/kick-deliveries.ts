/**
 * Kick webhook deliveries for the benchmarks (chat-ingest, bet-storm): a key pair the server is
 * told to trust, payloads shaped like Kick's (`chat.message.sent`, `channel.subscription.gifts`),
 * RSA signatures made on worker threads before a phase, and each delivery's whole HTTP request
 * built as bytes; plus the site calls the set-up makes.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { KeepAliveClient } from './keep-alive-client';
import { signIn } from './site';

/** A key pair made for the run: the server trusts the public key (KICK_WEBHOOK_PUBLIC_KEY). */
export function benchKickKeys(): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export const kickIdOf = (chatter: number) => String(20_000_000 + chatter);
export const nameOf = (chatter: number) => `chatter${chatter}`;

export interface Unsigned {
  /** The event type (Kick-Event-Type); chat when absent. */
  type?: string;
  messageId: string;
  timestamp: string;
  body: string;
}

/** Signs `messageId.timestamp.body` with RSA-SHA256 on worker threads (Kick's scheme). */
export async function signDeliveries(items: Unsigned[], privatePem: string): Promise<string[]> {
  const workers = 2;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createPrivateKey, sign } = require('node:crypto');
    const key = createPrivateKey(workerData.pem);
    parentPort.on('message', (items) => {
      parentPort.postMessage(items.map((i) =>
        sign('sha256', Buffer.from(i.messageId + '.' + i.timestamp + '.' + i.body), key).toString('base64')));
    });`;
  const out: string[] = new Array<string>(items.length);
  const chunk = Math.ceil(items.length / workers);
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const slice = items.slice(w * chunk, (w + 1) * chunk);
      if (slice.length === 0) return;
      const worker = new Worker(code, { eval: true, workerData: { pem: privatePem } });
      const signatures = await new Promise<string[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(slice);
      });
      await worker.terminate();
      signatures.forEach((s, k) => (out[w * chunk + k] = s));
    }),
  );
  return out;
}

let sequence = 0;
export function unsignedChat(chatter: number, content: string, at: Date): Unsigned {
  sequence += 1;
  const messageId = `bench-${at.getTime().toString(36)}-${sequence}`;
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const user = (id: string, username: string, identity: object | null) => ({
    is_anonymous: false,
    user_id: Number(id),
    username,
    is_verified: false,
    profile_picture: '',
    channel_slug: username,
    identity,
  });
  const body = JSON.stringify({
    message_id: `msg-${messageId}`,
    replies_to: null,
    broadcaster: user('1000001', 'vex', null),
    sender: user(kickIdOf(chatter), nameOf(chatter), {
      username_color: '#53FC18',
      badges: chatter % 10 === 0 ? [{ text: 'Subscriber', type: 'subscriber', count: 1 }] : [],
    }),
    content,
    emotes: [],
    created_at: timestamp,
  });
  return { messageId, timestamp, body };
}

export function request(port: number, u: Unsigned, signature: string): Buffer {
  const body = Buffer.from(u.body);
  return Buffer.from(
    `POST /webhooks/kick HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Kick-Event-Message-Id: ${u.messageId}\r\nKick-Event-Subscription-Id: 01JBENCHSUBSCRIPTION000000\r\n` +
      `Kick-Event-Signature: ${signature}\r\nKick-Event-Message-Timestamp: ${u.timestamp}\r\n` +
      `Kick-Event-Type: ${u.type ?? 'chat.message.sent'}\r\nKick-Event-Version: 1\r\nContent-Length: ${body.length}\r\n\r\n${u.body}`,
  );
}

export async function call<T>(
  base: string,
  path: string,
  cookie: string,
  body?: unknown,
  method: 'GET' | 'POST' | 'PUT' = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'x-requested-with': 'kickback',
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

export async function inBatches<T>(items: T[], size: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map((item, k) => fn(item, i + k)));
  }
}

/**
 * A site user (signed in through the dev provider) who linked Kick chatter `chatter` with `!verify`
 * in chat, granted `points` by the admin.
 */
export async function linkChatter(opts: {
  base: string;
  port: number;
  admin: string;
  client: KeepAliveClient;
  chatter: number;
  points: number;
  privatePem: string;
}): Promise<{ cookie: string; id: string }> {
  const { base, port, admin, client, chatter: i } = opts;
  const steamId = `7656119${String(8_600_000_000 + i).padStart(10, '0')}`;
  const cookie = await signIn(base, steamId, `bettor${i}`);
  const { json: me } = await call<{ openId: string }>(base, '/api/User/ping', cookie);
  const { json: code } = await call<{ key: string }>(base, '/api/User/link/kick', cookie);
  const u = unsignedChat(i, `!verify ${code.key}`, new Date());
  const [signature] = await signDeliveries([u], opts.privatePem);
  const status = await client.send(request(port, u, signature!));
  if (status !== 200) throw new Error(`!verify: HTTP ${status}`);
  const grant = await call(base, `/api/admin/users/${me.openId}/balance`, admin, {
    currency: 'points',
    amount: opts.points,
    reason: 'bench',
  });
  if (grant.status !== 200) throw new Error(`grant: HTTP ${grant.status}`);
  return { cookie, id: me.openId };
}

/** A `channel.subscription.gifts` payload as Kick documents it (a named gifter, `count` giftees). */
export function unsignedGifts(gifter: number, giftees: number[], at: Date): Unsigned {
  sequence += 1;
  const messageId = `bench-gift-${at.getTime().toString(36)}-${sequence}`;
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const user = (id: string, username: string) => ({
    is_anonymous: false,
    user_id: Number(id),
    username,
    is_verified: false,
    profile_picture: '',
    channel_slug: username,
    identity: null,
  });
  const body = JSON.stringify({
    broadcaster: user('1000001', 'vex'),
    gifter: user(kickIdOf(gifter), nameOf(gifter)),
    giftees: giftees.map((g) => user(kickIdOf(g), nameOf(g))),
    created_at: timestamp,
    expires_at: new Date(at.getTime() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  return { type: 'channel.subscription.gifts', messageId, timestamp, body };
}

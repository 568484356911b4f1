/**
 * Test helpers for Kick: deliveries signed like Kick's (with the simulator's key or another), chat
 * messages as the pipeline takes them, and Kick accounts linked to site users.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { users } from '../src/db/schema/users';
import { KickApi } from '../src/integrations/kick/api';
import type { ChatMessage } from '../src/integrations/kick/chat-message';
import { signKickDelivery } from '../src/integrations/kick/signature';
import { kickTimestamp, simulatedChatMessage } from '../src/integrations/kick/simulator';
import { simulatorKeyPair } from '../src/integrations/kick/simulator-keys';
import { ManualClock } from '../src/lib/clock';
import { ulid } from '../src/lib/ulid';
import type { TestApp, TestUser } from './app';

export interface SignedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

/** `payload` is JSON-encoded, or sent as is when it is a Buffer. */
export function signedDelivery(
  payload: unknown,
  opts: { type?: string; messageId?: string; at?: Date; key?: KeyObject } = {},
): SignedDelivery {
  const at = opts.at ?? new Date();
  const messageId = opts.messageId ?? ulid(at);
  const timestamp = kickTimestamp(at);
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'kick-event-message-id': messageId,
      'kick-event-subscription-id': '01JSUBSCRIPTION0000000000',
      'kick-event-signature': signKickDelivery(opts.key ?? simulatorKeyPair().privateKey, messageId, timestamp, body),
      'kick-event-message-timestamp': timestamp,
      'kick-event-type': opts.type ?? 'chat.message.sent',
      'kick-event-version': '1',
    },
  };
}

export function chatPayload(
  t: TestApp,
  username: string,
  content: string,
  opts: { subscriber?: boolean; userId?: string; badges?: string[] } = {},
): Record<string, unknown> {
  return simulatedChatMessage(
    {
      username,
      subscriber: opts.subscriber ?? false,
      ...(opts.userId ? { userId: opts.userId } : {}),
      ...(opts.badges ? { badges: opts.badges } : {}),
    },
    content,
    { userId: t.config.kick.broadcasterUserId ?? '1000001', username: 'vex' },
    t.clock.now(),
  );
}

export function postDelivery(t: TestApp, d: SignedDelivery): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/webhooks/kick', headers: d.headers, payload: d.body });
}

/** A chat message from Kick user 777 "chatter", sent now on the test clock; override what the test is about. */
export function chatMessage(t: TestApp, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    messageId: `test-${randomUUID()}`,
    kickUserId: '777',
    kickUsername: 'chatter',
    color: '#FF5733',
    isSubscriber: false,
    badges: [],
    content: 'hello',
    sentAt: t.clock.now(),
    ...overrides,
  };
}

/** Links a Kick account to a site user directly, as a redeemed `!verify` would. */
export async function linkKick(
  t: TestApp,
  user: TestUser,
  kick: { kickId: string; kickUsername: string },
  also: Partial<typeof users.$inferInsert> = {},
): Promise<void> {
  await t.database.db
    .update(users)
    .set({ kickId: kick.kickId, kickUsername: kick.kickUsername, ...also })
    .where(eq(users.id, user.user.id));
  await t.app.chat.linkChanged(user.user.id); // as the !verify handler does after its commit
}

/**
 * "Connect Kick bot" as the admin's browser does it against the Kick simulator: start, consent as
 * `kickUsername`, follow the callback. Returns where the callback sent the browser.
 */
export async function connectKickBot(
  t: TestApp,
  admin: TestUser,
  kickUsername = 'vex',
  which: 'kick-bot' | 'kick-bot-account' = 'kick-bot',
): Promise<string> {
  const start = await t.call({ method: 'POST', url: `/api/admin/integrations/${which}/connect`, as: admin, body: {} });
  if (start.statusCode !== 200) throw new Error(`connect: ${start.statusCode} ${start.body}`);
  const authorize = new URL(start.json<{ url: string }>().url);
  const consent = await t.app.inject({
    method: 'POST',
    url: `${authorize.pathname}${authorize.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: kickUsername, decision: 'allow' }).toString(),
  });
  const callback = new URL(String(consent.headers.location));
  const done = await t.call({ url: `${callback.pathname}${callback.search}`, as: admin });
  return String(done.headers.location);
}

/** A Kick API client with a Kick app's credentials, at Kick's own addresses, speaking to `http`. */
export function kickAppApi(http: typeof fetch): KickApi {
  return new KickApi({
    apiUrl: 'https://api.kick.com',
    oauthUrl: 'https://id.kick.com',
    app: { clientId: 'client', clientSecret: 'secret' },
    http,
    clock: new ManualClock(),
  });
}

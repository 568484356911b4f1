import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import { chatMessages, kickChatActivity, kickWebhookDeliveries } from '../../db/schema/chat';
import { buildTestApp, LogCapture, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { simulatorKeyPair } from './simulator-keys';

let t: TestApp;
let logs: LogCapture;
afterEach(async () => {
  await t?.close();
});

async function start(env: Record<string, string> = {}, networkFetch?: typeof fetch) {
  logs = new LogCapture();
  t = await buildTestApp({ env, logs, ...(networkFetch ? { networkFetch } : {}) });
}

const rowsIn = async (table: typeof chatMessages | typeof kickWebhookDeliveries | typeof kickChatActivity) =>
  (await t.database.db.select({ n: count() }).from(table))[0]?.n ?? 0;

function refusals(): Array<Record<string, unknown>> {
  return logs.lines.filter((l) => l.msg === 'kick webhook refused');
}

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('POST /webhooks/kick', () => {
  it('accepts a validly signed chat message once, runs it through the pipeline, and acknowledges its redelivery without acting', async () => {
    await start();
    const delivery = signedDelivery(chatPayload(t, 'Viewer_One', 'hello chat', { subscriber: true }), {
      at: t.clock.now(),
    });
    const first = await postDelivery(t, delivery);
    expect(first.statusCode).toBe(200);
    expect(await rowsIn(chatMessages)).toBe(1);
    const [activity] = await t.database.db.select().from(kickChatActivity);
    expect(activity).toMatchObject({ kickUsername: 'Viewer_One', isSubscriber: true, lastMessageAt: t.clock.now() });

    // Kick redelivers at least once and unsubscribes an app after repeated failures: 2xx, no effect.
    const replay = await postDelivery(t, delivery);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ ok: true, duplicate: true });
    expect(await rowsIn(chatMessages)).toBe(1);
    // A chat message's row is its delivery's claim: no separate deliveries row to keep in step.
    expect(await rowsIn(kickWebhookDeliveries)).toBe(0);
    expect(refusals()).toEqual([]);
    expect(logs.lines.some((l) => l.msg === 'kick webhook redelivered: already processed')).toBe(true);
  });

  it("gives the message id back when processing fails, so Kick's retry is processed, once", async () => {
    await start();
    const delivery = signedDelivery(chatPayload(t, 'Viewer_Two', 'still here'), { at: t.clock.now() });
    await t.database.db.execute(sql`ALTER TABLE chat_messages RENAME TO chat_messages_away`);
    const failed = await postDelivery(t, delivery);
    expect(failed.statusCode).toBe(500);
    await t.database.db.execute(sql`ALTER TABLE chat_messages_away RENAME TO chat_messages`);
    expect(await rowsIn(kickWebhookDeliveries)).toBe(0);

    const retry = await postDelivery(t, delivery);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ ok: true });
    expect(await rowsIn(chatMessages)).toBe(1);
    expect((await postDelivery(t, delivery)).json()).toEqual({ ok: true, duplicate: true });
    expect(await rowsIn(chatMessages)).toBe(1);
  });

  it('refuses a signature made with another key, with no detail, and stores nothing', async () => {
    await start();
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const res = await postDelivery(
      t,
      signedDelivery(chatPayload(t, 'mallory', 'hi'), { at: t.clock.now(), key: stranger }),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Rejected.' });
    expect(await rowsIn(kickWebhookDeliveries)).toBe(0);
    expect(await rowsIn(chatMessages)).toBe(0);
    expect(refusals()[0]).toMatchObject({ reason: 'bad signature', level: 40 });
  });

  it('refuses a body altered after signing', async () => {
    await start();
    const delivery = signedDelivery(chatPayload(t, 'Viewer_One', '!verify AAAAAA'), { at: t.clock.now() });
    const altered = { ...delivery, body: Buffer.from(delivery.body.toString().replace('AAAAAA', 'BBBBBB')) };
    expect((await postDelivery(t, altered)).statusCode).toBe(401);
    // Re-serialising the same JSON differently (spacing) also breaks it: the raw bytes are what count.
    const respaced = { ...delivery, body: Buffer.from(JSON.stringify(JSON.parse(delivery.body.toString()), null, 1)) };
    expect((await postDelivery(t, respaced)).statusCode).toBe(401);
    expect(await rowsIn(chatMessages)).toBe(0);
    // The untouched delivery still passes.
    expect((await postDelivery(t, delivery)).statusCode).toBe(200);
  });

  it('refuses a delivery whose timestamp is more than 5 minutes old (or ahead), accepts one just inside', async () => {
    await start();
    const signedAt = t.clock.now();
    const stale = signedDelivery(chatPayload(t, 'late_viewer', 'hello'), { at: signedAt });
    const fresh = signedDelivery(chatPayload(t, 'late_viewer', 'hello again'), { at: signedAt });
    t.clock.advance(5 * 60 * 1000 + 1000);
    const res = await postDelivery(t, stale);
    expect(res.statusCode).toBe(401);
    expect(refusals()[0]).toMatchObject({ reason: 'stale or malformed timestamp' });

    t.clock.set(new Date(signedAt.getTime() - 5 * 60 * 1000 - 1000));
    expect((await postDelivery(t, fresh)).statusCode).toBe(401);

    t.clock.set(new Date(signedAt.getTime() + 4 * 60 * 1000 + 59_000));
    expect((await postDelivery(t, fresh)).statusCode).toBe(200);
    expect(await rowsIn(chatMessages)).toBe(1);
  });

  it('refuses deliveries without the Kick headers or with a malformed body', async () => {
    await start();
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/kick',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Rejected.' });

    const notJson = signedDelivery(Buffer.from('not json'), { at: t.clock.now() });
    expect((await postDelivery(t, notJson)).statusCode).toBe(400);

    const malformed = signedDelivery({ message_id: 'x', content: 5 }, { at: t.clock.now() });
    expect((await postDelivery(t, malformed)).statusCode).toBe(400);
    expect(refusals().map((l) => l.reason)).toEqual([
      'missing Kick-Event-* headers',
      'body is not JSON',
      'malformed chat.message.sent',
    ]);
    expect(await rowsIn(chatMessages)).toBe(0);
  });

  it('marks subscribers from channel.subscription.new and .gifts events', async () => {
    await start();
    const broadcaster = { user_id: 1000001, username: 'vex' };
    const expires = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString();
    const sub = signedDelivery(
      { broadcaster, subscriber: { user_id: 555, username: 'newsub' }, duration: 1, expires_at: expires },
      { type: 'channel.subscription.new', at: t.clock.now() },
    );
    expect((await postDelivery(t, sub)).statusCode).toBe(200);
    const gifts = signedDelivery(
      {
        broadcaster,
        gifter: { is_anonymous: true, user_id: null, username: null },
        giftees: [
          { user_id: 601, username: 'lucky1' },
          { user_id: 602, username: 'lucky2' },
        ],
        expires_at: expires,
      },
      { type: 'channel.subscription.gifts', at: t.clock.now() },
    );
    expect((await postDelivery(t, gifts)).statusCode).toBe(200);
    const rows = await t.database.db.select().from(kickChatActivity);
    expect(rows.map((r) => [r.kickUsername, r.isSubscriber, r.subscribedUntil?.toISOString()]).sort()).toEqual([
      ['lucky1', true, expires],
      ['lucky2', true, expires],
      ['newsub', true, expires],
    ]);
    expect(rows.every((r) => r.lastMessageAt === null)).toBe(true);
  });

  it('ignores (and acknowledges) events of another channel when the broadcaster is configured', async () => {
    await start({ KICK_BROADCASTER_USER_ID: '42' });
    const other = signedDelivery(
      { ...chatPayload(t, 'someone', 'hi'), broadcaster: { user_id: 43, username: 'other' } },
      { at: t.clock.now() },
    );
    expect((await postDelivery(t, other)).statusCode).toBe(200);
    expect(await rowsIn(chatMessages)).toBe(0);
    expect(
      (await postDelivery(t, signedDelivery(chatPayload(t, 'someone', 'hi'), { at: t.clock.now() }))).statusCode,
    ).toBe(200);
    expect(await rowsIn(chatMessages)).toBe(1);
  });

  it('does not trust the simulator key when the simulator is off; trusts the configured PEM', async () => {
    const own = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await start({ KICK_WEBHOOK_PUBLIC_KEY: own.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    expect(t.config.kick.simulator).toBe(false);
    const simulated = signedDelivery(chatPayload(t, 'viewer', 'hi'), {
      at: t.clock.now(),
      key: simulatorKeyPair().privateKey,
    });
    expect((await postDelivery(t, simulated)).statusCode).toBe(401);
    const real = signedDelivery(chatPayload(t, 'viewer', 'hi'), { at: t.clock.now(), key: own.privateKey });
    expect((await postDelivery(t, real)).statusCode).toBe(200);
  });

  it("with a Kick app and no PEM, verifies against Kick's public key fetched from the API", async () => {
    const kick = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const calls: string[] = [];
    const networkFetch: typeof fetch = async (input, init) => {
      const url = String(input);
      calls.push(url);
      if (url === 'https://id.kick.com/oauth/token') return Response.json({ access_token: 'app', expires_in: 3600 });
      // Kick's key is asked for with the app token, as every public client does.
      if (
        url === 'https://api.kick.com/public/v1/public-key' &&
        new Headers(init?.headers).get('authorization') === 'Bearer app'
      ) {
        return Response.json({
          data: { public_key: kick.publicKey.export({ type: 'spki', format: 'pem' }) },
          message: 'OK',
        });
      }
      return new Response('not here', { status: 404 });
    };
    await start(
      { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret', KICK_BROADCASTER_USER_ID: '1000001' },
      networkFetch,
    );
    expect(t.config.kick.simulator).toBe(false);
    const ok = signedDelivery(chatPayload(t, 'viewer', 'hi'), { at: t.clock.now(), key: kick.privateKey });
    expect((await postDelivery(t, ok)).statusCode).toBe(200);
    const forged = signedDelivery(chatPayload(t, 'viewer', 'hi'), { at: t.clock.now() });
    expect((await postDelivery(t, forged)).statusCode).toBe(401);
    expect(calls.filter((c) => c.endsWith('/public-key'))).toHaveLength(1);
  });
});

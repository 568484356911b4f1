import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { kickWebhookDeliveries } from '../../db/schema/chat';
import { kickBans, kickEventLastSeen } from '../../db/schema/kick-bans';
import { kickLiveState } from '../../db/schema/kick-bot';
import { buildTestApp, type TestApp } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { postDelivery, signedDelivery } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import fixtures from '../fixtures/kick-webhook-events.json';
import anonymousGifts from '../fixtures/kick-webhook-gifts-anonymous.json';
import { KICK_EVENT_TYPES } from './events';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const payloads = fixtures as unknown as Record<string, Record<string, unknown>>;
const deliver = (type: string, payload: unknown, opts: { messageId?: string; at?: Date } = {}) =>
  postDelivery(
    t,
    signedDelivery(payload, { type: type.replace(/\.(permanent|ended)$/, ''), at: t.clock.now(), ...opts }),
  );
const deliveries = async () => (await t.database.db.select({ n: count() }).from(kickWebhookDeliveries))[0]?.n ?? 0;

describe('Kick webhook events other than chat', () => {
  it("accepts every documented event in its documented shape (docs/features/kick-events-and-bans.md#the-events, the anonymous gifter's included)", async () => {
    t = await buildTestApp();
    const seen: string[] = [];
    for (const type of KICK_EVENT_TYPES) {
      if (type !== 'chat.message.sent')
        t.app.chat.kickEvents.register(type, 'test', async (_tx, _p, meta) => void seen.push(meta.type));
    }
    for (const [name, payload] of Object.entries(payloads)) {
      if (name.startsWith('_')) continue;
      const res = await deliver(name, payload);
      expect(res.statusCode, name).toBe(200);
    }
    expect((await deliver('channel.subscription.gifts', anonymousGifts)).statusCode).toBe(200);
    expect(new Set(seen)).toEqual(new Set(KICK_EVENT_TYPES.filter((x) => x !== 'chat.message.sent')));
    const last = await t.database.db.select().from(kickEventLastSeen);
    expect(last.length).toBe(9);
    // The permanent ban: expires_at null is kept as null.
    const [troll] = await t.database.db.select().from(kickBans).where(eq(kickBans.kickUserId, '4400556'));
    expect(troll).toMatchObject({
      kickUsername: 'Troll',
      expiresAt: null,
      reason: 'abuse',
      moderator: 'thestaticmage',
    });
    const [spammer] = await t.database.db.select().from(kickBans).where(eq(kickBans.kickUserId, '4400555'));
    expect(spammer?.expiresAt?.toISOString()).toBe('2025-01-14T16:18:06.000Z');
  });

  it('refuses a malformed event with 400 and claims nothing', async () => {
    t = await buildTestApp();
    const res = await deliver('moderation.banned', {
      ...payloads['moderation.banned'],
      banned_user: { username: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(await deliveries()).toBe(0);
  });

  it('processes a redelivered event once', async () => {
    t = await buildTestApp();
    let runs = 0;
    t.app.chat.kickEvents.register('channel.followed', 'test', async () => void (runs += 1));
    const delivery = signedDelivery(payloads['channel.followed'], { type: 'channel.followed', at: t.clock.now() });
    expect((await postDelivery(t, delivery)).json()).toEqual({ ok: true });
    expect((await postDelivery(t, delivery)).json()).toEqual({ ok: true, duplicate: true });
    expect(runs).toBe(1);
    expect(await deliveries()).toBe(1);
  });

  it("rolls the claim back with the handler's writes when a handler fails, so Kick's retry is processed once", async () => {
    t = await buildTestApp();
    let fail = true;
    let runs = 0;
    // After the ban is recorded, in the same transaction: a crash here must undo the ban too.
    t.app.chat.kickEvents.register('moderation.banned', 'test-crash', async () => {
      if (fail) throw new Error('crash between the claim and the commit');
      runs += 1;
    });
    const delivery = signedDelivery(payloads['moderation.banned.permanent'], {
      type: 'moderation.banned',
      at: t.clock.now(),
    });
    const failed = await postDelivery(t, delivery);
    expect(failed.statusCode).toBe(500);
    expect(await deliveries()).toBe(0);
    expect(await t.database.db.select().from(kickBans)).toEqual([]);

    fail = false;
    expect((await postDelivery(t, delivery)).json()).toEqual({ ok: true });
    expect((await postDelivery(t, delivery)).json()).toEqual({ ok: true, duplicate: true });
    expect(runs).toBe(1);
    expect((await t.database.db.select().from(kickBans)).length).toBe(1);
  });

  it('keeps the newer live state and title when older deliveries arrive late', async () => {
    t = await buildTestApp();
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const broadcaster = { user_id: 1000001, username: 'vex' };
    const live = { broadcaster, is_live: true, title: 'Going live', started_at: at(-60_000), ended_at: null };
    const ended = { broadcaster, is_live: false, title: 'Going live', started_at: at(-60_000), ended_at: at(-10_000) };
    // The end arrives first, then the (older) start: the stream stays ended.
    expect((await deliver('livestream.status.updated', ended)).statusCode).toBe(200);
    expect((await deliver('livestream.status.updated', live)).statusCode).toBe(200);
    let [row] = await t.database.db.select().from(kickLiveState);
    expect(row?.isLive).toBe(false);
    expect(await t.app.chat.isLive()).toBe(false);

    // Titles are ordered by Kick's delivery timestamp: the later one wins whatever the arrival order.
    const meta = (title: string) => ({
      broadcaster,
      metadata: { title, language: 'en', category: { id: 1, name: 'Slots' } },
    });
    t.clock.advance(2_000);
    const newer = signedDelivery(meta('Newer title'), { type: 'livestream.metadata.updated', at: t.clock.now() });
    const older = signedDelivery(meta('Older title'), {
      type: 'livestream.metadata.updated',
      at: new Date(t.clock.now().getTime() - 1_000),
    });
    expect((await postDelivery(t, newer)).statusCode).toBe(200);
    expect((await postDelivery(t, older)).statusCode).toBe(200);
    [row] = await t.database.db.select().from(kickLiveState);
    expect(row).toMatchObject({ title: 'Newer title', category: 'Slots', isLive: false });
  });
});

describe.runIf(usingPostgres())('concurrent redeliveries (PostgreSQL)', () => {
  it('processes one event once when Kick delivers it many times at once', async () => {
    t = await buildTestApp();
    let runs = 0;
    t.app.chat.kickEvents.register('moderation.banned', 'test-slow', async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 100)); // the claim is held while the others arrive
    });
    const delivery = signedDelivery(payloads['moderation.banned.permanent'], {
      type: 'moderation.banned',
      at: t.clock.now(),
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => postDelivery(t, delivery)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.json<{ duplicate?: boolean }>().duplicate !== true)).toHaveLength(1);
    expect(runs).toBe(1);
    expect(await deliveries()).toBe(1);
  });
});

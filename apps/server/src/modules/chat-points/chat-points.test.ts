import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { ledger } from '../../db/schema/ledger';
import { chatPointMinutes } from '../../db/schema/store';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { chatMessage, linkKick, postDelivery, signedDelivery } from '../../../test/kick';
import { simulatedLivestreamStatus } from '../../integrations/kick/simulator';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

async function linked(kickId: string, opts: { excluded?: boolean } = {}): Promise<TestUser> {
  const u = await t.signIn({ name: `chatter${kickId}` });
  await linkKick(t, u, { kickId, kickUsername: `kick${kickId}` }, { excluded: opts.excluded ?? false });
  return u;
}

const chat = (kickUserId: string, content = 'gg') =>
  t.app.chat.process(
    chatMessage(t, { kickUserId, kickUsername: `kick${kickUserId}`, color: null, content }),
    'kick-webhook',
  );
const points = async (u: TestUser) => (await t.reload(u.user.id)).points;

describe('chat-activity points', () => {
  it('credits the configured rate once per active minute, written only when the buffer flushes', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-01T20:00:05Z'));
    const fan = await linked('9001');
    for (let i = 0; i < 5; i++) await chat('9001');
    expect(await points(fan)).toBe('0.00'); // buffered, nothing written yet
    expect(t.app.chatPoints.pending).toBe(1);
    expect(await t.app.chatPoints.flush()).toBe(1);
    expect(await points(fan)).toBe('5.00');

    // Same minute again, after a flush: the claim row keeps the cap.
    t.clock.advance(30_000);
    await chat('9001');
    expect(await t.app.chatPoints.flush()).toBe(0);
    expect(await points(fan)).toBe('5.00');

    // Next minute: another credit.
    t.clock.advance(30_000);
    await chat('9001');
    await t.app.chatPoints.flush();
    expect(await points(fan)).toBe('10.00');
    const rows = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, fan.user.id), eq(ledger.reason, 'chat_activity')));
    expect(rows.map((r) => [r.delta, r.reference])).toEqual([
      ['5.00', 'chat:2026-03-01T20:00'],
      ['5.00', 'chat:2026-03-01T20:01'],
    ]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('writes many chatters in one batch; several minutes of one chatter add up in one credit', async () => {
    t = await buildTestApp({ env: { CHAT_POINTS_PER_MINUTE: '2.5' } });
    t.clock.set(new Date('2026-03-01T21:00:00Z'));
    const fans = [];
    for (let i = 0; i < 30; i++) fans.push(await linked(String(7000 + i)));
    for (const minute of [0, 1, 2]) {
      for (const [i] of fans.entries()) if (minute === 0 || i === 0) await chat(String(7000 + i));
      t.clock.advance(60_000);
    }
    expect(t.app.chatPoints.pending).toBe(32);
    expect(await t.app.chatPoints.flush()).toBe(32);
    expect(await points(fans[0]!)).toBe('7.50');
    expect(await points(fans[1]!)).toBe('2.50');
    const [first] = await t.database.db
      .select({ n: count() })
      .from(ledger)
      .where(and(eq(ledger.userId, fans[0]!.user.id), eq(ledger.reason, 'chat_activity')));
    expect(first?.n).toBe(1);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('pays nothing to excluded or unlinked chatters, nor for a !verify command', async () => {
    t = await buildTestApp();
    const bot = await linked('666', { excluded: true });
    const fan = await linked('42');
    await chat('666');
    await chat('13'); // not linked
    await chat('42', '!verify ABC123');
    expect(t.app.chatPoints.pending).toBe(0);
    // Excluded after the message was buffered: the flush still skips them.
    await chat('42');
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, fan.user.id));
    expect(await t.app.chatPoints.flush()).toBe(0);
    expect([await points(bot), await points(fan)]).toEqual(['0.00', '0.00']);
  });

  it("are earned only while the stream is live, as Kick's livestream.status.updated says", async () => {
    t = await buildTestApp();
    const fan = await linked('4100');
    const stream = async (isLive: boolean) => {
      const payload = simulatedLivestreamStatus({ userId: '1000001', username: 'vex' }, isLive, t.clock.now());
      const res = await postDelivery(
        t,
        signedDelivery(payload, { type: 'livestream.status.updated', at: t.clock.now() }),
      );
      expect(res.statusCode).toBe(200);
    };
    await stream(false);
    await chat('4100');
    expect(t.app.chatPoints.pending).toBe(0); // offline: nothing earned

    await stream(true);
    t.clock.advance(60_000);
    await chat('4100');
    expect(t.app.chatPoints.pending).toBe(1);
    expect(await t.app.chatPoints.flush()).toBe(1);
    expect(await points(fan)).toBe('5.00');

    await stream(false);
    t.clock.advance(60_000);
    await chat('4100');
    expect(t.app.chatPoints.pending).toBe(0);
    expect(await t.app.chat.isLive()).toBe(false);
  });

  it('flushes what is buffered when the server closes; CHAT_POINTS_PER_MINUTE=0 turns it off', async () => {
    t = await buildTestApp();
    const fan = await linked('555');
    await chat('555');
    await t.app.close();
    const [row] = await t.database.db.select().from(users).where(eq(users.id, fan.user.id));
    expect(row?.points).toBe('5.00');
    await (t.database as typeof t.database & { drop(): Promise<void> }).drop();
    t = await buildTestApp({ env: { CHAT_POINTS_PER_MINUTE: '0' } });
    await linked('556');
    await chat('556');
    expect(t.app.chatPoints.pending).toBe(0);
    const [claims] = await t.database.db.select({ n: count() }).from(chatPointMinutes);
    expect(claims?.n).toBe(0);
  });
});

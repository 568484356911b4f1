/**
 * Stream streaks (docs/features/stream-streaks.md): chatting during consecutive live streams builds
 * a streak, a missed stream starts a new one, a bonus length pays once through the ledger, and
 * nothing counts offline, for an excluded account or a banned one. Attendance is kept once per
 * (user, stream) even when two writers record it at once (PostgreSQL).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ledger } from '../../db/schema/ledger';
import { rowsOf } from '../../db/rows';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { chatMessage, linkKick, postDelivery, signedDelivery } from '../../../test/kick';
import { buildRaceApp, describeRace } from '../../../test/race-database';
import { simulatedLivestreamStatus } from '../../integrations/kick/simulator';

let t: TestApp;

async function linked(kickId: string, opts: { excluded?: boolean } = {}): Promise<TestUser> {
  const u = await t.signIn({ name: `streaker${kickId}` });
  await linkKick(t, u, { kickId, kickUsername: `kick${kickId}` }, { excluded: opts.excluded ?? false });
  return u;
}

const chat = (kickUserId: string, content = 'gg', sentAt = t.clock.now()) =>
  t.app.chat.process(
    chatMessage(t, { kickUserId, kickUsername: `kick${kickUserId}`, color: null, content, sentAt }),
    'kick-webhook',
  );

async function stream(isLive: boolean) {
  t.clock.advance(60_000);
  const payload = simulatedLivestreamStatus({ userId: '1000001', username: 'vex' }, isLive, t.clock.now());
  const res = await postDelivery(t, signedDelivery(payload, { type: 'livestream.status.updated', at: t.clock.now() }));
  expect(res.statusCode, res.body).toBe(200);
}

const mine = async (u: TestUser) => (await t.call({ url: '/api/me/streak', as: u })).json();

async function setBonuses(bonuses: Array<{ length: number; points: number }>) {
  const admin = await t.signIn({ role: 'Admin', name: 'Streak Admin' });
  const res = await t.call({ method: 'PUT', url: '/api/admin/stream-streaks/bonuses', as: admin, body: { bonuses } });
  expect(res.statusCode, res.body).toBe(200);
  return admin;
}

describe('stream streaks', () => {
  afterEach(async () => {
    await t?.close();
  });

  it('two streams in a row make a streak of 2 and pay its bonus once; a missed stream starts again', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-01T20:00:00Z'));
    await setBonuses([{ length: 2, points: 50 }]);
    const fan = await linked('5101');
    const other = await linked('5102');

    await stream(true);
    await chat('5101');
    await chat('5101'); // twice in one stream: one attendance
    await chat('5102');
    expect(await mine(fan)).toMatchObject({ current: 1, best: 1, nextBonus: { length: 2, points: 50 } });
    await stream(false);

    await stream(true);
    await chat('5101');
    await chat('5101');
    await stream(false);
    expect(await mine(fan)).toMatchObject({ current: 2, best: 2, lost: 0, nextBonus: null });
    expect((await t.reload(fan.user.id)).points).toBe('50.00');
    const paid = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, fan.user.id), eq(ledger.reason, 'stream_streak')));
    expect(paid.map((r) => [r.delta, r.memo])).toEqual([['50.00', '2 streams in a row']]);

    // The other viewer missed the second stream: their streak is over, shown as lost.
    expect(await mine(other)).toMatchObject({ current: 0, best: 1, lost: 1 });
    await stream(true);
    await chat('5102');
    expect(await mine(other)).toMatchObject({ current: 1, best: 1, lost: 1 });
    expect(await ledgerMismatches(t)).toEqual([]);

    const activity = await t.call({ url: '/api/me/activity', as: fan });
    expect(activity.json().items[0]).toMatchObject({ reason: 'stream_streak', delta: 50 });
  });

  it('nothing counts offline, for an excluded account, or without a linked Kick account', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-02T20:00:00Z'));
    const fan = await linked('5201');
    const excluded = await linked('5202', { excluded: true });
    await stream(false);
    await chat('5201');
    await chat('9999'); // nobody linked this Kick account
    await stream(true);
    await chat('5202');
    const rows = rowsOf(await t.database.db.execute(sql`SELECT user_id FROM stream_attendance`));
    expect(rows).toEqual([]);
    expect(await mine(fan)).toMatchObject({ current: 0, best: 0 });
    expect(await mine(excluded)).toMatchObject({ current: 0 });
  });

  it('a message is judged by when it was sent: sent live and processed after the end counts, sent after it does not', async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-04T20:00:00Z'));
    const fan = await linked('5401');
    const late = await linked('5402');
    await stream(true);
    t.clock.advance(30_000);
    const sentLive = t.clock.now();
    await stream(false); // the end is recorded before the backlog reaches the two lines below
    await chat('5401', 'last words', sentLive);
    t.clock.advance(1_000);
    await chat('5402', 'too late');
    expect(await mine(fan)).toMatchObject({ current: 1, best: 1 });
    expect(await mine(late)).toMatchObject({ current: 0, best: 0 });
  });

  it('the admin bonus table: validated, admin-only, audited', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'Bonus Admin' });
    const viewer = await t.signIn({ name: 'Viewer' });
    const put = (as: TestUser, bonuses: unknown) =>
      t.call({ method: 'PUT', url: '/api/admin/stream-streaks/bonuses', as, body: { bonuses } });
    expect((await put(viewer, [])).statusCode).toBe(403);
    const dup = await put(admin, [
      { length: 3, points: 10 },
      { length: 3, points: 20 },
    ]);
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('Each streak length may have one bonus.');
    expect((await put(admin, [{ length: 1, points: 10 }])).statusCode).toBe(400);
    expect((await put(admin, [{ length: 5, points: 0 }])).statusCode).toBe(400);
    const ok = await put(admin, [
      { length: 5, points: 25 },
      { length: 3, points: 10.5 },
    ]);
    expect(ok.json()).toEqual({
      bonuses: [
        { length: 3, points: 10.5 },
        { length: 5, points: 25 },
      ],
    });
    expect((await t.call({ url: '/api/me/streak' })).statusCode).toBe(401);
    const audit = rowsOf<{ action: string }>(
      await t.database.db.execute(sql`SELECT action FROM audit_log WHERE action = 'stream-streaks.bonuses'`),
    );
    expect(audit).toHaveLength(1);
  });
});

describeRace('stream attendance at once', () => {
  beforeAll(async () => {
    t = await buildRaceApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two writers recording one viewer in one stream keep one attendance and pay the bonus once', async () => {
    t.clock.set(new Date('2026-03-03T20:00:00Z'));
    await setBonuses([{ length: 2, points: 40 }]);
    const fan = await linked('5301');
    await stream(true);
    await t.app.streaks.attend(fan.user.id, t.clock.now());
    await stream(false);
    await stream(true);
    // Each call is a separate writer (the in-memory memo is only filled after a commit).
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.app.streaks.attend(fan.user.id, t.clock.now())),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const rows = rowsOf<{ n: string | number }>(
      await t.database.db.execute(sql`SELECT count(*) AS n FROM stream_attendance WHERE user_id = ${fan.user.id}`),
    );
    expect(Number(rows[0]!.n)).toBe(2);
    expect(await mine(fan)).toMatchObject({ current: 2 });
    expect((await t.reload(fan.user.id)).points).toBe('40.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

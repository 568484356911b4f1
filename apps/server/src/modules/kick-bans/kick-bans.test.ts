/**
 * Bans that count: Kick's `moderation.banned` (through the real signed webhook) recorded with its
 * expiry, and each gate it closes — giveaway entry (linked or not), the current pool, chat points,
 * `!bet`, `!guess` — until it expires or an admin lifts it on Admin → Users (audited).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { kickBans } from '../../db/schema/kick-bans';
import { predictionBets } from '../../db/schema/predictions';
import { kickTimestamp } from '../../integrations/kick/simulator';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { linkedChatter, openPrediction, repliesTo, say, type Chatter } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { drawEntryOf } from '../giveaway/facts';
import { isBanned } from './service';

let t: TestApp;
let admin: TestUser;
let kick = 7000;

beforeAll(async () => {
  await warmUp();
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  await t.app.giveaway.addKey(admin.user, '!join');
  await t.app.giveaway.setKeys(admin.user, ['!join']);
}, WARM_UP_TIMEOUT);
afterAll(async () => {
  await t.close();
});

const next = () => String(++kick);
const chatter = (points = '1000') => linkedChatter(t, next(), { points });
const at = (ms: number) => kickTimestamp(new Date(t.clock.now().getTime() + ms));

/** Kick bans (or times out, for `minutes`) this Kick account, delivered like Kick. */
async function ban(who: { kickId: string; kickName: string }, minutes: number | null, createdMs = 0) {
  const payload = {
    broadcaster: { user_id: 1000001, username: 'vex' },
    moderator: { user_id: 1000001, username: 'vex' },
    banned_user: { user_id: Number(who.kickId), username: who.kickName },
    metadata: { reason: 'spam', created_at: at(createdMs), expires_at: minutes === null ? null : at(minutes * 60_000) },
  };
  const res = await postDelivery(t, signedDelivery(payload, { type: 'moderation.banned', at: t.clock.now() }));
  expect(res.statusCode, res.body).toBe(200);
}

/** Says `content` in Kick chat with a subscriber badge (the documented chat.message.sent), through the webhook. */
async function saySubscribed(who: { kickId: string; kickName: string }, content: string) {
  const payload = chatPayload(t, who.kickName, content, { userId: who.kickId, subscriber: true });
  const res = await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }));
  expect(res.statusCode, res.body).toBe(200);
}

const participants = async () => (await t.app.giveaway.participants()).map((p) => p.kickUserId);
const points = async (u: TestUser) => (await t.reload(u.user.id)).points;
const lift = (u: TestUser, as: TestUser | null = admin) =>
  t.call({ method: 'DELETE', url: `/api/admin/users/${u.user.id}/kick-ban`, as });

describe('Kick bans', () => {
  it('a timeout counts until its expiry, a permanent ban (expires_at null) until lifted', async () => {
    const timed = await chatter();
    const perm = await chatter();
    await ban(timed, 10);
    await ban(perm, null);
    expect(await isBanned(t.database.db, { kickUserId: timed.kickId }, t.clock.now())).toBe(true);
    expect(await isBanned(t.database.db, { userId: perm.user.id }, t.clock.now())).toBe(true);
    const later = new Date(t.clock.now().getTime() + 11 * 60_000);
    expect(await isBanned(t.database.db, { userId: timed.user.id }, later)).toBe(false);
    expect(await isBanned(t.database.db, { userId: perm.user.id }, later)).toBe(true);
    const [row] = await t.database.db.select().from(kickBans).where(eq(kickBans.kickUserId, perm.kickId));
    expect(row?.expiresAt).toBeNull();
  });

  it('an older ban arriving late does not replace the newer one', async () => {
    const who = await chatter();
    await ban(who, null, 0);
    await ban(who, 1, -60_000); // an older timeout, delivered late
    const [row] = await t.database.db.select().from(kickBans).where(eq(kickBans.kickUserId, who.kickId));
    expect(row?.expiresAt).toBeNull();
  });

  it('a duplicate of a lifted ban (Kick delivers some events twice, under new message ids) does not ban again', async () => {
    const who = await chatter();
    await ban(who, null);
    expect((await lift(who)).statusCode).toBe(200);
    await ban(who, null); // the same ban (same created_at), delivered again
    expect(await isBanned(t.database.db, { userId: who.user.id }, t.clock.now())).toBe(false);
    expect(await t.app.kickBans.banOf(who.kickId)).toBeNull();
  });

  it('a banned chatter cannot enter the giveaway with the key, linked or not', async () => {
    const linked = await chatter();
    const unlinked = { kickId: next(), kickName: 'drifter' };
    const fine = await chatter();
    await ban(linked, 10);
    await ban(unlinked, null);
    await say(t, linked, '!join');
    await say(t, unlinked, '!join');
    await say(t, fine, '!join');
    const list = await participants();
    expect(list).toContain(fine.kickId);
    expect(list).not.toContain(linked.kickId);
    expect(list).not.toContain(unlinked.kickId);
  });

  it('a banned subscriber cannot enter a sub-only giveaway, linked or not', async () => {
    await t.app.giveaway.clearParticipants(admin.user);
    const before = (await t.app.giveaway.state()).settings;
    await t.app.giveaway.updateSettings(admin.user, { ...before, isSubOnly: true });
    try {
      const linked = await chatter();
      const unlinked = { kickId: next(), kickName: 'subdrifter' };
      const fine = { kickId: next(), kickName: 'subfan' };
      await ban(linked, 10);
      await ban(unlinked, null);
      // With a filter on, an unlinked chatter's entry is decided after the batched statement:
      // its subscriber badge passes the filter, so only the ban keeps it out.
      for (const who of [linked, unlinked, fine]) await saySubscribed(who, '!join');
      expect(await participants()).toEqual([fine.kickId]);
    } finally {
      await t.app.giveaway.updateSettings(admin.user, before);
    }
  });

  it('a participant banned during the round is dropped from the current pool', async () => {
    await t.app.giveaway.clearParticipants(admin.user);
    const who = await chatter();
    await say(t, who, '!join');
    expect(await participants()).toEqual([who.kickId]);
    const emits = vi.spyOn(t.app.realtime, 'emitToAdmins');
    await ban(who, 5);
    expect(await participants()).toEqual([]);
    // Once committed, the admins' panel gets the new list.
    expect(emits.mock.calls.filter(([, event]) => event === 'ReceiveParticipants').map(([, , list]) => list)).toEqual([
      [],
    ]);
    emits.mockRestore();
  });

  it('a banned participant still in the round (entered before the ban reached this process) is never drawn', async () => {
    await t.app.giveaway.clearParticipants(admin.user);
    const fine = await chatter();
    const banned = await chatter();
    await say(t, fine, '!join');
    await ban(banned, null);
    await t.database.query(
      `INSERT INTO giveaway_participants (round_id, kick_user_id, kick_username, draw_entry, entered_at)
       SELECT round_id, $1, $2, $3, now() FROM giveaway_settings WHERE id = 1`,
      [banned.kickId, banned.kickName, drawEntryOf(banned.kickId, banned.kickName)],
    );
    for (let i = 0; i < 6; i++) {
      t.clock.advance(86_400_000 + 1000); // past the re-win cooldown
      const roll = await t.app.giveaway.roll(admin.user);
      expect(roll.winners.map((w) => w.kickUserId)).toEqual([fine.kickId]);
    }
  });

  it('a banned chatter earns no chat points', async () => {
    const who = await chatter('1');
    const fine = await chatter('1');
    await ban(who, 10);
    await say(t, who, 'hello');
    await say(t, fine, 'hello');
    await t.app.chatPoints.flush();
    expect(await points(who)).toBe('1.00');
    expect(Number(await points(fine))).toBeGreaterThan(1);
  });

  it('!bet is refused with the reason and moves no points; !guess is refused', async () => {
    const who = await chatter();
    await say(t, who, 'hi'); // the chat gates' list of bans is read now, before the ban
    await ban(who, null); // same instant: the list must follow the ban at once, not in 5 s
    const { id } = await openPrediction(t, admin);
    const { messageId } = await say(t, who, '!bet 1 100');
    expect(await repliesTo(t, messageId)).toEqual([`@${who.kickName} you are banned in chat: no bets until it ends.`]);
    expect(await points(who)).toBe('1000.00');
    expect(await t.database.db.select().from(predictionBets).where(eq(predictionBets.predictionId, id))).toEqual([]);

    await t.call({
      method: 'POST',
      url: '/api/admin/hunts',
      as: admin,
      body: { name: 'H', startCost: 100, guessPrize: 10 },
    });
    const guess = await say(t, who, '!guess 100');
    expect(await repliesTo(t, guess.messageId)).toEqual([
      `@${who.kickName} you are banned in chat: no guesses until it ends.`,
    ]);
    expect(await t.app.hunt.guesses()).toEqual([]);

    // Lifted: the same commands are taken.
    expect((await lift(who)).statusCode).toBe(200);
    const bet = await say(t, who, '!bet 1 100');
    expect((await repliesTo(t, bet.messageId))[0]).toContain('bet taken');
    expect(await points(who)).toBe('900.00');
    const again = await say(t, who, '!guess 100');
    expect((await repliesTo(t, again.messageId))[0]).toContain('guess taken');
    await t.call({ method: 'POST', url: `/api/predictions/${id}/lock`, as: admin });
  });

  it('a ban on a Kick account nobody linked yet counts once it is linked', async () => {
    const kickId = next();
    await ban({ kickId, kickName: `kick${kickId}` }, null);
    const later: Chatter = await linkedChatter(t, kickId, { points: '10' });
    expect(await isBanned(t.database.db, { userId: later.user.id }, t.clock.now())).toBe(true);
    const list = await t.call({ url: `/api/admin/users?query=kick${kickId}`, as: admin });
    expect(list.json<{ items: Array<{ kickBan: unknown }> }>().items[0]?.kickBan).toMatchObject({
      reason: 'spam',
      expiresAt: null,
    });
  });

  it('only an admin lifts a ban; it is audited; a user with no ban in force is a 409, an unknown one 404', async () => {
    const who = await chatter();
    await ban(who, null);
    const member = await t.signIn();
    expect((await lift(who, null)).statusCode).toBe(401);
    expect((await lift(who, member)).statusCode).toBe(403);
    const res = await lift(who);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Kick ban lifted: the account takes part again.',
      user: { kickBan: null },
    });
    expect((await lift(who)).statusCode).toBe(409);
    const unknown = await t.call({
      method: 'DELETE',
      url: '/api/admin/users/5f0c7a52-8d5e-4d0b-9a0e-3c2b1f4e6a77/kick-ban',
      as: admin,
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.call({ method: 'DELETE', url: '/api/admin/users/nope/kick-ban', as: admin });
    expect(bad.statusCode).toBe(400);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'kick.ban.lift'), eq(auditLog.targetId, who.user.id)));
    expect(audit).toHaveLength(1);
    expect(await isBanned(t.database.db, { userId: who.user.id }, t.clock.now())).toBe(false);
    // Kick bans them again later: it counts again.
    t.clock.advance(1000);
    await ban(who, null);
    expect(await isBanned(t.database.db, { userId: who.user.id }, t.clock.now())).toBe(true);
  });
});

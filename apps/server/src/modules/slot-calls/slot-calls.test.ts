/**
 * Slot calls through the real signed Kick webhook (docs/features/slot-calls.md): the queue opened
 * by the broadcaster's or a moderator's badge, calls normalised against the catalogue, every rule
 * refusing with its reason and changing nothing, the cost taken and refunded once, the random pick
 * recomputed independently, and "Add to hunt" paying the caller once when the bonus pays enough.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { RollRecord } from '@kickback/common/http/giveaway';
import type { SlotCallsState } from '@kickback/common/hubs/slot-calls';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { rowsOf } from '../../db/rows';
import { kickBans } from '../../db/schema/kick-bans';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { linkedChatter, repliesTo, say, type Chatter } from '../../../test/predictions';

let t: TestApp;
let admin: TestUser;
let moderator: TestUser;
let kick = 7000;
const broadcaster = { kickId: '1000001', kickName: 'vex' };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  moderator = await t.signIn({ role: 'Moderator', name: 'Mod' });
});
afterAll(async () => {
  await t.close();
});

const defaultRules = {
  maxPerViewer: 1,
  cooldownSeconds: 0,
  cost: 0,
  linkedOnly: false,
  subsOnly: false,
  maxQueue: 50,
  unknownSlots: 'accept',
  blacklist: [] as string[],
  payoutMultiplier: 100,
  payoutPoints: 0,
};

async function call(method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown, as: TestUser = admin) {
  const res = await t.call({ method, url, as, ...(body === undefined ? {} : { body }) });
  return { status: res.statusCode, body: res.json<{ state: SlotCallsState; message: string }>() };
}
const rules = (over: Partial<typeof defaultRules> = {}) =>
  call('PUT', '/api/admin/slot-calls/rules', { ...defaultRules, ...over });
const state = async () => (await t.call({ method: 'GET', url: '/api/slot-calls' })).json<SlotCallsState>();

async function chat(who: { kickId: string; kickName: string }, text: string): Promise<string[]> {
  const { res, messageId } = await say(t, who, text);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return repliesTo(t, messageId);
}
const viewer = (points?: string) => linkedChatter(t, String(++kick), points ? { points } : {});
const stranger = () => ({ kickId: String(++kick), kickName: `anon${kick}` });
const points = async (u: TestUser) =>
  (await t.database.db.select({ p: users.points }).from(users).where(eq(users.id, u.user.id)))[0]!.p;
const ledgerRows = async (reason: string) =>
  rowsOf<{ n: number; sum: string | null }>(
    await t.database.db.execute(
      sql`SELECT count(*)::int AS n, sum(delta)::text AS sum FROM ledger WHERE reason = ${reason}`,
    ),
  )[0]!;

beforeEach(async () => {
  await t.database.db.execute(
    sql`UPDATE slot_calls SET status = 'cleared', resolved_at = now() WHERE status IN ('queued', 'playing')`,
  );
  await t.database.db.execute(sql`UPDATE slot_call_settings SET is_open = false`);
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
  expect((await rules()).status).toBe(200);
});

describe('opening and closing from chat', () => {
  it('takes !calls open / close from the broadcaster and a moderator badge, and refuses anyone else', async () => {
    const fan = await viewer();
    expect(await chat(fan, '!calls open')).toEqual([
      `@${fan.kickName} only the broadcaster or a moderator can open or close slot calls.`,
    ]);
    expect((await state()).open).toBe(false);
    expect(await chat(broadcaster, '!calls open')).toEqual(['@vex slot calls are open: type !sr [SLOT] to call one.']);
    expect((await state()).open).toBe(true);
    expect((await state()).nextSeedHash).toMatch(/^[0-9a-f]{64}$/);

    const payload = chatPayload(t, 'mod_anna', '!calls close', { userId: String(++kick) });
    (payload.sender as { identity: { badges: unknown[] } }).identity.badges = [
      { text: 'Moderator', type: 'moderator' },
    ];
    const res = await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }));
    expect(res.statusCode).toBeLessThan(300);
    expect(await repliesTo(t, payload.message_id as string)).toEqual(['@mod_anna slot calls are closed.']);
    expect((await state()).open).toBe(false);
    expect(await chat(fan, '!sr gates of olympus')).toEqual([`@${fan.kickName} slot calls are closed right now.`]);
  });
});

describe('calling a slot', () => {
  beforeEach(async () => {
    expect((await call('POST', '/api/admin/slot-calls/open')).status).toBe(200);
  });

  it('normalises names to one catalogue slot, matches a close misspelling, and flags an unknown one', async () => {
    await rules({ maxPerViewer: 5 });
    const ann = stranger();
    expect(await chat(ann, '!sr gates-of-olympus')).toEqual([`@${ann.kickName} call taken: Gates of Olympus.`]);
    expect(await chat(ann, '!call Swet Bonanza')).toEqual([`@${ann.kickName} call taken: Sweet Bonanza.`]);
    expect(await chat(ann, '!SR my homebrew slot')).toEqual([
      `@${ann.kickName} call taken: my homebrew slot (not in the catalogue).`,
    ]);
    const queue = (await state()).queue;
    expect(queue.map((c) => [c.slot, c.provider, c.flagged, c.typed, c.caller])).toEqual([
      ['Gates of Olympus', 'Pragmatic Play', false, 'gates-of-olympus', ann.kickName],
      ['Sweet Bonanza', 'Pragmatic Play', false, 'Swet Bonanza', ann.kickName],
      ['my homebrew slot', null, true, null, ann.kickName],
    ]);
    expect((await state()).nextUp?.slot).toBe('Gates of Olympus');
  });

  it('shows an unknown slot on the overlay without zero-width or direction-changing characters', async () => {
    const ann = stranger();
    expect(await chat(ann, '!sr \u202Eyknits\u202C \u200Bhome\u2066brew\u2069')).toHaveLength(1);
    const [mine] = (await state()).queue.filter((c) => c.caller === ann.kickName);
    expect(mine).toMatchObject({ slot: 'yknits homebrew', flagged: true });
  });

  it('refuses each rule with its reason and changes nothing', async () => {
    await rules({ blacklist: ['Sweet Bonanza', 'nolimit city'], unknownSlots: 'refuse', cooldownSeconds: 60 });
    const before = (await state()).version;
    const bob = stranger();
    expect(await chat(bob, '!sr sweet bonanza')).toEqual([
      `@${bob.kickName} Sweet Bonanza is blacklisted here: call another slot.`,
    ]);
    expect(await chat(bob, '!sr mental')).toEqual([
      `@${bob.kickName} Nolimit City slots are blacklisted here: call another slot.`,
    ]);
    expect(await chat(bob, '!sr my homebrew slot')).toEqual([
      `@${bob.kickName} "my homebrew slot" is not in the slot catalogue: check the name.`,
    ]);
    expect(await chat(bob, '!sr')).toEqual([
      `@${bob.kickName} the slot name is empty: use !sr [SLOT], for example !sr Gates of Olympus.`,
    ]);
    expect(await chat(bob, `!sr ${'x'.repeat(400)}`)).toEqual([
      `@${bob.kickName} a slot name is at most 60 characters: use !sr [SLOT], for example !sr Gates of Olympus.`,
    ]);
    expect((await state()).version).toBe(before);
    expect((await state()).queue).toEqual([]);

    // A 10 KB name and control characters (what a webhook could carry) through the service itself.
    const direct = (typed: string) =>
      t.app.slotCalls.call(
        { messageId: `m${++kick}`, kickUserId: 'k1', kickUsername: 'k1', isSubscriber: false, linkedUser: null, typed },
        async () => true,
      );
    expect(await direct('y'.repeat(10_240))).toEqual({ ok: false, reason: expect.stringContaining('at most 60') });
    expect(await direct('Gates\u0007 of Olympus')).toEqual({
      ok: false,
      reason: expect.stringContaining('control characters'),
    });

    expect(await chat(bob, '!sr gates of olympus')).toEqual([`@${bob.kickName} call taken: Gates of Olympus.`]);
    expect(await chat(bob, '!sr sugar rush')).toEqual([
      `@${bob.kickName} you already have 1 call in the queue (at most 1 at a time).`,
    ]);
    await rules({ maxPerViewer: 3, cooldownSeconds: 60 });
    t.clock.advance(20_000);
    expect(await chat(bob, '!sr sugar rush')).toEqual([`@${bob.kickName} wait 40 seconds before your next call.`]);
    await rules({ maxQueue: 1 });
    expect(await chat(stranger(), '!sr sugar rush')).toEqual([expect.stringContaining('the queue is full (1 calls).')]);
    expect((await state()).queue).toHaveLength(1);
  });

  it('refuses banned and excluded viewers, and applies linked-only and subs-only', async () => {
    const banned = await viewer();
    await t.database.db.insert(kickBans).values({
      kickUserId: banned.kickId,
      kickUsername: banned.kickName,
      bannedAt: t.clock.now(),
      messageId: `ban-${banned.kickId}`,
      receivedAt: t.clock.now(),
    });
    expect(await chat(banned, '!sr mental')).toEqual([`@${banned.kickName} you are banned in chat.`]);
    const excluded = await linkedChatter(t, String(++kick), { excluded: true });
    expect(await chat(excluded, '!sr mental')).toEqual([
      `@${excluded.kickName} your account is excluded from slot calls.`,
    ]);
    await rules({ linkedOnly: true });
    const anon = stranger();
    expect(await chat(anon, '!sr mental')).toEqual([
      `@${anon.kickName} link your Kick account on the site first (!verify).`,
    ]);
    await rules({ subsOnly: true });
    const fan = await viewer();
    expect(await chat(fan, '!sr mental')).toEqual([`@${fan.kickName} slot calls are for subscribers only.`]);
    const sub = chatPayload(t, fan.kickName, '!sr mental', { userId: fan.kickId, subscriber: true });
    await postDelivery(t, signedDelivery(sub, { at: t.clock.now() }));
    expect(await repliesTo(t, sub.message_id as string)).toEqual([`@${fan.kickName} call taken: Mental.`]);
  });
});

describe('the cost and its refund', () => {
  beforeEach(async () => {
    expect((await call('POST', '/api/admin/slot-calls/open')).status).toBe(200);
  });

  it('takes the cost through the ledger and refunds it once when the call is removed, skipped or cleared', async () => {
    await rules({ cost: 25, maxPerViewer: 3 });
    const poor = await viewer('10');
    expect(await chat(poor, '!sr mental')).toEqual([`@${poor.kickName} a call costs 25.00 points: not enough points.`]);
    expect(await points(poor)).toBe('10.00');

    const payer = await viewer('100');
    await chat(payer, '!sr mental');
    await chat(payer, '!sr sugar rush');
    await chat(payer, '!sr reactoonz');
    expect(await points(payer)).toBe('25.00');
    const [mental, sugar] = (await state()).queue;
    const removed = await call(
      'POST',
      `/api/admin/slot-calls/${mental!.id}/resolve`,
      { outcome: 'removed' },
      moderator,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(`Mental (${payer.kickName}) removed, cost refunded.`);
    expect(await points(payer)).toBe('50.00');
    // Removing it again is a 409 and pays nothing.
    expect((await call('POST', `/api/admin/slot-calls/${mental!.id}/resolve`, { outcome: 'removed' })).status).toBe(
      409,
    );
    await call('POST', `/api/admin/slot-calls/${sugar!.id}/resolve`, { outcome: 'played' });
    expect(await points(payer)).toBe('50.00');
    const cleared = await call('POST', '/api/admin/slot-calls/clear', undefined, moderator);
    expect(cleared.body.message).toBe('Queue cleared: 1 calls, 1 refunded.');
    expect(await points(payer)).toBe('75.00');
    expect((await call('POST', '/api/admin/slot-calls/clear')).body.message).toBe(
      'Queue cleared: 0 calls, 0 refunded.',
    );
    expect(await points(payer)).toBe('75.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('keeps the rules and the balances to admins: a moderator runs the queue but cannot set the cost', async () => {
    expect((await call('PUT', '/api/admin/slot-calls/rules', { ...defaultRules, cost: 1 }, moderator)).status).toBe(
      403,
    );
    expect(
      (await call('POST', '/api/admin/slot-calls/catalogue', { name: 'X', provider: 'Y' }, moderator)).status,
    ).toBe(403);
    expect((await call('POST', '/api/admin/slot-calls/close', undefined, moderator)).status).toBe(200);
    const before = (await state()).version;
    const bad = await call('PUT', '/api/admin/slot-calls/rules', { ...defaultRules, cost: -5 });
    expect([bad.status, bad.body.message]).toEqual([400, 'The call cost cannot be negative.']);
    const nul = await call('PUT', '/api/admin/slot-calls/rules', { ...defaultRules, blacklist: ['a\u0007'] });
    expect([nul.status, nul.body.message]).toEqual([400, 'A blacklisted name cannot contain control characters.']);
    expect((await state()).version).toBe(before);
  });
});

describe('the random pick', () => {
  it('draws among the queued calls with the seed published before, and the record recomputes', async () => {
    await call('POST', '/api/admin/slot-calls/open');
    await rules({ maxPerViewer: 5 });
    const before = (await state()).nextSeedHash!;
    const who = stranger();
    for (const slot of ['mental', 'sugar rush', 'reactoonz', 'le bandit']) await chat(who, `!sr ${slot}`);
    const picked = await call('POST', '/api/admin/slot-calls/pick', undefined, moderator);
    expect(picked.status).toBe(200);
    const s = picked.body.state;
    expect(s.nextSeedHash).not.toBe(before);
    expect(s.nextUp?.status).toBe('playing');
    const record = (await t.call({ method: 'GET', url: `/api/slot-calls/picks/${s.lastPick!.id}` })).json<RollRecord>();
    expect(record.seedHash).toBe(before);
    // Recomputed here without the draw's code (docs/features/giveaway.md#how-a-draw-is-verified).
    expect(createHash('sha256').update(record.serverSeed).digest('hex')).toBe(before);
    const text = JSON.stringify(record.snapshot);
    expect(createHash('sha256').update(text).digest('hex')).toBe(record.snapshotHash);
    const total = record.snapshot.length;
    let ticket = -1;
    for (let attempt = 0; ticket < 0; attempt++) {
      const h = createHmac('sha256', record.serverSeed).update(`${record.snapshotHash}:0:${attempt}`).digest();
      const r = h.readUIntBE(0, 6);
      if (r < Math.floor(2 ** 48 / total) * total) ticket = r % total;
    }
    expect(record.winners).toEqual([record.snapshot[ticket]!.kickUserId]);
    expect(record.winners[0]).toBe(s.nextUp!.id);
    expect(record.snapshot).toHaveLength(4);
  });
});

describe('Add to hunt', () => {
  it('puts the call in the running hunt with its caller and pays the caller once when it pays enough', async () => {
    await call('POST', '/api/admin/slot-calls/open');
    await rules({ payoutMultiplier: 100, payoutPoints: 500, maxPerViewer: 2 });
    const caller = await viewer();
    await chat(caller, '!sr wanted dead or a wild');
    await chat(caller, '!sr mental');
    const [wanted, mental] = (await state()).queue;
    expect((await call('POST', `/api/admin/slot-calls/${wanted!.id}/hunt`, { bet: 2 })).body.message).toBe(
      'No bonus hunt is running: start one on Run Bonus Hunt first.',
    );
    const hunt = (
      await t.call({
        method: 'POST',
        url: '/api/admin/hunts',
        as: admin,
        body: { name: 'Calls hunt', startCost: 100, guessPrize: 0 },
      })
    ).json<HuntView>();
    const added = await call('POST', `/api/admin/slot-calls/${wanted!.id}/hunt`, { bet: 2 }, moderator);
    expect(added.status).toBe(200);
    expect(await t.app.slotCalls.openCallOf({ userId: caller.user.id })).toMatchObject({
      id: mental!.id,
      slot: 'Mental',
    });
    await call('POST', `/api/admin/slot-calls/${mental!.id}/hunt`, { bet: 1, cost: 5 });
    expect(added.body.state.queue.map((c) => c.id)).toEqual([mental!.id]);
    const view = (await t.call({ method: 'GET', url: '/api/hunts' })).json<{ current: HuntView }>().current;
    expect(view.bonuses.map((b) => [b.slot, b.provider, b.bet, b.calledBy])).toEqual([
      ['Wanted Dead or a Wild', 'Hacksaw Gaming', 2, caller.kickName],
      ['Mental', 'Nolimit City', 1, caller.kickName],
    ]);
    const open = (id: string, payout: number) =>
      t.call({
        method: 'POST',
        url: `/api/admin/hunts/${hunt.id}/bonuses/${id}/open`,
        as: moderator,
        body: { payout },
      });
    expect((await open(view.bonuses[0]!.id, 500)).statusCode).toBe(200); // 250x
    expect(await points(caller)).toBe('500.00');
    expect((await open(view.bonuses[0]!.id, 500)).statusCode).toBe(409);
    expect((await open(view.bonuses[1]!.id, 50)).statusCode).toBe(200); // 50x: under the multiplier set
    expect(await points(caller)).toBe('500.00');
    expect(await ledgerRows('slot_call_payout')).toEqual({ n: 1, sum: '500.00' });
    const recent = (await state()).recent;
    expect(recent.map((c) => [c.slot, c.status, c.multiplier, c.payout])).toEqual(
      expect.arrayContaining([
        ['Wanted Dead or a Wild', 'hunted', 250, 500],
        ['Mental', 'hunted', 50, null],
      ]),
    );
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await t.app.slotCalls.openCallOf({ kickUserId: caller.kickId })).toBeNull();
    expect(await t.app.slotCalls.openCallOf({ userId: caller.user.id })).toBeNull();
  });
});

describe('the catalogue', () => {
  it('lets an admin add a slot that calls then match, and refuses one already there', async () => {
    const name = `Kickback Bonanza ${++kick}`;
    const added = await t.call({
      method: 'POST',
      url: '/api/admin/slot-calls/catalogue',
      as: admin,
      body: { name, provider: 'House Games' },
    });
    expect(added.statusCode).toBe(200);
    const again = await t.call({
      method: 'POST',
      url: '/api/admin/slot-calls/catalogue',
      as: admin,
      body: { name: 'gates-of-olympus', provider: 'X' },
    });
    expect(again.statusCode).toBe(409);
    await call('POST', '/api/admin/slot-calls/open');
    const who: Chatter = await viewer();
    expect(await chat(who, `!sr ${name.toLowerCase().replace(/ /g, '-')}`)).toEqual([
      `@${who.kickName} call taken: ${name}.`,
    ]);
    expect((await state()).queue[0]).toMatchObject({ provider: 'House Games', flagged: false });
  });
});

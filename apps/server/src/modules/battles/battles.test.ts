/**
 * Bonus-buy battles through their routes and chat: who may call what, bad input refused with
 * nothing changed, the entry rules (wager gate, verified link, banned and excluded never), `!enter`,
 * the registration deadline closing and drawing the bracket, the draw recomputed by the public
 * procedure, results, replays and voids audited, and the prize paid once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { drawWinners, snapshotHashOf } from '@kickback/common/giveaway/draw';
import type { BattleState } from '@kickback/common/hubs/battle';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { auditLog } from '../../db/schema/audit';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { liveGames } from '../../db/schema/games';
import { kickBans } from '../../db/schema/kick-bans';
import { slotCalls } from '../../db/schema/slot-calls';
import { leaderboardPeriods, leaderboardStandings } from '../../db/schema/leaderboards';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { nodeDrawCrypto } from '../../lib/draw-crypto';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { linkVerified } from '../../../test/partner-links';
import { linkedChatter, repliesTo, say } from '../../../test/predictions';
import { WARM_UP_TIMEOUT, warmUp } from '../../../test/warm';

let t: TestApp;
let admin: TestUser;
let periodId: number;
const ROOBET = 6;

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Battle Admin' });
  const now = t.clock.now();
  const [period] = await t.database.db
    .insert(leaderboardPeriods)
    .values({
      site: ROOBET,
      startAt: new Date(now.getTime() - 3_600_000),
      endAt: new Date(now.getTime() + 30 * 86_400_000),
    })
    .returning();
  periodId = period!.id;
});
afterAll(() => t.close());

let n = 0;
/** A user with a verified Roobet link who wagered `wagered` under the code this period. */
async function wagerer(wagered: string | null, user?: TestUser): Promise<TestUser> {
  const u = user ?? (await t.signIn({ name: `Battler${++n}` }));
  const name = `roo-battler-${u.user.id.slice(0, 8)}`;
  await linkVerified(t.database.db, u.user.id, { roobetName: name });
  if (wagered !== null) {
    await t.database.db.insert(leaderboardStandings).values({
      periodId,
      playerKey: `name:${name}`,
      username: name,
      wagered,
      unit: 'USD',
      onCode: true,
      seenAt: t.clock.now(),
    });
  }
  return u;
}

const battleBody = (over: Record<string, unknown> = {}) => ({
  title: 'Friday bonus battle',
  size: 4,
  siteId: ROOBET,
  minWager: '100',
  subsOnly: false,
  registrationMinutes: 30,
  prize: { kind: 'points', points: '750.50' },
  ...over,
});

async function create(over: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call({ method: 'POST', url: '/api/admin/battles', as: admin, body: battleBody(over) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string }>().id;
}

/** Links a Kick account to the user and bans it in Kick chat, as a `moderation.banned` would. */
async function banInKickChat(u: TestUser, kickId: string): Promise<void> {
  const kickUsername = `banned${kickId}`;
  await t.database.db.update(users).set({ kickId, kickUsername }).where(eq(users.id, u.user.id));
  await t.database.db.insert(kickBans).values({
    kickUserId: kickId,
    kickUsername,
    bannedAt: t.clock.now(),
    messageId: `ban-${kickId}`,
    receivedAt: t.clock.now(),
  });
}

const enter = (id: string, u: TestUser) => t.call({ method: 'POST', url: `/api/battles/${id}/enter`, as: u });
const state = async (id: string) =>
  (await t.call({ method: 'POST', url: `/api/admin/battles/${id}/draw`, as: admin })).json<BattleState>();
const result = (id: string, no: number, a: [string, string], b: [string, string], as = admin) =>
  t.call({
    method: 'POST',
    url: `/api/admin/battles/${id}/matches/${no}/result`,
    as,
    body: { a: { cost: a[0], win: a[1] }, b: { cost: b[0], win: b[1] } },
  });
const prizeRows = (userId: string) =>
  t.database.db
    .select()
    .from(ledger)
    .where(and(eq(ledger.userId, userId), eq(ledger.reason, 'battle_prize')));

describe('access and bad input', () => {
  it('admin routes: 401 signed out, 403 for a User or a Moderator; enter needs sign-in', async () => {
    const id = await create();
    const user = await t.signIn();
    const moderator = await t.signIn({ role: 'Moderator' });
    for (const [method, url, body] of [
      ['GET', '/api/admin/battles', undefined],
      ['POST', '/api/admin/battles', battleBody()],
      ['POST', `/api/admin/battles/${id}/close`, undefined],
      ['POST', `/api/admin/battles/${id}/cancel`, { reason: 'x' }],
      ['POST', `/api/admin/battles/${id}/matches/0/result`, { a: { cost: 1, win: 1 }, b: { cost: 1, win: 1 } }],
      ['POST', `/api/admin/battles/${id}/matches/0/void`, { reason: 'x' }],
    ] as const) {
      expect((await t.call({ method, url, body })).statusCode).toBe(401);
      expect((await t.call({ method, url, body, as: user })).statusCode).toBe(403);
      expect((await t.call({ method, url, body, as: moderator })).statusCode).toBe(403);
    }
    expect((await t.call({ method: 'POST', url: `/api/battles/${id}/enter` })).statusCode).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.call({ method: 'POST', url: `/api/battles/${unknown}/enter`, as: user })).statusCode).toBe(404);
    expect((await t.call({ url: `/api/battles/${unknown}/draw` })).statusCode).toBe(404);
  });

  it('a bad battle names its fields', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/battles',
      as: admin,
      body: battleBody({ title: ' ', size: 6, registrationMinutes: 0, prize: { kind: 'points', points: '-5' } }),
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json<{ fields: { path: string }[] }>()
        .fields.map((f) => f.path)
        .sort(),
    ).toEqual(['prize.points', 'registrationMinutes', 'size', 'title']);
    const noSite = await t.call({
      method: 'POST',
      url: '/api/admin/battles',
      as: admin,
      body: battleBody({ siteId: null }),
    });
    expect(noSite.json<{ fields: { path: string }[] }>().fields[0]!.path).toBe('siteId');
  });

  it('slot names: empty, 10 KB and control characters are refused and nothing changes', async () => {
    const id = await create();
    const u = await wagerer('500');
    expect((await enter(id, u)).statusCode).toBe(200);
    const before = await state(id);
    for (const slot of ['', '   ', 'x'.repeat(10 * 1024), 'Gates\u0000of Olympus', 'Sugar\nRush']) {
      const res = await t.call({ method: 'PUT', url: `/api/battles/${id}/slot`, as: u, body: { slot } });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      const body = res.json<{ message: string; fields?: { path: string }[] }>();
      // A NUL is refused for the whole request before the schema runs; the rest name the field.
      if (slot.includes('\u0000')) expect(body.message).toContain('slot');
      else expect(body.fields?.[0]?.path).toBe('slot');
    }
    expect((await state(id)).version).toBe(before.version);
    const ok = await t.call({ method: 'PUT', url: `/api/battles/${id}/slot`, as: u, body: { slot: 'Sugar Rush' } });
    expect(ok.json<BattleState>().entrants[0]!.slot).toBe('Sugar Rush');
    // Only an entrant sets their own slot.
    const stranger = await t.signIn();
    expect(
      (await t.call({ method: 'PUT', url: `/api/battles/${id}/slot`, as: stranger, body: { slot: 'Sugar Rush' } }))
        .statusCode,
    ).toBe(403);
  });
});

describe('entry rules', () => {
  it('wager gate, verified link, excluded and banned: refused with the reason, nothing changes', async () => {
    const id = await create({ subsOnly: false });
    const low = await wagerer('99.99');
    const res = await enter(id, low);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe(
      'You cannot enter this battle: it takes a wager of 100.00 on Roobet this period; you have 99.99.',
    );
    const unlinked = await t.signIn();
    expect((await enter(id, unlinked)).json<{ message: string }>().message).toContain(
      'a verified Roobet link is required',
    );
    const excluded = await wagerer('1000');
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, excluded.user.id));
    expect((await enter(id, excluded)).json<{ message: string }>().message).toContain('excluded');
    const banned = await wagerer('1000');
    await banInKickChat(banned, '93001');
    expect((await enter(id, banned)).json<{ message: string }>().message).toContain('banned in Kick chat');
    expect((await state(id)).entrants).toEqual([]);

    // An entrant with an open slot call enters with that slot.
    const good = await wagerer('100');
    await t.database.db.insert(slotCalls).values({
      messageId: `call-${good.user.id}`,
      kickUserId: '94001',
      kickUsername: 'caller94001',
      userId: good.user.id,
      slot: 'Gates of Olympus',
      typed: 'gates olympus',
      known: true,
      calledAt: t.clock.now(),
    });
    const entered = await enter(id, good);
    expect(entered.statusCode).toBe(200);
    expect(entered.json<BattleState>().entrants[0]!.slot).toBe('Gates of Olympus');
    const again = await enter(id, good);
    expect(again.statusCode).toBe(409);
    expect((await state(id)).entrants).toHaveLength(1);
  });

  it('!enter in chat: linked and eligible enters, others are told why', async () => {
    const id = await create({ siteId: null, minWager: null, title: 'Chat battle' });
    const chatter = await linkedChatter(t, '91001');
    const entered = await say(t, chatter, '!enter');
    expect(entered.res.statusCode).toBe(200);
    expect((await state(id)).entrants.map((e) => e.userId)).toContain(chatter.user.id);
    expect((await repliesTo(t, entered.messageId)).join()).toContain('you are in "Chat battle"');
    const twice = await say(t, chatter, '!enter');
    expect((await repliesTo(t, twice.messageId)).join()).toContain('already in this battle');
    const stranger = await say(t, { kickId: '91002', kickName: 'stranger91002' }, '!enter');
    expect((await repliesTo(t, stranger.messageId)).join()).toContain('link your Kick account');
    // With no battle taking entries (this one and any other still open cancelled):
    for (const b of (await t.call({ url: '/api/battles' })).json<{ id: string; status: string }[]>()) {
      if (b.status !== 'registration') continue;
      await t.call({ method: 'POST', url: `/api/admin/battles/${b.id}/cancel`, as: admin, body: { reason: 'over' } });
    }
    const late = await say(t, chatter, '!enter');
    expect((await repliesTo(t, late.messageId)).join()).toContain('no battle is taking entries');
  });
});

describe('a battle from registration to the prize', () => {
  it('the deadline closes and draws; matches are recorded; the winner is paid once', async () => {
    const id = await create({ size: 4, prize: { kind: 'points', points: '750.50' } });
    const people: TestUser[] = [];
    for (let i = 0; i < 6; i++) {
      const u = await wagerer('250');
      people.push(u);
      expect((await enter(id, u)).statusCode).toBe(200);
    }
    const before = await state(id);
    expect(before.seed).toBeNull();
    expect(before.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.call({ url: `/api/battles/${id}/draw` })).statusCode).toBe(409);

    // The registration deadline, fired by the durable timers.
    t.clock.advance(31 * 60_000);
    await t.app.timers.runDue();
    await expect.poll(async () => (await state(id)).status).toBe('playing');
    const drawn = await state(id);
    expect(drawn.seed).not.toBeNull();
    expect(drawn.matches.filter((m) => m.round === 0).every((m) => m.state === 'ready')).toBe(true);

    // The draw recomputed by the public procedure: 4 of the 6, in the seating order.
    const record = (await t.call({ url: `/api/battles/${id}/draw` })).json<RollRecord>();
    expect(await snapshotHashOf(nodeDrawCrypto, record.snapshot)).toBe(record.snapshotHash);
    expect(await drawWinners(nodeDrawCrypto, record.serverSeed, record.snapshot, 4)).toEqual(record.winners);
    expect(record.snapshot).toHaveLength(6);
    const seated = drawn.matches
      .filter((m) => m.round === 0)
      .flatMap((m) => [m.a, m.b])
      .map((s) => (s.kind === 'entrant' ? s.userId : null));
    expect(seated).toEqual([record.winners[0], record.winners[2], record.winners[1], record.winners[3]]);

    // Results for a match not in play, and negative or absurd amounts: refused, nothing changes.
    expect((await result(id, 1, ['10', '20'], ['10', '5'])).statusCode).toBe(409);
    expect((await result(id, 2, ['10', '20'], ['10', '5'])).statusCode).toBe(409);
    const bad = await result(id, 0, ['-10', '20'], ['10', '99999999999']);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: { path: string }[] }>().fields.map((f) => f.path)).toEqual(['a.cost', 'b.win']);
    expect((await state(id)).version).toBe(drawn.version);

    // Match 0, then a replay with a reason (audited), played again; match 1 voided then replayed.
    expect((await result(id, 0, ['100', '250'], ['100', '249.99'])).statusCode).toBe(200);
    const replay = await t.call({
      method: 'POST',
      url: `/api/admin/battles/${id}/matches/0/replay`,
      as: admin,
      body: { reason: 'wrong buy recorded' },
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json<BattleState>().currentMatchNo).toBe(0);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audits.map((a) => a.action)).toContain('battle.replay');
    expect(JSON.stringify(audits.find((a) => a.action === 'battle.replay')!.after)).toContain('wrong buy recorded');

    let s = (await result(id, 0, ['100', '100'], ['50', '100'])).json<BattleState>();
    expect(s.matches[0]!.result!.b.multiplier).toBe('2.00');
    const winner0 = s.matches[0]!.winnerId;
    expect(winner0).toBe((s.matches[0]!.b as { userId: string }).userId);
    s = (await result(id, 1, ['20', '0'], ['20', '1'])).json<BattleState>();
    expect(s.currentMatchNo).toBe(2);

    // The final, twice: the prize once.
    const final = await result(id, 2, ['40', '400'], ['40', '10']);
    expect(final.statusCode).toBe(200);
    s = final.json<BattleState>();
    expect(s.status).toBe('finished');
    expect(s.winner!.userId).toBe(winner0);
    expect((await result(id, 2, ['40', '400'], ['40', '10'])).statusCode).toBe(409);
    const paid = await prizeRows(winner0!);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.delta).toBe('750.50');
    // Nothing can be replayed after the prize.
    const late = await t.call({
      method: 'POST',
      url: `/api/admin/battles/${id}/matches/2/replay`,
      as: admin,
      body: { reason: 'too late' },
    });
    expect(late.statusCode).toBe(409);
    expect(await prizeRows(winner0!)).toHaveLength(1);
  });

  it('an item prize goes to Fulfilment once', async () => {
    const id = await create({ siteId: null, minWager: null, prize: { kind: 'item', item: 'Signed bonus-buy hoodie' } });
    const a = await t.signIn();
    const b = await t.signIn();
    await enter(id, a);
    await enter(id, b);
    await t.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    const s = await state(id);
    expect(s.currentMatchNo).toBe(2);
    await result(id, 2, ['10', '30'], ['10', '20']);
    const rows = await t.database.db
      .select()
      .from(fulfilmentItems)
      .where(eq(fulfilmentItems.reference, `battle:${id}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.description).toBe('Battle "Friday bonus battle": Signed bonus-buy hoodie');
  });

  it('records who finished it: the prize gate hears of the finisher and the prize audit names him', async () => {
    const id = await create({ siteId: null, minWager: null, prize: { kind: 'points', points: '40' } });
    const finisher = await t.signIn({ role: 'Admin', name: 'Final recorder' });
    const a = await t.signIn();
    const b = await t.signIn();
    await enter(id, a);
    await enter(id, b);
    await t.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    expect((await state(id)).currentMatchNo).toBe(2);
    const [before] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, id));
    expect(before!.finishedBy).toBeNull();
    const done = await result(id, 2, ['10', '30'], ['10', '20'], finisher);
    expect(done.json<BattleState>().status).toBe('finished');
    const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, id));
    expect(row!.ownerUserId).toBe(admin.user.id);
    expect(row!.finishedBy).toBe(finisher.user.id);
    const [paid] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'prize.paid')));
    expect(paid).toMatchObject({ actorUserId: finisher.user.id, actorLabel: 'Final recorder' });
    expect((paid!.after as { runBy: string[] }).runBy.sort()).toEqual([admin.user.id, finisher.user.id].sort());

    // A voided final pays nobody, and still records who ended the battle.
    const other = await create({ siteId: null, minWager: null });
    await enter(other, await t.signIn());
    await enter(other, await t.signIn());
    await t.call({ method: 'POST', url: `/api/admin/battles/${other}/close`, as: admin });
    const voided = await t.call({
      method: 'POST',
      url: `/api/admin/battles/${other}/matches/2/void`,
      as: finisher,
      body: { reason: 'stream crashed' },
    });
    expect(voided.json<BattleState>().status).toBe('finished');
    const [ended] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, other));
    expect(ended!.finishedBy).toBe(finisher.user.id);
  });

  it('an entrant excluded or banned after entering is left out of the draw, and the record says so', async () => {
    const id = await create({ siteId: null, minWager: null, size: 4 });
    const [a, b, c, d] = [await t.signIn(), await t.signIn(), await t.signIn(), await t.signIn()];
    for (const u of [a, b, c, d]) expect((await enter(id, u)).statusCode).toBe(200);
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, a.user.id));
    await banInKickChat(b, '95001');
    await t.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    const s = await state(id);
    expect(s.status).toBe('playing');
    const seated = s.matches.flatMap((m) => [m.a, m.b]).flatMap((x) => (x.kind === 'entrant' ? [x.userId] : []));
    expect(new Set(seated)).toEqual(new Set([c.user.id, d.user.id]));
    // The published snapshot is the one drawn from: it verifies.
    const record = (await t.call({ url: `/api/battles/${id}/draw` })).json<RollRecord>();
    expect(record.snapshot.map((e) => e.kickUserId).sort()).toEqual([c.user.id, d.user.id].sort());
    expect(await snapshotHashOf(nodeDrawCrypto, record.snapshot)).toBe(record.snapshotHash);
    expect(await drawWinners(nodeDrawCrypto, record.serverSeed, record.snapshot, 2)).toEqual(record.winners);
  });

  it('fewer than two entrants left at the draw cancels the battle', async () => {
    const id = await create({ siteId: null, minWager: null, size: 4 });
    const [a, b] = [await t.signIn(), await t.signIn()];
    for (const u of [a, b]) expect((await enter(id, u)).statusCode).toBe(200);
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, a.user.id));
    await t.call({ method: 'POST', url: `/api/admin/battles/${id}/close`, as: admin });
    expect((await state(id)).status).toBe('cancelled');
  });

  it('the public list and the overlay pick show the battle', async () => {
    const id = await create({ siteId: null, minWager: null, title: 'Listed battle' });
    const list = (await t.call({ url: '/api/battles' })).json<{ id: string; title: string }[]>();
    expect(list.find((b) => b.id === id)?.title).toBe('Listed battle');
    expect((await t.call({ url: '/api/battles/current' })).json<{ id: string | null }>().id).toBe(id);
  });
});

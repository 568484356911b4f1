/**
 * The giveaway through the real app: chat keys arrive as signed Kick webhook deliveries, admins
 * drive the `/KickGiveAway` hub with real socket.io-clients, prizes go through the ledger, and
 * every roll is re-computed from its public record by an independent implementation.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import {
  giveawayHub,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawaySettings,
  type GiveawayState,
} from '@kickback/common/hubs/giveaway';
import { giveawayOverlayHub, type OverlayRoll, type OverlayState } from '@kickback/common/hubs/giveaway-overlay';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { kickChatActivity } from '../../db/schema/chat';
import { ledger } from '../../db/schema/ledger';
import { leaderboardPeriods, leaderboardStandings } from '../../db/schema/leaderboards';
import { partnerLinks } from '../../db/schema/partner-links';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { chatMessage, chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { linkVerified } from '../../../test/partner-links';
import { raceBarrier } from '../../../test/race';
import { independentDraw, independentSnapshotHash, sha256Hex } from '../../../test/independent-draw';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let hub: HubClient;
const clients: HubClient[] = [];

const defaults = {
  isSubOnly: false,
  isClashIdLinkedOnly: false,
  isRustMagicCodeOnly: false,
  isRoobetCodeOnly: false,
  subLuck: 1,
  chatActivityFilterInSeconds: 0,
  rewinCooldownInSeconds: 86_400,
  winnersPerRoll: 1,
  prizePoints: 0,
  minLinkedDays: 0,
};

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  const first = await connect(admin);
  await first.ok('AddKey', '!join');
});
// A fresh admin socket per test: each socket has a call budget (5/s, burst 20) like in production.
beforeEach(async () => {
  hub = await connect(admin);
  await hub.ok('UpdateStateSettings', defaults);
  await hub.ok('SetKeys', ['!join']);
  await hub.ok('ClearParticipants');
  hub.received.length = 0;
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(who: TestUser | null): Promise<HubClient> {
  const c = new HubClient(url, giveawayHub, { query: {}, ...(who ? { cookie: who.cookie } : {}) });
  clients.push(c);
  return c.connected();
}

let chatter = 0;
/** A fresh Kick name per call, so tests never share a chatter (or their cooldown). */
const fresh = (base: string) => `${base}_${++chatter}`;

async function say(username: string, content: string, opts: { subscriber?: boolean } = {}) {
  const delivery = signedDelivery(chatPayload(t, username, content, opts));
  const res = await postDelivery(t, delivery);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return delivery;
}

const names = (list: GiveawayParticipant[]) => list.map((p) => p.username).sort();

/** A site user who linked this Kick name (as !verify would have). */
async function linkKick(username: string, extra: Partial<typeof users.$inferInsert> = {}): Promise<TestUser> {
  const user = await t.signIn({ name: `site-${username}` });
  await t.database.db
    .update(users)
    .set({ kickId: simulatedKickUserId(username), kickUsername: username, ...extra })
    .where(eq(users.id, user.user.id));
  await t.app.chat.linkChanged(user.user.id);
  return user;
}

describe('entering from chat', () => {
  it('a signed webhook delivery of an active key enters its sender once, with the participant shape', async () => {
    const alice = fresh('alice');
    const delivery = await say(alice, '  !JOIN ');
    const entry = await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === alice);
    expect(entry).toEqual({
      kickUserId: simulatedKickUserId(alice),
      username: alice,
      identity: { color: expect.stringMatching(/^#[0-9A-F]{6}$/) },
      isSubscriber: false,
      account: null,
      isActiveOnClash: false,
      isActiveOnCsGoBig: false,
      isActiveRustMagic: false,
      isActiveOnHowl: false,
      isActiveOnRoobet: false,
      wagered10k: false,
    });
    // The same delivery again (Kick retries) and a second message with the key: still one entry.
    await postDelivery(t, delivery);
    await say(alice, '!join');
    await say(fresh('bob'), 'hello !join'); // not equal to the key
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([alice]);
    expect(hub.events('ReceiveNewParticipant')).toHaveLength(1);
  });

  it('is cheap: no statement for a plain message, one batched statement for a key, from an unlinked chatter', async () => {
    const raw = t.database.raw as { query: (...args: unknown[]) => Promise<unknown> };
    const gina = fresh('gina');
    const message = (content: string) =>
      chatMessage(t, { kickUserId: simulatedKickUserId(gina), kickUsername: gina, content });
    await t.app.giveaway.enter(message('warming up'), null); // the keys are read once after a change
    const spy = vi.spyOn(raw, 'query');
    // The entry path's statements only: another part of the app (an earlier test's chat writes
    // still being flushed, say) may run its own meanwhile, and so may the overlay's participant
    // count (a read of giveaway_round_counts), which follows an entry by 250 ms (an earlier entry's
    // can land in any window here).
    const textOf = (q: unknown) => (typeof q === 'string' ? q : String((q as { text?: unknown })?.text));
    const statements = {
      mockClear: () => spy.mockClear(),
      count: () =>
        spy.mock.calls.filter(([q]) => /giveaway/i.test(textOf(q)) && !/giveaway_round_counts/i.test(textOf(q))).length,
    };
    try {
      for (const [content, consumed, count] of [
        ['hello there', false, 0],
        ['!join', true, 1],
        ['!join', true, 1], // already in: still one statement
      ] as const) {
        statements.mockClear();
        expect(await t.app.giveaway.enter(message(content), null)).toBe(consumed);
        expect(statements.count(), content).toBe(count);
      }
      const entry = await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === gina);
      expect(entry).toMatchObject({ username: gina, account: null, isSubscriber: false });
      expect(hub.events('ReceiveNewParticipant')).toHaveLength(1);
      // Keys typed at once by many chatters go to the database together.
      const crowd = Array.from({ length: 20 }, () => fresh('crowd'));
      statements.mockClear();
      const entered = await Promise.all(
        crowd.map((name) =>
          t.app.giveaway.enter(
            chatMessage(t, { kickUserId: simulatedKickUserId(name), kickUsername: name, content: '!JOIN' }),
            null,
          ),
        ),
      );
      expect(entered.every(Boolean)).toBe(true);
      expect(statements.count()).toBe(1);
      expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([gina, ...crowd].sort());
    } finally {
      spy.mockRestore();
    }
  });

  it('one chatter twice in one batched statement enters and is announced once', async () => {
    const twice = fresh('twice');
    const message = () =>
      chatMessage(t, { kickUserId: simulatedKickUserId(twice), kickUsername: twice, content: '!join' });
    await t.app.giveaway.enter(chatMessage(t, { content: 'warming up' }), null);
    const batches = t.app.giveaway.entryBatches;
    expect(await Promise.all([t.app.giveaway.enter(message(), null), t.app.giveaway.enter(message(), null)])).toEqual([
      true,
      true,
    ]);
    expect(t.app.giveaway.entryBatches - batches).toBe(1);
    await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === twice);
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([twice]);
    expect(hub.events('ReceiveNewParticipant')).toHaveLength(1);
  });

  it('the participant count shown stays exact: two batches, a duplicate, the general path, a delete, a clear', async () => {
    const overlay = new HubClient(url, giveawayOverlayHub, { query: {} });
    clients.push(overlay);
    await overlay.connected();
    // The round's rows, counted; and what the admin state and the overlay show.
    const rows = async () =>
      (
        await t.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM giveaway_participants p
           JOIN giveaway_settings s ON s.id = 1 AND p.round_id = s.round_id`,
        )
      )[0]!.n;
    const shown = async () => [
      (await hub.ok<GiveawayState>('GetState')).participantCount,
      (await overlay.ok<OverlayState>('GetOverlayState')).participantCount,
    ];
    const expectShown = async (n: number) => {
      expect(await rows()).toBe(n);
      expect(await shown()).toEqual([n, n]);
      // The overlay's pushed count follows (throttled to one per 250 ms per process).
      if (n > 0) await overlay.waitFor<number>('ReceiveParticipantCount', (c) => c === n);
    };
    const enter = (name: string) =>
      t.app.giveaway.enter(
        chatMessage(t, { kickUserId: simulatedKickUserId(name), kickUsername: name, content: '!join' }),
        null,
      );
    await expectShown(0);
    const first = [fresh('count'), fresh('count'), fresh('count')];
    const batches = t.app.giveaway.entryBatches;
    await Promise.all(first.map(enter));
    expect(t.app.giveaway.entryBatches - batches).toBe(1);
    await expectShown(3);
    // A second batch holding one chatter already in, twice.
    await Promise.all([fresh('count'), first[0]!, first[0]!, fresh('count')].map(enter));
    await expectShown(5);
    // A redelivered webhook: the same message again enters no one.
    const late = fresh('count');
    const delivery = await say(late, '!join');
    await postDelivery(t, delivery);
    await expectShown(6);
    // A linked chatter takes the general path (its own insert).
    const linked = fresh('count');
    await linkKick(linked);
    await say(linked, '!join');
    await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === linked);
    await expectShown(7);
    // Whoever writes the table: a row deleted, rows written straight into the round.
    await t.database.query(`DELETE FROM giveaway_participants WHERE kick_user_id = $1`, [simulatedKickUserId(late)]);
    expect(await rows()).toBe(6);
    expect(await shown()).toEqual([6, 6]);
    await t.database.query(
      `INSERT INTO giveaway_participants (round_id, kick_user_id, kick_username, draw_entry, entered_at)
       SELECT s.round_id, 'fill-' || g, 'fill_' || g, '"fill-' || g || '","fill_' || g || '"', now()
       FROM giveaway_settings s, generate_series(1, 3) g WHERE s.id = 1`,
    );
    expect(await rows()).toBe(9);
    expect(await shown()).toEqual([9, 9]);
    // Cleared: a new round, counted from zero. The overlay gets 0 at once, then the count read again
    // (a count of the old round read just before the clear may have reached it after the 0) — the
    // NEW round's, also when the clear comes right after an entry whose count is still pending.
    const counts = () => overlay.events<number>('ReceiveParticipantCount');
    const clearedShowsZero = async () => {
      const mark = counts().length;
      await hub.ok('ClearParticipants');
      await vi.waitFor(
        () =>
          expect(
            counts()
              .slice(mark)
              .filter((c) => c === 0).length,
          ).toBeGreaterThanOrEqual(2),
        {
          timeout: 10_000,
        },
      );
      expect(counts().at(-1)).toBe(0);
      await expectShown(0);
    };
    await clearedShowsZero(); // no count pending (the last one arrived above)
    await enter(first[1]!);
    await expectShown(1);
    await enter(fresh('count'));
    await clearedShowsZero(); // the entry's count still pending
    await enter(first[2]!);
    await expectShown(1);
  });

  it('the keys and the winners kept in memory follow every change (invalidation)', async () => {
    const early = fresh('early');
    await say(early, 'hello'); // the keys are in memory now: only !join
    await hub.ok('AddKey', '!fresh');
    await hub.ok('SetKeys', ['!join', '!fresh']);
    const late = fresh('late');
    await say(late, '!fresh');
    await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === late);
    // Deactivated: the key is no longer one (memory follows SetKeys).
    await hub.ok('SetKeys', ['!join']);
    const after = fresh('after');
    await say(after, '!fresh');
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([late]);
    // The winners: memory held the previous roll's winners (or none) before this roll.
    const roll = await hub.ok<GiveawayRoll>('Roll');
    expect(roll.winners[0]!.username).toBe(late);
    await say(late, 'thanks!');
    const msg = await hub.waitFor<{ content: string }>('ReceiveNewWinnerMessage', (m) => m.content === 'thanks!');
    expect(msg.content).toBe('thanks!');
  });

  it('an inactive key, an excluded account and a chatter failing a filter do not enter', async () => {
    await hub.ok('AddKey', 'spare');
    await hub.ok('SetKeys', ['spare']);
    const carol = fresh('carol');
    await say(carol, '!join');
    const excluded = fresh('bot');
    await linkKick(excluded, { excluded: true });
    await say(excluded, 'spare');
    await hub.ok('UpdateStateSettings', { ...defaults, isSubOnly: true });
    const notSub = fresh('nosub');
    const sub = fresh('sub');
    await say(notSub, 'SPARE');
    await say(sub, 'spare', { subscriber: true });
    const entries = await hub.ok<GiveawayParticipant[]>('GetParticipants');
    expect(names(entries)).toEqual([sub]);
    expect(entries[0]!.isSubscriber).toBe(true);
  });

  it('partner flags and the Clash filter come from VERIFIED links and stored standings only', async () => {
    const now = t.clock.now();
    const dave = fresh('dave');
    const erin = fresh('erin');
    const daveUser = await linkKick(dave);
    const erinUser = await linkKick(erin);
    await linkVerified(t.database.db, daveUser.user.id, { clashId: `clash-${dave}`, roobetName: `roo-${dave}` });
    // Erin only claims a Clash id: never eligible for a Clash-only giveaway.
    await t.database.db.insert(partnerLinks).values({
      userId: erinUser.user.id,
      field: 'clashId',
      value: `clash-${erin}`,
      nameKey: `clash-${erin}`,
      state: 'claimed',
      claimedAt: now,
    });
    for (const [site, name, wagered] of [
      [1, `clash-${dave}`, '12000.00'],
      [6, `roo-${dave}`, '50.00'],
    ] as const) {
      const [period] = await t.database.db
        .insert(leaderboardPeriods)
        .values({ site, startAt: new Date(now.getTime() - 3_600_000), endAt: new Date(now.getTime() + 86_400_000) })
        .onConflictDoNothing()
        .returning();
      await t.database.db.insert(leaderboardStandings).values({
        periodId: period!.id,
        playerKey: `name:${name}`,
        username: name,
        wagered,
        unit: 'USD',
        onCode: true,
        seenAt: now,
      });
    }
    await hub.ok('UpdateStateSettings', { ...defaults, isClashIdLinkedOnly: true });
    await say(dave, '!join');
    await say(erin, '!join');
    const [entry, ...others] = await hub.ok<GiveawayParticipant[]>('GetParticipants');
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      username: dave,
      account: {
        clashId: `clash-${dave}`,
        roobetName: `roo-${dave}`,
        rustMagicId: null,
        steam64id: daveUser.user.steamId,
      },
      isActiveOnClash: true,
      isActiveOnRoobet: true,
      isActiveRustMagic: false,
      wagered10k: true,
    });
  });
});

describe('ages at entry (docs/features/fair-earning.md#account-and-link-age)', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * DAY);
  const fairAges = (minKickAccountDays: number, minLinkDays: number) =>
    t.database.query(`UPDATE fair_earning_settings SET min_kick_account_days = $1, min_link_days = $2 WHERE id = 1`, [
      minKickAccountDays,
      minLinkDays,
    ]);
  /** A chatter this channel first saw `days` ago. */
  const seenSince = (name: string, days: number) =>
    t.database.db
      .insert(kickChatActivity)
      .values({
        kickUserId: simulatedKickUserId(name),
        kickUsername: name,
        updatedAt: daysAgo(days),
        firstSeenAt: daysAgo(days),
      })
      .onConflictDoUpdate({ target: kickChatActivity.kickUserId, set: { firstSeenAt: daysAgo(days) } });
  afterEach(async () => {
    await fairAges(0, 0);
  });

  it('"linked at least N days": an unlinked chatter and a younger link stay out, in the one entry statement; 0 lets them in', async () => {
    await hub.ok('UpdateStateSettings', { ...defaults, minLinkedDays: 7 });
    expect((await hub.ok<GiveawayState>('GetState')).settings.minLinkedDays).toBe(7);
    const unlinked = fresh('unlinked');
    const young = fresh('younglink');
    const old = fresh('oldlink');
    await linkKick(young, { kickLinkedAt: daysAgo(3) });
    await linkKick(old, { kickLinkedAt: daysAgo(8) });
    // The unlinked chatter is refused by the entry statement itself: one statement, no insert.
    await t.app.giveaway.enter(chatMessage(t, { content: 'warming up' }), null);
    const batches = t.app.giveaway.entryBatches;
    expect(
      await t.app.giveaway.enter(
        chatMessage(t, { kickUserId: simulatedKickUserId(unlinked), kickUsername: unlinked, content: '!join' }),
        null,
      ),
    ).toBe(true);
    expect(t.app.giveaway.entryBatches - batches).toBe(1);
    await say(young, '!join');
    await say(old, '!join');
    await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === old);
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([old]);
    // Off again: both enter.
    await hub.ok('UpdateStateSettings', { ...defaults, minLinkedDays: 0 });
    await say(unlinked, '!join');
    await say(young, '!join');
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([old, unlinked, young].sort());
  });

  it('the fair-earning Kick account age and link age refuse an entry; off, they do not', async () => {
    await fairAges(5, 0);
    const newcomer = fresh('newcomer');
    const regular = fresh('regular');
    const linkedNewcomer = fresh('linkednew');
    await seenSince(regular, 6);
    await linkKick(linkedNewcomer, { kickLinkedAt: daysAgo(30) });
    await say(newcomer, '!join');
    await say(regular, '!join');
    await say(linkedNewcomer, '!join');
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([regular]);

    await fairAges(0, 3);
    const youngLink = fresh('younglink');
    const oldLink = fresh('oldlink');
    await linkKick(youngLink, { kickLinkedAt: daysAgo(1) });
    await linkKick(oldLink, { kickLinkedAt: daysAgo(4) });
    await say(youngLink, '!join');
    await say(oldLink, '!join');
    // The fair-earning link age holds linked accounts only: an unlinked chatter still enters.
    await say(newcomer, '!join');
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toEqual([regular, oldLink, newcomer].sort());

    await fairAges(0, 0);
    await say(youngLink, '!join');
    expect(names(await hub.ok<GiveawayParticipant[]>('GetParticipants'))).toContain(youngLink);
  });
});

describe('settings and keys', () => {
  it('out-of-range settings are refused with a clear message and change nothing', async () => {
    const before = await hub.ok<GiveawayState>('GetState');
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ subLuck: 0 }, /Subs Luck must be from 1 to 5/],
      [{ subLuck: 6 }, /Subs Luck must be from 1 to 5/],
      [{ subLuck: 2.5 }, /Subs Luck must be a whole number/],
      [{ chatActivityFilterInSeconds: 7 }, /Chat Activity Filter must be 0 to 600 seconds in steps of 5/],
      [{ chatActivityFilterInSeconds: 605 }, /Chat Activity Filter/],
      [{ chatActivityFilterInSeconds: -5 }, /Chat Activity Filter/],
      [{ winnersPerRoll: 11 }, /Winners per roll/],
      [{ prizePoints: 1.005 }, /at most 2 decimals/],
      [{ isSubOnly: 'yes' }, /isSubOnly/],
    ];
    for (const [change, message] of bad) {
      const res = await hub.call('UpdateStateSettings', { ...defaults, ...change, isRoobetCodeOnly: true });
      expect(res.ok, JSON.stringify(change)).toBe(false);
      expect(res.ok ? '' : res.error).toMatch(message);
    }
    expect((await hub.ok<GiveawayState>('GetState')).settings).toEqual(before.settings);
  });

  it("the contract's six settings alone are accepted; the site's four extra keep their stored values", async () => {
    await hub.ok('UpdateStateSettings', {
      ...defaults,
      rewinCooldownInSeconds: 3600,
      winnersPerRoll: 3,
      prizePoints: 7.5,
      minLinkedDays: 14,
    });
    const six = {
      isSubOnly: true,
      isClashIdLinkedOnly: false,
      isRustMagicCodeOnly: true,
      isRoobetCodeOnly: false,
      subLuck: 4,
      chatActivityFilterInSeconds: 120,
    };
    const saved = await hub.ok<GiveawaySettings>('UpdateStateSettings', six);
    const expected = { ...six, rewinCooldownInSeconds: 3600, winnersPerRoll: 3, prizePoints: 7.5, minLinkedDays: 14 };
    expect(saved).toEqual(expected);
    expect((await hub.ok<GiveawayState>('GetState')).settings).toEqual(expected);
    // One extra given alone changes that one.
    expect(await hub.ok<GiveawaySettings>('UpdateStateSettings', { ...six, winnersPerRoll: 2 })).toEqual({
      ...expected,
      winnersPerRoll: 2,
    });
    // Out of range, or one of the six missing: refused, nothing changes.
    for (const [change, message] of [
      [{ ...six, rewinCooldownInSeconds: -1 }, /re-win cooldown must be 0 to 30 days/],
      [{ ...six, rewinCooldownInSeconds: 31 * 86_400 }, /re-win cooldown must be 0 to 30 days/],
      [{ ...six, prizePoints: -1 }, /point prize must be 0 or more/],
      [{ ...six, winnersPerRoll: 0 }, /Winners per roll must be from 1 to 10/],
      [{ ...six, minLinkedDays: 366 }, /Days linked must be from 0 \(off\) to 365/],
      [{ ...six, minLinkedDays: 1.5 }, /Days linked must be a whole number/],
      [{ ...six, subLuck: undefined }, /subLuck/],
    ] as const) {
      const res = await hub.call('UpdateStateSettings', change);
      expect(res.ok ? '' : res.error, JSON.stringify(change)).toMatch(message);
    }
    expect((await hub.ok<GiveawayState>('GetState')).settings).toEqual({ ...expected, winnersPerRoll: 2 });
  });

  it('bad keys are refused; SetKeys with an unknown key changes nothing', async () => {
    for (const key of ['', '   ', 'x'.repeat(51), 'a\u0007b']) {
      expect((await hub.call('AddKey', key)).ok, JSON.stringify(key)).toBe(false);
    }
    expect(await hub.call('AddKey', '!JOIN')).toEqual({ ok: false, error: 'That key already exists.' });
    expect(await hub.call('SetKeys', ['!join', 'nope'])).toEqual({
      ok: false,
      error: 'Unknown key: nope. Add it first.',
    });
    const keys = (await hub.ok<GiveawayState>('GetState')).keys;
    expect(keys.find((k) => k.key === '!join')?.isActive).toBe(true);
  });
});

describe('who may call', () => {
  it("a User's and a visitor's calls are all refused, and they receive no giveaway events", async () => {
    const user = await connect(await t.signIn({ name: 'Just A User' }));
    const visitor = await connect(null);
    for (const name of Object.keys(giveawayHub.calls)) {
      const arg =
        name === 'AddKey' ? 'sneaky' : name === 'SetKeys' ? [] : name === 'UpdateStateSettings' ? defaults : null;
      expect(await user.call(name, arg), name).toEqual({ ok: false, error: 'You do not have permission to do that.' });
      expect(await visitor.call(name, arg), name).toEqual({ ok: false, error: 'Sign in required.' });
    }
    const frank = fresh('frank');
    await say(frank, '!join');
    await hub.waitFor<GiveawayParticipant>('ReceiveNewParticipant', (p) => p.username === frank);
    await user.ok('GetState').catch(() => undefined);
    expect(user.received.filter((r) => r.event.startsWith('Receive'))).toEqual([]);
    expect(visitor.received.filter((r) => r.event.startsWith('Receive'))).toEqual([]);
    expect((await hub.ok<GiveawayState>('GetState')).keys.map((k) => k.key)).not.toContain('sneaky');
  });
});

async function verifyRecord(rollId: string): Promise<RollRecord> {
  const res = await t.call({ url: `/api/giveaway/rolls/${rollId}` });
  expect(res.statusCode).toBe(200);
  const record = res.json<RollRecord>();
  expect(sha256Hex(record.serverSeed)).toBe(record.seedHash);
  expect(independentSnapshotHash(record.snapshot)).toBe(record.snapshotHash);
  expect(independentDraw(record.serverSeed, record.snapshot, record.winnersWanted)).toEqual(record.winners);
  expect(new Date(record.committedAt).getTime()).toBeLessThanOrEqual(new Date(record.rolledAt).getTime());
  return record;
}

describe('rolling', () => {
  it('publishes the seed hash before, reveals the seed after; the winner is re-computed independently', async () => {
    const players = [fresh('g'), fresh('h'), fresh('i'), fresh('j')];
    for (const p of players) await say(p, '!join', { subscriber: p === players[0] });
    await hub.ok('UpdateStateSettings', { ...defaults, subLuck: 5 });
    const before = await hub.ok<GiveawayState>('GetState');
    expect(before.nextSeedHash).toMatch(/^[0-9a-f]{64}$/);
    const overlay = new HubClient(url, giveawayOverlayHub, { query: {} });
    clients.push(overlay);
    await overlay.connected();
    const roll = await hub.ok<GiveawayRoll>('Roll');
    expect(roll.seedHash).toBe(before.nextSeedHash);
    expect(sha256Hex(roll.serverSeed)).toBe(roll.seedHash);
    expect(new Date(roll.landsAt).getTime() - new Date(roll.rolledAt).getTime()).toBe(3000);
    expect(roll.winners).toHaveLength(1);
    expect(players).toContain(roll.winners[0]!.username);
    const record = await verifyRecord(roll.rollId);
    expect(record.snapshot.find((e) => e.username === players[0])?.weight).toBe(5);
    expect(record.winnerNames).toEqual([roll.winners[0]!.username]);
    // The next roll has a new commitment; the overlay got the same winner; admins the recent line.
    const after = await hub.ok<GiveawayState>('GetState');
    expect(after.nextSeedHash).not.toBe(before.nextSeedHash);
    const shown = await overlay.waitFor<OverlayRoll>('ReceiveRoll');
    expect(shown.winners.map((w) => w.username)).toEqual([roll.winners[0]!.username]);
    expect(shown.landsAt).toBe(roll.landsAt);
    const recent = await hub.waitFor<GiveawayParticipant[]>('ReceiveWinners', (w) => w.length > 0);
    expect(recent[0]!.username).toBe(roll.winners[0]!.username);
  });

  it('the re-win cooldown keeps a winner out across rounds; no one eligible is refused clearly', async () => {
    const a = fresh('k');
    const b = fresh('l');
    await say(a, '!join');
    await say(b, '!join');
    const first = (await hub.ok<GiveawayRoll>('Roll')).winners[0]!.username;
    const second = (await hub.ok<GiveawayRoll>('Roll')).winners[0]!.username;
    expect(new Set([first, second])).toEqual(new Set([a, b]));
    expect(await hub.call('Roll')).toEqual({
      ok: false,
      error: 'No participant is eligible under the current filters and cooldown.',
    });
    // A new round: the cooldown still counts.
    await hub.ok('ClearParticipants');
    await say(a, '!join');
    expect((await hub.call('Roll')).ok).toBe(false);
    await hub.ok('UpdateStateSettings', { ...defaults, rewinCooldownInSeconds: 0 });
    expect((await hub.ok<GiveawayRoll>('Roll')).winners[0]!.username).toBe(a);
    await hub.ok('ClearParticipants');
    expect(await hub.call('Roll')).toEqual({ ok: false, error: 'There are no participants to roll.' });
  });

  it('the chat activity filter applies at the roll', async () => {
    const quiet = fresh('quiet');
    const chatty = fresh('chatty');
    await say(quiet, '!join');
    await say(chatty, '!join');
    clock.advance(120_000);
    await say(chatty, 'still here');
    await hub.ok('UpdateStateSettings', { ...defaults, chatActivityFilterInSeconds: 60 });
    for (let i = 0; i < 3; i++) {
      await hub.ok('UpdateStateSettings', { ...defaults, chatActivityFilterInSeconds: 60, rewinCooldownInSeconds: 0 });
      const roll = await hub.ok<GiveawayRoll>('Roll');
      expect(roll.winners.map((w) => w.username)).toEqual([chatty]);
      expect(roll.eligibleCount).toBe(1);
    }
  });

  it('several winners in one roll, each linked winner paid the point prize once through the ledger', async () => {
    const players = [fresh('m'), fresh('n'), fresh('o')];
    const linked = await Promise.all(players.map((p) => linkKick(p)));
    for (const p of players) await say(p, '!join');
    await hub.ok('UpdateStateSettings', { ...defaults, winnersPerRoll: 3, prizePoints: 12.5 });
    const roll = await hub.ok<GiveawayRoll>('Roll');
    expect(names(roll.winners)).toEqual([...players].sort());
    await verifyRecord(roll.rollId);
    for (const u of linked) {
      expect((await t.reload(u.user.id)).points).toBe('12.50');
      const rows = await t.database.db
        .select()
        .from(ledger)
        .where(and(eq(ledger.userId, u.user.id), eq(ledger.reason, 'giveaway_win')));
      expect(rows.map((r) => r.reference)).toEqual([
        `giveaway:${roll.rollId}:${simulatedKickUserId(u.user.username.slice(5))}`,
      ]);
    }
  });

  it('two rolls at once queue on the settings row: two draws, each winner paid exactly once', async () => {
    const players = [fresh('p'), fresh('q'), fresh('r'), fresh('s')];
    await Promise.all(players.map((p) => linkKick(p)));
    for (const p of players) await say(p, '!join');
    await hub.ok('UpdateStateSettings', { ...defaults, prizePoints: 1 });
    const second = await connect(admin);
    const race = raceBarrier(2);
    race.reset('1', 'giveaway_settings');
    t.app.giveaway.hooks.afterLock = (tx) => race.arrive(tx);
    try {
      const rolls = await Promise.all([hub.ok<GiveawayRoll>('Roll'), second.ok<GiveawayRoll>('Roll')]);
      expect(race.unlockedReads()).toEqual([]);
      expect(new Set(rolls.map((r) => r.rollId)).size).toBe(2);
      expect(new Set(rolls.map((r) => r.seedHash)).size).toBe(2);
      const paid = await t.database.db
        .select()
        .from(ledger)
        .where(and(eq(ledger.reason, 'giveaway_win'), like(ledger.reference, 'giveaway:%')));
      for (const r of rolls) {
        expect(paid.filter((p) => p.reference?.startsWith(`giveaway:${r.rollId}:`))).toHaveLength(1);
        await verifyRecord(r.rollId);
      }
    } finally {
      delete t.app.giveaway.hooks.afterLock;
    }
  });

  it("after a roll the winner's chat messages stream to the admins; others' do not", async () => {
    const w = fresh('winner');
    await say(w, '!join');
    const roll = await hub.ok<GiveawayRoll>('Roll');
    expect(roll.winners[0]!.username).toBe(w);
    await say(fresh('other'), 'not me');
    await say(w, 'gg thanks');
    const msg = await hub.waitFor<{ sender: { username: string }; content: string }>('ReceiveNewWinnerMessage');
    expect(msg).toEqual({ sender: { username: w, identity: { color: expect.any(String) } }, content: 'gg thanks' });
    expect(hub.events('ReceiveNewWinnerMessage')).toHaveLength(1);
    expect((await hub.ok<GiveawayState>('GetState')).winnerMessages.map((m) => m.content)).toEqual(['gg thanks']);
  });

  it('Clear Recent Winners empties the line (the cooldown still remembers)', async () => {
    const x = fresh('x');
    await say(x, '!join');
    await hub.ok('Roll');
    expect((await hub.ok<GiveawayParticipant[]>('GetLatestWinners')).length).toBeGreaterThan(0);
    await hub.ok('ClearRecentWinners');
    expect(await hub.ok('GetLatestWinners')).toEqual([]);
    expect((await hub.call('Roll')).ok).toBe(false);
  });
});

/**
 * Raffles through their routes: authorisation and bad input, buying under the cap, refunds once,
 * the draw once with prizes paid once, and the draw's record recomputed by the public procedure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { drawWinners, snapshotHashOf } from '@kickback/common/giveaway/draw';
import type { AdminRaffle, RaffleDetail, RaffleSummary } from '@kickback/common/http/raffles';
import type { RollRecord } from '@kickback/common/http/giveaway';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { kickBans } from '../../db/schema/kick-bans';
import { ledger } from '../../db/schema/ledger';
import { raffleTickets } from '../../db/schema/raffles';
import { users } from '../../db/schema/users';
import { nodeDrawCrypto } from '../../lib/draw-crypto';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { chatPayload, connectKickBot, linkKick, postDelivery, signedDelivery } from '../../../test/kick';
import { deliver, giftsPayload, kickFixture, person } from '../../../test/support';
import { buy, makeRaffle, raffleBody } from '../../../test/raffles';
import { WARM_UP_TIMEOUT, warmUp } from '../../../test/warm';
import { grantSupportTickets, refundTickets } from './tickets';

let t: TestApp;
let admin: TestUser;
/** Minutes a gifted sub's reward is held before it pays (docs/features/support-rewards.md#gifts-on-hold). */
const giftHold = (minutes: number) =>
  t.database.db.execute(sql`UPDATE support_reward_settings SET gift_hold_minutes = ${minutes}`);
let user: TestUser;

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Raffle Admin' });
  user = await t.signIn({ name: 'Raffle Fan' });
});
afterAll(() => t.close());

async function fan(name: string, points = '1000'): Promise<TestUser> {
  const u = await t.signIn({ name });
  await givePoints(t, u.user.id, points);
  return u;
}

const points = async (u: TestUser) => (await t.reload(u.user.id)).points;
const ledgerRows = (userId: string, reason: string) =>
  t.database.db
    .select()
    .from(ledger)
    .where(and(eq(ledger.userId, userId), eq(ledger.reason, reason)));

describe('access and input', () => {
  it('admin routes: 401 signed out, 403 for a User or Moderator', async () => {
    const moderator = await t.signIn({ role: 'Moderator' });
    const id = await makeRaffle(t, admin, {}, false);
    for (const [method, url] of [
      ['GET', '/api/admin/raffles'],
      ['POST', '/api/admin/raffles'],
      ['PUT', `/api/admin/raffles/${id}`],
      ['POST', `/api/admin/raffles/${id}/open`],
      ['POST', `/api/admin/raffles/${id}/close`],
      ['POST', `/api/admin/raffles/${id}/cancel`],
      ['POST', `/api/admin/raffles/${id}/draw`],
    ] as const) {
      const body = method === 'GET' ? undefined : raffleBody(t);
      expect((await t.call({ method, url, body })).statusCode).toBe(401);
      expect((await t.call({ method, url, body, as: user })).statusCode).toBe(403);
      expect((await t.call({ method, url, body, as: moderator })).statusCode).toBe(403);
    }
    expect(
      (await t.call({ method: 'POST', url: `/api/raffles/${id}/tickets`, body: { quantity: 1 } })).statusCode,
    ).toBe(401);
    expect((await t.call({ url: '/api/me/raffle-tickets' })).statusCode).toBe(401);
  });

  it('bad input is a 400 naming the field and changes nothing', async () => {
    const before = (await t.call({ url: '/api/admin/raffles', as: admin })).json() as AdminRaffle[];
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: '' }, /Title is required/],
      [{ ticketPrice: 0 }, /Ticket price must be greater than 0/],
      [{ ticketPrice: '1.234' }, /Ticket price must be a number with at most 2 decimals/],
      [{ maxTicketsPerUser: 0 }, /Maximum tickets per user must be at least 1/],
      [{ prizes: [] }, /Add at least one prize/],
      [{ prizes: [{ kind: 'points', points: -5 }] }, /Prize points must be greater than 0/],
      [{ prizes: [{ kind: 'item', item: '' }] }, /Prize item is required/],
      [{ closesAt: new Date(0).toISOString() }, /Closing time must be after the opening time/],
      [{ opensAt: 'soon' }, /Opening time must be a date and time/],
    ];
    for (const [over, message] of cases) {
      const res = await t.call({
        method: 'POST',
        url: '/api/admin/raffles',
        as: admin,
        body: { ...raffleBody(t), ...over },
      });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.body).toMatch(message);
    }
    const after = (await t.call({ url: '/api/admin/raffles', as: admin })).json() as AdminRaffle[];
    expect(after).toHaveLength(before.length);

    const id = await makeRaffle(t, admin);
    for (const quantity of [0, -1, 1.5, 'many']) {
      const res = await buy(t, user, id, quantity as number);
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/Quantity/);
    }
    expect((await t.call({ url: '/api/raffles/not-a-uuid' })).statusCode).toBe(400);
  });

  it('unknown raffles are 404; drafts are not public', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.call({ url: `/api/raffles/${unknown}` })).statusCode).toBe(404);
    expect((await t.call({ url: `/api/raffles/${unknown}/draw` })).statusCode).toBe(404);
    expect((await buy(t, user, unknown, 1)).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${unknown}/draw`, as: admin })).statusCode).toBe(
      404,
    );
    const draft = await makeRaffle(t, admin, {}, false);
    expect((await t.call({ url: `/api/raffles/${draft}` })).statusCode).toBe(404);
    const list = (await t.call({ url: '/api/raffles' })).json() as RaffleSummary[];
    expect(list.find((r) => r.id === draft)).toBeUndefined();
  });

  it('a draft is edited: its fields and prizes replaced, audited', async () => {
    const id = await makeRaffle(t, admin, {}, false);
    const edit = await t.call({
      method: 'PUT',
      url: `/api/admin/raffles/${id}`,
      as: admin,
      body: raffleBody(t, { title: 'Edited raffle', prizes: [{ kind: 'item', item: 'Hoodie' }], sellTickets: false }),
    });
    expect(edit.statusCode).toBe(200);
    expect((edit.json() as { raffle: AdminRaffle }).raffle).toMatchObject({
      title: 'Edited raffle',
      sellTickets: false,
      prizes: [{ position: 0, kind: 'item', item: 'Hoodie', points: null }],
    });
    const [audit] = rowsOf<{ action: string }>(
      await t.database.db.execute(sql`SELECT action FROM audit_log WHERE target_id = ${id} ORDER BY id DESC LIMIT 1`),
    );
    expect(audit?.action).toBe('raffle.update');
    await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/open`, as: admin });
    const notSold = await buy(t, user, id, 1);
    expect(notSold.statusCode).toBe(409);
    expect(notSold.json().message).toBe('Tickets for this raffle are not sold for points.');
  });

  it('editing and opening are for drafts only (409 after)', async () => {
    const id = await makeRaffle(t, admin);
    const edit = await t.call({ method: 'PUT', url: `/api/admin/raffles/${id}`, as: admin, body: raffleBody(t) });
    expect(edit.statusCode).toBe(409);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/open`, as: admin })).statusCode).toBe(409);
  });
});

describe('buying', () => {
  it('debits the ledger, counts the tickets and refuses above the cap (409, nothing changed)', async () => {
    const id = await makeRaffle(t, admin, { maxTicketsPerUser: 5, ticketPrice: 10 });
    const a = await fan('Cap Fan');
    const first = await buy(t, a, id, 3);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ myTickets: 3, balance: 970 });
    const over = await buy(t, a, id, 3);
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe('You can buy at most 5 tickets in this raffle; you have bought 3.');
    expect(await points(a)).toBe('970.00');
    expect((await buy(t, a, id, 2)).statusCode).toBe(200);
    expect((await buy(t, a, id, 1)).statusCode).toBe(409);
    const detail = (await t.call({ url: `/api/raffles/${id}`, as: a })).json() as RaffleDetail;
    expect(detail).toMatchObject({
      myTickets: 5,
      ticketsSold: 5,
      odds: 1,
      mine: { bought: 5, free: 0, moreAllowed: 0 },
    });
    expect(detail.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.serverSeed).toBeNull();
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses a short balance, a closed or not yet open raffle, and an ineligible account', async () => {
    const id = await makeRaffle(t, admin, { ticketPrice: 100 });
    const poor = await fan('Poor Fan', '50');
    const short = await buy(t, poor, id, 1);
    expect(short.statusCode).toBe(409);
    expect(short.json().message).toBe('You do not have enough points for these tickets.');

    const later = await makeRaffle(t, admin, { opensAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await buy(t, poor, later, 1)).statusCode).toBe(409);

    const kickOnly = await makeRaffle(t, admin, { requireKick: true, ticketPrice: 1 });
    const noKick = await buy(t, poor, kickOnly, 1);
    expect(noKick.statusCode).toBe(403);
    expect(noKick.json().message).toMatch(/link your Kick account/);

    const excluded = await fan('Excluded Fan');
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, excluded.user.id));
    expect((await buy(t, excluded, id, 1)).statusCode).toBe(403);
    expect(await points(poor)).toBe('50.00');
  });
});

describe('Kick-banned accounts', () => {
  let kick = 880_000;
  async function bannedOnKick(u: TestUser, expiresAt: Date | null = null): Promise<void> {
    const kickId = String(++kick);
    await linkKick(t, u, { kickId, kickUsername: `banned${kickId}` });
    await t.database.db.insert(kickBans).values({
      kickUserId: kickId,
      kickUsername: `banned${kickId}`,
      bannedAt: t.clock.now(),
      expiresAt,
      messageId: `ban-${kickId}`,
      receivedAt: t.clock.now(),
    });
  }

  it('cannot buy tickets while the ban is in force (403, nothing debited), and can once it expires', async () => {
    const id = await makeRaffle(t, admin, { ticketPrice: 10 });
    const banned = await fan('Banned Buyer');
    await bannedOnKick(banned, new Date(t.clock.now().getTime() + 60_000));
    const refused = await buy(t, banned, id, 1);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/banned in Kick chat/);
    expect(await points(banned)).toBe('1000.00');
    t.clock.advance(61_000);
    expect((await buy(t, banned, id, 1)).statusCode).toBe(200);
  });

  it('are left out of the draw when banned after buying', async () => {
    const id = await makeRaffle(t, admin, {
      ticketPrice: 1,
      maxTicketsPerUser: 10,
      prizes: [{ kind: 'points', points: 5 }],
    });
    const banned = await fan('Banned After Buying');
    const clean = await fan('Clean Buyer');
    expect((await buy(t, banned, id, 9)).statusCode).toBe(200);
    expect((await buy(t, clean, id, 1)).statusCode).toBe(200);
    await bannedOnKick(banned);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })).statusCode).toBe(200);
    const record = (await t.call({ url: `/api/raffles/${id}/draw` })).json() as RollRecord;
    expect(record.snapshot.map((e) => e.weight)).toEqual([1]);
    expect(record.winners).toEqual([clean.user.id]);
    expect(await ledgerRows(banned.user.id, 'raffle_prize')).toHaveLength(0);
  });
});

describe("subscriber status despite Kick's wrong expires_at", () => {
  it('a chat message without the subscriber badge, newer than the last sub event, ends it; the next sub event restores it', async () => {
    const id = await makeRaffle(t, admin, { subsOnly: true, ticketPrice: 1, maxTicketsPerUser: 10 });
    const sub = await fan('Lapsed Sub');
    await linkKick(t, sub, { kickId: '4400552', kickUsername: 'NewSubscriber' });
    const subEvent = (type: string) => {
      const payload = kickFixture<Record<string, unknown>>('kick-webhook-subscription-new.json');
      payload.created_at = t.clock.now().toISOString();
      payload.expires_at = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(); // Kick: 3 days late
      return deliver(t, type, payload);
    };
    const chat = async (subscriber: boolean) => {
      t.clock.advance(60_000);
      const payload = chatPayload(t, 'NewSubscriber', 'hi', { userId: '4400552', subscriber });
      expect((await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }))).statusCode).toBe(200);
    };
    expect((await subEvent('channel.subscription.new')).statusCode).toBe(200);
    expect((await buy(t, sub, id, 1)).statusCode).toBe(200);
    await chat(true);
    expect((await buy(t, sub, id, 1)).statusCode).toBe(200);
    await chat(false);
    const lapsed = await buy(t, sub, id, 1);
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json().message).toMatch(/subscribers only/);
    t.clock.advance(60_000);
    expect((await subEvent('channel.subscription.renewal')).statusCode).toBe(200);
    expect((await buy(t, sub, id, 1)).statusCode).toBe(200);
  });
});

describe('cancelling', () => {
  it('refunds every bought ticket once; a second cancel is a 409', async () => {
    const id = await makeRaffle(t, admin, { ticketPrice: 25 });
    const a = await fan('Refund A');
    const b = await fan('Refund B');
    await buy(t, a, id, 2);
    await buy(t, a, id, 1);
    await buy(t, b, id, 4);
    const cancel = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/cancel`, as: admin });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().message).toBe('Raffle cancelled; 3 ticket purchases refunded.');
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/cancel`, as: admin })).statusCode).toBe(409);
    expect(await points(a)).toBe('1000.00');
    expect(await points(b)).toBe('1000.00');
    expect(await ledgerRows(a.user.id, 'raffle_refund')).toHaveLength(2);
    expect((await buy(t, a, id, 1)).statusCode).toBe(409);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })).statusCode).toBe(409);
  });

  it('refundTickets run twice refunds once (each purchase is marked refunded)', async () => {
    const id = await makeRaffle(t, admin, { ticketPrice: 5 });
    const a = await fan('Refund Twice');
    await buy(t, a, id, 2);
    const now = t.clock.now();
    const first = await t.database.db.transaction((tx) => refundTickets(tx, id, 'x', now));
    const second = await t.database.db.transaction((tx) => refundTickets(tx, id, 'x', now));
    expect([first, second]).toEqual([1, 0]);
    expect(await points(a)).toBe('1000.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describe('the draw', () => {
  it('draws once, pays each prize once (ledger and Fulfilment), and the record verifies', async () => {
    const id = await makeRaffle(t, admin, { maxTicketsPerUser: 10, ticketPrice: 1 });
    const fans = [await fan('Draw A'), await fan('Draw B'), await fan('Draw C')];
    for (const [i, f] of fans.entries()) expect((await buy(t, f, id, i + 1)).statusCode).toBe(200);
    const before = (await t.call({ url: `/api/raffles/${id}/draw` })).statusCode;
    expect(before).toBe(404);

    const drawn = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin });
    expect(drawn.statusCode).toBe(200);
    const again = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This raffle is already drawn.');

    const detail = (await t.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail;
    expect(detail.status).toBe('drawn');
    expect(detail.winners.map((w) => w.prize)).toEqual(['500 points', 'AK-47 | Redline']);
    const record = (await t.call({ url: `/api/raffles/${id}/draw` })).json() as RollRecord;
    await expect(nodeDrawCrypto.sha256Hex(record.serverSeed)).resolves.toBe(detail.seedHash);
    expect(await snapshotHashOf(nodeDrawCrypto, record.snapshot)).toBe(record.snapshotHash);
    expect(await drawWinners(nodeDrawCrypto, record.serverSeed, record.snapshot, record.winnersWanted)).toEqual(
      record.winners,
    );
    expect(record.snapshot.map((e) => e.weight).sort()).toEqual([1, 2, 3]);

    const [first, second] = record.winners;
    expect(first).not.toBe(second);
    expect(await ledgerRows(first!, 'raffle_prize')).toHaveLength(1);
    const items = await t.database.db.select().from(fulfilmentItems).where(eq(fulfilmentItems.kind, 'raffle'));
    expect(items.filter((i) => i.reference === `raffle:${id}:1`)).toMatchObject([{ userId: second }]);
    expect(await ledgerMismatches(t)).toEqual([]);

    const mine = (await t.call({ url: '/api/me/raffle-tickets', as: fans[2]! })).json() as {
      items: Array<{ raffleId: string; quantity: number; won: string[] }>;
    };
    expect(mine.items.find((i) => i.raffleId === id)).toMatchObject({ quantity: 3 });
  });

  it('the closing deadline draws the raffle once, however often the timers run', async () => {
    const id = await makeRaffle(t, admin, { closesAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    const a = await fan('Deadline Fan');
    await buy(t, a, id, 1);
    t.clock.advance(61_000);
    expect((await buy(t, a, id, 1)).statusCode).toBe(409);
    await t.app.timers.runDue();
    await t.app.timers.runDue();
    const detail = (await t.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail;
    expect(detail.status).toBe('drawn');
    expect(detail.winners).toHaveLength(1);
    expect(await ledgerRows(a.user.id, 'raffle_prize')).toHaveLength(1);
  });

  it('after a Draw, the closing deadline finds the raffle drawn: it is used up and pays nothing', async () => {
    const id = await makeRaffle(t, admin, {
      closesAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      prizes: [{ kind: 'points', points: 40 }],
    });
    const a = await fan('Drawn Early Fan');
    await buy(t, a, id, 1);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })).statusCode).toBe(200);
    t.clock.advance(61_000);
    await t.app.timers.runDue();
    // A deadline that failed would be kept for a retry: it must be gone, having done nothing.
    const [deadlines] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM game_timers WHERE subject_id = ${id}`),
    );
    expect(deadlines?.n).toBe(0);
    expect(await ledgerRows(a.user.id, 'raffle_prize')).toHaveLength(1);
  });

  it('a raffle without tickets draws no winner', async () => {
    const id = await makeRaffle(t, admin);
    const drawn = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin });
    expect(drawn.statusCode).toBe(200);
    expect((drawn.json() as { raffle: AdminRaffle }).raffle.status).toBe('drawn');
  });
});

describe('tickets from support', () => {
  it('grants per source up to its cap, once per event, only where switched on', async () => {
    const on = await makeRaffle(t, admin, { ticketsPerSub: 2, subCap: 5, kicksPerTicket: 100, kicksCap: 3 });
    const off = await makeRaffle(t, admin);
    const a = await fan('Support Fan');
    const grant = (source: 'sub' | 'kicks', count: number, eventId: string) =>
      t.database.db.transaction((tx) =>
        grantSupportTickets(tx as Tx, a.user.id, source, count, eventId, t.clock.now()),
      );
    expect(await grant('sub', 1, 'ev-1')).toEqual([{ raffleId: on, tickets: 2 }]);
    expect(await grant('sub', 1, 'ev-1')).toEqual([]);
    expect(await grant('sub', 1, 'ev-2')).toEqual([{ raffleId: on, tickets: 2 }]);
    expect(await grant('sub', 5, 'ev-3')).toEqual([{ raffleId: on, tickets: 1 }]);
    expect(await grant('sub', 1, 'ev-4')).toEqual([]);
    expect(await grant('kicks', 250, 'ev-5')).toEqual([{ raffleId: on, tickets: 2 }]);
    const rows = await t.database.db
      .select({ n: sql<number>`sum(${raffleTickets.quantity})::int` })
      .from(raffleTickets)
      .where(and(eq(raffleTickets.raffleId, off), eq(raffleTickets.userId, a.user.id)));
    expect(rows[0]!.n).toBeNull();
    const detail = (await t.call({ url: `/api/raffles/${on}`, as: a })).json() as RaffleDetail;
    expect(detail.myTickets).toBe(7);
    expect(await points(a)).toBe('1000.00');
  });

  it('free support tickets do not count against the purchase cap, and the page is told so in one field', async () => {
    const id = await makeRaffle(t, admin, { maxTicketsPerUser: 10, ticketPrice: 1, ticketsPerSub: 1, subCap: 20 });
    const a = await fan('Free And Bought Fan');
    const mine = async () => ((await t.call({ url: `/api/raffles/${id}`, as: a })).json() as RaffleDetail).mine;
    expect(await mine()).toEqual({ bought: 0, free: 0, moreAllowed: 10 });
    expect((await buy(t, a, id, 2)).statusCode).toBe(200);
    await t.database.db.transaction((tx) =>
      grantSupportTickets(tx as Tx, a.user.id, 'sub', 7, 'free-1', t.clock.now()),
    );
    // What the page shows is what the server then sells: 8 more, not 10 − 9 = 1.
    expect(await mine()).toEqual({ bought: 2, free: 7, moreAllowed: 8 });
    expect((await buy(t, a, id, 8)).statusCode).toBe(200);
    expect(await mine()).toEqual({ bought: 10, free: 7, moreAllowed: 0 });
    const over = await buy(t, a, id, 1);
    expect([over.statusCode, over.json().message]).toEqual([
      409,
      'You can buy at most 10 tickets in this raffle; you have bought 10.',
    ]);
    const list = (await t.call({ url: '/api/raffles', as: a })).json() as RaffleSummary[];
    expect(list.find((r) => r.id === id)).toMatchObject({
      myTickets: 17,
      mine: { bought: 10, free: 7, moreAllowed: 0 },
    });
    expect(((await t.call({ url: `/api/raffles/${id}` })).json() as RaffleDetail).mine).toBeNull();
  });
});

describe('the announcement', () => {
  it('posts the winners in chat through the Kick bot after the draw commits, a mention of the linked Kick name', async () => {
    await connectKickBot(t, admin);
    const id = await makeRaffle(t, admin, { title: 'Bot raffle', prizes: [{ kind: 'points', points: 25 }] });
    const a = await fan('Announced Fan');
    await linkKick(t, a, { kickId: '7401', kickUsername: 'AnnouncedOnKick' });
    await buy(t, a, id, 1);
    const sim = t.app.kickSimulator!;
    const before = sim.chat.length;
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })).statusCode).toBe(200);
    // Announced through the outgoing chat queue (docs/features/kick-chat-queue.md), which the test pumps.
    await expect
      .poll(
        async () => {
          t.clock.advance(2_000); // the queue's pace runs on the app's clock
          await t.app.chatOut.pump();
          // Earlier raffles' announcements waited for a bot to connect: they go out first.
          return sim.chat.slice(before).filter((c) => c.content.includes('"Bot raffle"'));
        },
        { timeout: 10_000 },
      )
      .toMatchObject([
        {
          type: 'bot',
          content: `Raffle "Bot raffle" drawn! @AnnouncedOnKick wins 25 points. Verify: ${t.config.publicOrigin}/raffles/${id}/verify`,
        },
      ]);
  });

  it('names a winner with no linked Kick account by their site name, with no @ (it would ping a stranger)', async () => {
    await connectKickBot(t, admin);
    const id = await makeRaffle(t, admin, { title: 'Unlinked raffle', prizes: [{ kind: 'points', points: 25 }] });
    const a = await fan('Site Only Fan');
    await buy(t, a, id, 1);
    const sim = t.app.kickSimulator!;
    const before = sim.chat.length;
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin })).statusCode).toBe(200);
    await expect
      .poll(
        async () => {
          t.clock.advance(2_000);
          await t.app.chatOut.pump();
          return sim.chat.slice(before).filter((c) => c.content.includes('"Unlinked raffle"'));
        },
        { timeout: 10_000 },
      )
      .toMatchObject([
        {
          type: 'bot',
          content: `Raffle "Unlinked raffle" drawn! Site Only Fan wins 25 points. Verify: ${t.config.publicOrigin}/raffles/${id}/verify`,
        },
      ]);
  });

  it('a gifted-sub delivery from Kick grants the gifter tickets, once, in a raffle that counts gifts', async () => {
    await giftHold(0);
    const id = await makeRaffle(t, admin, { ticketsPerGift: 1, giftCap: 10 });
    const gifter = await t.signIn({ name: 'Gift Fan' });
    await linkKick(t, gifter, { kickId: '7301', kickUsername: 'GiftFan' });
    const payload = giftsPayload(person('7301', 'GiftFan'), [person('7302', 'A'), person('7303', 'B')]);
    for (let i = 0; i < 2; i++) {
      const delivered = await deliver(t, 'channel.subscription.gifts', payload, '01JRAFFLEGIFT0000000000001');
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    const detail = (await t.call({ url: `/api/raffles/${id}`, as: gifter })).json() as RaffleDetail;
    expect(detail.myTickets).toBe(2);
  });

  it('the same gift re-sent by Kick under new message ids grants its tickets once; another gift grants again', async () => {
    await giftHold(0);
    const id = await makeRaffle(t, admin, { ticketsPerGift: 1, giftCap: 50 });
    const gifter = await t.signIn({ name: 'Resent Gift Fan' });
    await linkKick(t, gifter, { kickId: '7311', kickUsername: 'ResentFan' });
    const giftees = [person('7312', 'A'), person('7313', 'B'), person('7314', 'C')];
    const payload = giftsPayload(person('7311', 'ResentFan'), giftees, '2026-03-04T20:00:00.000Z');
    for (let i = 0; i < 10; i++) {
      expect((await deliver(t, 'channel.subscription.gifts', payload)).statusCode).toBe(200);
    }
    const mine = async () =>
      ((await t.call({ url: `/api/raffles/${id}`, as: gifter })).json() as RaffleDetail).myTickets;
    expect(await mine()).toBe(3);
    const next = giftsPayload(person('7311', 'ResentFan'), giftees, '2026-03-04T20:05:00.000Z');
    expect((await deliver(t, 'channel.subscription.gifts', next)).statusCode).toBe(200);
    expect(await mine()).toBe(6);
  });

  it('a held gift grants its tickets when it pays; one reversed while held never grants any', async () => {
    await giftHold(5);
    try {
      const id = await makeRaffle(t, admin, { ticketsPerGift: 1, giftCap: 50 });
      const gifter = await t.signIn({ name: 'Held Gift Fan' });
      await linkKick(t, gifter, { kickId: '7321', kickUsername: 'HeldFan' });
      const mine = async () =>
        ((await t.call({ url: `/api/raffles/${id}`, as: gifter })).json() as RaffleDetail).myTickets;
      const gift = (at: string) => giftsPayload(person('7321', 'HeldFan'), [person('7322', 'A'), person('7323', 'B')], at);
      expect((await deliver(t, 'channel.subscription.gifts', gift('2026-03-05T20:00:00.000Z'))).statusCode).toBe(200);
      expect((await deliver(t, 'channel.subscription.gifts', gift('2026-03-05T20:01:00.000Z'))).statusCode).toBe(200);
      expect(await mine()).toBe(0);
      const held = (await t.call({ url: '/api/admin/support-rewards/held', as: admin })).json() as Array<{ id: number }>;
      expect(held).toHaveLength(2);
      const reversed = await t.call({ method: 'POST', url: `/api/admin/support-rewards/${held[1]!.id}/reverse`, as: admin });
      expect(reversed.statusCode, reversed.body).toBe(200);
      t.clock.advance(5 * 60_000);
      await t.app.timers.runDue();
      expect(await mine()).toBe(2); // the paid gift's two subs; the reversed one granted nothing
    } finally {
      await giftHold(0);
    }
  });
});

/**
 * A finished draw, game or board is history: removing the accounts that took part (here the demo
 * accounts, through Admin → Go live → Remove demo data) leaves what was announced and what the
 * verify pages recompute as it was; the accounts show as "removed account"; an open raffle loses
 * their tickets; their own data (sessions, balance) goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { drawWinners, snapshotHashOf } from '@kickback/common/giveaway/draw';
import type { DemoDataPreview } from '@kickback/common/http/integrations';
import type { HuntList } from '@kickback/common/http/hunt';
import type { RaffleDetail } from '@kickback/common/http/raffles';
import type { RollRecord } from '@kickback/common/http/giveaway';
import type { SplitOrStealSummary } from '@kickback/common/http/split-or-steal';
import { SplitOrStealStatus } from '@kickback/common/games/split-or-steal';
import { nodeDrawCrypto } from '../../lib/draw-crypto';
import { ledger } from '../../db/schema/ledger';
import { sessions } from '../../db/schema/sessions';
import { splitOrStealGames } from '../../db/schema/games';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { buy, makeRaffle } from '../../../test/raffles';
import { WARM_UP_TIMEOUT, warmUp } from '../../../test/warm';
import { REMOVED_ACCOUNT_NAME } from './service';

let t: TestApp;
let admin: TestUser;

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Streamer' });
});
afterAll(() => t.close());

async function fan(name: string, steamId?: string): Promise<TestUser> {
  const u = await t.signIn({ name, steamId });
  await givePoints(t, u.user.id, '1000');
  return u;
}

const get = async <T>(url: string, as: TestUser | null = null) => {
  const res = await t.call({ url, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

async function recomputes(record: RollRecord): Promise<void> {
  expect(await snapshotHashOf(nodeDrawCrypto, record.snapshot)).toBe(record.snapshotHash);
  expect(await drawWinners(nodeDrawCrypto, record.serverSeed, record.snapshot, record.winnersWanted)).toEqual(
    record.winners,
  );
}

describe('removing the demo accounts', () => {
  it('keeps finished raffles, hunts and games as announced, names the accounts "removed account", and takes them out of open raffles', async () => {
    const crate = await fan('CrateQueen', '76561199999999021');
    const walker = await fan('WalkerWill', '76561199999999022');
    const real = await fan('RealViewer');

    // A drawn raffle both demo accounts and a real viewer bought into, every ticket a winner.
    const drawnId = await makeRaffle(t, admin, {
      maxTicketsPerUser: 20,
      ticketPrice: 1,
      prizes: [
        { kind: 'points', points: 50 },
        { kind: 'points', points: 40 },
        { kind: 'points', points: 30 },
      ],
    });
    expect((await buy(t, crate, drawnId, 17)).statusCode).toBe(200);
    expect((await buy(t, walker, drawnId, 19)).statusCode).toBe(200);
    expect((await buy(t, real, drawnId, 5)).statusCode).toBe(200);
    expect((await t.call({ method: 'POST', url: `/api/admin/raffles/${drawnId}/draw`, as: admin })).statusCode).toBe(
      200,
    );
    // An open raffle with a demo ticket.
    const openId = await makeRaffle(t, admin, { maxTicketsPerUser: 20, ticketPrice: 1 });
    expect((await buy(t, crate, openId, 3)).statusCode).toBe(200);
    expect((await buy(t, real, openId, 2)).statusCode).toBe(200);

    // A finished hunt with a demo guess (its list hashed when guessing closed).
    const post = (url: string, body: unknown = {}) => t.call({ method: 'POST', url, as: admin, body });
    const hunt = (await post('/api/admin/hunts', { name: 'Friday hunt', startCost: 100, guessPrize: 25 })).json() as {
      id: string;
    };
    const bonus = (await post(`/api/admin/hunts/${hunt.id}/bonuses`, { slot: 'Sweet Bonanza', bet: 1 })).json() as {
      bonuses: Array<{ id: string }>;
    };
    await t.database.db.execute(sql`
      INSERT INTO hunt_guesses (hunt_id, user_id, kick_username, amount, guessed_at, seq)
      VALUES (${hunt.id}, ${crate.user.id}, 'cratequeen', 180, now(), 1), (${hunt.id}, ${real.user.id}, 'realviewer', 90, now(), 2)`);
    await post(`/api/admin/hunts/${hunt.id}/close-guessing`);
    await post(`/api/admin/hunts/${hunt.id}/bonuses/${bonus.bonuses[0]!.id}/open`, { payout: 175 });
    expect((await post(`/api/admin/hunts/${hunt.id}/finish`)).statusCode).toBe(200);

    // A finished Split or Steal game a demo account played.
    const [game] = await t.database.db
      .insert(splitOrStealGames)
      .values({
        status: SplitOrStealStatus.Ended,
        reward: '8000',
        counterSeconds: 30,
        player1UserId: walker.user.id,
        player2UserId: real.user.id,
        player1Selection: 1,
        player2Selection: 1,
        player1Answer1: 1,
        player1Answer2: 2,
        player2Answer1: 1,
        player2Answer2: 2,
        player1Winnings: '4000',
        player2Winnings: '4000',
        endedAt: new Date(),
      })
      .returning();

    const raffleBefore = await get<RaffleDetail>(`/api/raffles/${drawnId}`);
    const recordBefore = await get<RollRecord>(`/api/raffles/${drawnId}/draw`);
    await recomputes(recordBefore);
    expect(recordBefore.winners).toContain(crate.user.id);
    const huntBefore = (await get<HuntList>('/api/hunts')).past.find((h) => h.id === hunt.id);
    expect(huntBefore).toBeDefined();

    // The confirmation lists the finished events the demo accounts took part in.
    const preview = await get<DemoDataPreview>('/api/admin/demo-data', admin);
    expect(preview.finishedEvents.map((e) => [e.kind, e.title, e.href]).sort()).toEqual(
      [
        ['hunt', 'Bonus hunt "Friday hunt"', '/hunt'],
        ['raffle', 'Raffle "Knife raffle"', `/raffles/${drawnId}/verify`],
        ['splitOrSteal', 'Split or Steal for 8,000.00 points', `/game/splitorsteal/${game!.id}`],
      ].sort(),
    );

    const removed = await t.call({ method: 'POST', url: '/api/admin/demo-data/remove', as: admin });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toContain(
      'Kept 3 finished events demo accounts took part in, as announced (they show as "removed account").',
    );

    // The drawn raffle: the same record, recomputing to the same winners; the same tickets sold.
    expect(await get<RollRecord>(`/api/raffles/${drawnId}/draw`)).toEqual(recordBefore);
    await recomputes(recordBefore);
    const raffleAfter = await get<RaffleDetail>(`/api/raffles/${drawnId}`);
    expect(raffleAfter.ticketsSold).toBe(raffleBefore.ticketsSold);
    expect(raffleAfter.ticketsSold).toBe(41);
    expect(raffleAfter.winners.map((w) => w.username).sort()).toEqual(
      [REMOVED_ACCOUNT_NAME, REMOVED_ACCOUNT_NAME, 'RealViewer'].sort(),
    );
    // The open raffle: the demo tickets are taken out.
    expect((await get<RaffleDetail>(`/api/raffles/${openId}`)).ticketsSold).toBe(2);

    // The hunt: the revealed list (and so its hash) unchanged.
    expect((await get<HuntList>('/api/hunts')).past.find((h) => h.id === hunt.id)).toEqual(huntBefore);

    // The game keeps its player, shown as removed.
    const recent = await get<SplitOrStealSummary[]>('/api/SplitOrStealGame/recent', admin);
    expect(recent.find((g) => g.gameId === game!.id)).toMatchObject({
      player1: REMOVED_ACCOUNT_NAME,
      player2: 'RealViewer',
    });

    // Their own data is gone: no sign-in, no balance, no ledger; the real viewer's untouched.
    const [tomb] = await t.database.db.select().from(users).where(eq(users.id, crate.user.id));
    expect(tomb).toMatchObject({ username: REMOVED_ACCOUNT_NAME, points: '0.00', kickId: null });
    expect(tomb!.removedAt).not.toBeNull();
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, crate.user.id))).toEqual([]);
    expect(await t.database.db.select().from(ledger).where(eq(ledger.userId, crate.user.id))).toEqual([]);
    expect((await t.call({ url: '/api/me/raffle-tickets', as: crate })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/me/raffle-tickets', as: real })).statusCode).toBe(200);
    expect(await ledgerMismatches(t)).toEqual([]);
    // Not listed on Admin → Users, by name or id.
    for (const query of [REMOVED_ACCOUNT_NAME, 'removed', '76561199999999021']) {
      const listed = await get<{ items: Array<{ id: string }> }>(
        `/api/admin/users?query=${encodeURIComponent(query)}`,
        admin,
      );
      expect(listed.items).toEqual([]);
    }
    expect((await get<DemoDataPreview>('/api/admin/demo-data', admin)).finishedEvents).toEqual([]);
  });
});

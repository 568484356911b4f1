/**
 * Staff cannot pay themselves: prizes of events a Moderator runs (Split or Steal, giveaway rolls,
 * bonus hunt guess prizes) are paid through the ledger only within the Admin's staff prize limits
 * and never to a staff account; the rest waits in Fulfilment until an Admin approves it (paid once)
 * or rejects it. Events an Admin runs pay as before. The limits are an Admin's to read and change.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import type { GiveawaySettings } from '@kickback/common/hubs/giveaway';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { splitOrStealHub, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { fulfilmentMessages, type FulfilmentPage } from '@kickback/common/http/fulfilment';
import { staffPrizeMessages } from '@kickback/common/http/staff-prizes';
import { auditLog } from '../../db/schema/audit';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { rowsOf } from '../../db/rows';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { ledgerMismatches } from '../../../test/economy';
import { HubClient, listen, WallClock } from '../../../test/hub-client';
import { chatMessage } from '../../../test/kick';
import { linkedChatter, say as sayOnKick } from '../../../test/predictions';
import { payPrizes } from './service';

let t: TestApp;
let url: string;
let clock: WallClock;
let admin: TestUser;
let mod: TestUser;
const clients: HubClient[] = [];
let seq = 0;

beforeAll(async () => {
  clock = new WallClock();
  t = await buildTestApp({ clock });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  mod = await t.signIn({ role: 'Moderator', name: 'Mod' });
  await t.app.giveaway.addKey(admin.user, '!enter');
});
beforeEach(async () => {
  // Each test starts from today's tally at zero and the default limits.
  await t.database.db.execute(sql`DELETE FROM staff_prize_payouts`);
  await t.database.db.execute(sql`UPDATE staff_prize_limits SET per_event = 10000, per_day = 50000`);
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

const user = (name = `Fan${++seq}`) => t.signIn({ name });
const pointsOf = async (u: TestUser) => (await t.reload(u.user.id)).points;
const heldFor = (u: TestUser) =>
  t.database.db
    .select()
    .from(fulfilmentItems)
    .where(and(eq(fulfilmentItems.userId, u.user.id), eq(fulfilmentItems.kind, 'staff_prize')));
const act = (as: TestUser, id: number, action: 'deliver' | 'reject') =>
  t.call({ method: 'POST', url: `/api/admin/fulfilment/${id}/${action}`, as, body: {} });
const setLimits = (body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'PUT', url: '/api/admin/staff-prize-limits', as, body });

// ------------------------------------------------------------------ Split or Steal

async function createSplitOrSteal(as: TestUser, body: Record<string, unknown>) {
  return t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as,
    body: { counterInSeconds: 5, isPrivate: false, ...body },
  });
}

async function connect(gameId: string, who: TestUser): Promise<HubClient> {
  const client = new HubClient(url, splitOrStealHub, { query: { gameid: gameId }, cookie: who.cookie });
  clients.push(client);
  return client.connected();
}

async function passDeadline(state: SplitOrStealState): Promise<void> {
  clock.set(new Date(new Date(state.phaseEndsAt!).getTime() + 1));
  await t.app.timers.runDue();
}

/** Both players sit and choose nothing: both split by default, each winning a share. */
async function playToTheEnd(gameId: string, p1: TestUser, p2: TestUser): Promise<SplitOrStealState> {
  const a = await connect(gameId, p1);
  const b = await connect(gameId, p2);
  await a.ok('JoinGame', 1);
  const starting = await b.ok<SplitOrStealState>('JoinGame', 2);
  await passDeadline(starting);
  const choosing = await a.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 3);
  await passDeadline(choosing);
  return a.waitFor<SplitOrStealState>('ReceiveGameState', (s) => s.status === 4);
}

describe('Split or Steal run by a Moderator', () => {
  it('a reward above the per-event limit pays nothing; it waits for an Admin, who pays it exactly once', async () => {
    const alt = await user();
    const friend = await user();
    const created = await createSplitOrSteal(mod, { reward: 100_000_000 });
    expect(created.statusCode, created.body).toBe(200);
    const gameId = created.json().gameId as string;
    const ended = await playToTheEnd(gameId, alt, friend);
    expect(ended.player1?.winnings).toBeGreaterThan(0);

    expect(await pointsOf(alt)).toBe('0.00');
    expect(await pointsOf(friend)).toBe('0.00');
    const [held] = await heldFor(alt);
    expect(held).toMatchObject({
      status: 'pending',
      reference: `splitorsteal:${gameId}:1`,
      unit: 'points',
      creditCurrency: 'points',
      creditAmount: '50000000.00',
    });
    // Written as the queue writes amounts (formatAmount): "10,000.00 points", never "10,000 points".
    expect(held!.description).toContain('per-event limit of 10,000.00 points');
    expect(held!.description).toMatch(/: 50,000,000\.00 points held for an Admin's approval/);

    // The queue shows it to the Admin as a held prize with what approving pays.
    const page = (await t.call({ url: '/api/admin/fulfilment?kind=staff_prize', as: admin })).json<FulfilmentPage>();
    expect(page.items.find((i) => i.id === held!.id)).toMatchObject({
      kind: 'staff_prize',
      credit: { currency: 'points', amount: 50_000_000 },
    });

    // A Moderator cannot approve it; the Admin's approval pays once, a second one is a 409.
    const byMod = await act(mod, held!.id, 'deliver');
    expect(byMod.statusCode).toBe(403);
    expect(byMod.json().message).toBe(fulfilmentMessages.approvalIsAdmins);
    expect(await pointsOf(alt)).toBe('0.00');
    const approved = await act(admin, held!.id, 'deliver');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toBe(fulfilmentMessages.approvedAndPaid('50,000,000.00 points'));
    expect(await pointsOf(alt)).toBe('50000000.00');
    expect((await act(admin, held!.id, 'deliver')).statusCode).toBe(409);
    expect(await pointsOf(alt)).toBe('50000000.00');
    const rows = await t.database.db.select().from(ledger).where(eq(ledger.userId, alt.user.id));
    expect(rows.map((r) => [r.reason, r.reference])).toEqual([['game_win', `splitorsteal:${gameId}:1`]]);

    // Rejecting the other pays nothing.
    const [other] = await heldFor(friend);
    expect((await act(admin, other!.id, 'reject')).statusCode).toBe(200);
    expect(await pointsOf(friend)).toBe('0.00');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('within the limits a Moderator’s game pays through the ledger as usual', async () => {
    const p1 = await user();
    const p2 = await user();
    const gameId = (await createSplitOrSteal(mod, { reward: 100 })).json().gameId as string;
    await playToTheEnd(gameId, p1, p2);
    expect(await pointsOf(p1)).toBe('50.00');
    expect(await pointsOf(p2)).toBe('50.00');
    expect(await heldFor(p1)).toEqual([]);
  });

  it('an Admin’s game pays as before, whatever the reward', async () => {
    const p1 = await user();
    const p2 = await user();
    const gameId = (await createSplitOrSteal(admin, { reward: 100_000_000 })).json().gameId as string;
    await playToTheEnd(gameId, p1, p2);
    expect(await pointsOf(p1)).toBe('50000000.00');
    expect(await heldFor(p1)).toEqual([]);
  });

  it('never seats a staff account: not chosen as a player, not joining; the Admin’s games seat anyone', async () => {
    const fan = await user();
    const other = await t.signIn({ role: 'Moderator', name: 'Other Mod' });
    for (const staff of [mod, other, admin]) {
      const res = await createSplitOrSteal(mod, {
        reward: 10,
        player1UserId: staff.user.id,
        player2UserId: fan.user.id,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(staffPrizeMessages.staffCannotPlay);
    }
    const gameId = (await createSplitOrSteal(mod, { reward: 10 })).json().gameId as string;
    for (const staff of [mod, admin]) {
      const refused = await (await connect(gameId, staff)).call('JoinGame', 1);
      expect(refused).toMatchObject({ ok: false, error: staffPrizeMessages.staffCannotPlay });
    }
    const adminGame = (await createSplitOrSteal(admin, { reward: 10, player1UserId: mod.user.id })).json();
    const joined = await (await connect(adminGame.gameId as string, mod)).ok<SplitOrStealState>('JoinGame', 1);
    expect(joined.player1?.userId).toBe(mod.user.id);
  });

  it('the day’s limit holds back what would pass it, counting every Moderator-run prize of the UTC day', async () => {
    expect((await setLimits({ perEvent: 10_000, perDay: 15_000 })).statusCode).toBe(200);
    const players = await Promise.all([user(), user(), user(), user()]);
    const first = (await createSplitOrSteal(mod, { reward: 10_000 })).json().gameId as string;
    await playToTheEnd(first, players[0]!, players[1]!);
    expect([await pointsOf(players[0]!), await pointsOf(players[1]!)]).toEqual(['5000.00', '5000.00']);
    const second = (await createSplitOrSteal(mod, { reward: 10_000 })).json().gameId as string;
    await playToTheEnd(second, players[2]!, players[3]!);
    // 10,000 paid today: the next 5,000 fits, the one after would make 20,000.
    expect([await pointsOf(players[2]!), await pointsOf(players[3]!)]).toEqual(['5000.00', '0.00']);
    const [held] = await heldFor(players[3]!);
    expect(held!.description).toContain('per-day limit of 15,000.00 points');
    const limits = (await t.call({ url: '/api/admin/staff-prize-limits', as: admin })).json();
    expect(limits).toMatchObject({ perEvent: 10_000, perDay: 15_000, paidToday: 15_000 });
  });
});

// ------------------------------------------------------------------ Deal or No Deal

describe('Deal or No Deal run by a Moderator', () => {
  it('is never for a staff account; an Admin may still pick anyone', async () => {
    const create = (as: TestUser, player: TestUser) =>
      t.call({
        method: 'POST',
        url: '/api/DealOrNoDeal/create',
        as,
        body: { playerUserId: player.user.id, reward: 0, isPrivate: false, Amounts: [...DEFAULT_AMOUNTS] },
      });
    for (const staff of [mod, admin]) {
      const res = await create(mod, staff);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(staffPrizeMessages.staffCannotPlay);
    }
    expect((await create(mod, await user())).statusCode).toBe(200);
    expect((await create(admin, mod)).statusCode).toBe(200);
  });
});

// ------------------------------------------------------------------ giveaway

const giveawaySettings = (prizePoints: number): GiveawaySettings => ({
  isSubOnly: false,
  isClashIdLinkedOnly: false,
  isRustMagicCodeOnly: false,
  isRoobetCodeOnly: false,
  subLuck: 1,
  chatActivityFilterInSeconds: 0,
  rewinCooldownInSeconds: 0,
  winnersPerRoll: 1,
  prizePoints,
  minLinkedDays: 0,
});

/** A site user whose linked Kick account enters the giveaway from chat. */
async function enteredChatter(role: 'User' | 'Moderator' = 'User'): Promise<TestUser> {
  const name = `gw${++seq}`;
  const u = await t.signIn({ name: `site-${name}`, role });
  await t.database.db
    .update(users)
    .set({ kickId: simulatedKickUserId(name), kickUsername: name })
    .where(eq(users.id, u.user.id));
  await t.app.chat.linkChanged(u.user.id);
  await t.app.giveaway.clearParticipants(admin.user);
  const result = await t.app.chat.process(
    chatMessage(t, { kickUserId: simulatedKickUserId(name), kickUsername: name, content: '!enter' }),
    'simulator',
  );
  expect(result.errors).toEqual([]);
  return u;
}

describe('giveaway rolls', () => {
  it('a Moderator’s prize above the limit is held each roll; within it, paid; an Admin’s roll of an Admin’s prize pays', async () => {
    await t.app.giveaway.updateSettings(mod.user, giveawaySettings(1_000_000));
    const winners: TestUser[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await enteredChatter();
      const roll = await t.app.giveaway.roll(mod.user);
      expect(roll.winners).toHaveLength(1);
      winners.push(fan);
    }
    for (const fan of winners) {
      expect(await pointsOf(fan)).toBe('0.00');
      const [held] = await heldFor(fan);
      expect(held).toMatchObject({ status: 'pending', creditAmount: '1000000.00', creditReason: 'giveaway_win' });
    }

    // A Moderator's prize rolled by an Admin is still the Moderator's prize.
    const rolledByAdmin = await enteredChatter();
    await t.app.giveaway.roll(admin.user);
    expect(await pointsOf(rolledByAdmin)).toBe('0.00');
    expect(await heldFor(rolledByAdmin)).toHaveLength(1);

    await t.app.giveaway.updateSettings(mod.user, giveawaySettings(500));
    const small = await enteredChatter();
    await t.app.giveaway.roll(mod.user);
    expect(await pointsOf(small)).toBe('500.00');

    await t.app.giveaway.updateSettings(admin.user, giveawaySettings(1_000_000));
    const big = await enteredChatter();
    await t.app.giveaway.roll(admin.user);
    expect(await pointsOf(big)).toBe('1000000.00');
    expect(await heldFor(big)).toEqual([]);
  });

  it('a staff account that wins a Moderator’s giveaway is not paid until an Admin approves', async () => {
    await t.app.giveaway.updateSettings(mod.user, giveawaySettings(100));
    const staff = await enteredChatter('Moderator');
    await t.app.giveaway.roll(mod.user);
    expect(await pointsOf(staff)).toBe('0.00');
    const [held] = await heldFor(staff);
    expect(held!.description).toContain('staff account');
    expect((await act(admin, held!.id, 'deliver')).statusCode).toBe(200);
    expect(await pointsOf(staff)).toBe('100.00');
  });
});

describe('approving a held prize', () => {
  it('is refused (409, still pending) once the winner was excluded; rejecting it then pays nothing', async () => {
    await t.app.giveaway.updateSettings(mod.user, giveawaySettings(20_000));
    const fan = await enteredChatter();
    await t.app.giveaway.roll(mod.user);
    const [held] = await heldFor(fan);
    await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, fan.user.id));
    const res = await act(admin, held!.id, 'deliver');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(fulfilmentMessages.excludedCannotBePaid);
    expect((await heldFor(fan))[0]?.status).toBe('pending');
    expect((await act(admin, held!.id, 'reject')).statusCode).toBe(200);
    expect(await pointsOf(fan)).toBe('0.00');
  });
});

// ------------------------------------------------------------------ bonus hunt

describe('bonus hunt guess prize', () => {
  async function huntBy(as: TestUser, guessPrize: number): Promise<HuntView> {
    const post = async (path: string, body: unknown) => {
      const res = await t.call({ method: 'POST', url: path, as, body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<HuntView>();
    };
    let view = await post('/api/admin/hunts', { name: `Hunt ${++seq}`, startCost: 100, guessPrize });
    view = await post(`/api/admin/hunts/${view.id}/bonuses`, { slot: 'Slot', bet: 1 });
    return view;
  }
  async function finishWithGuess(as: TestUser, hunt: HuntView, role: 'User' | 'Admin' = 'User') {
    const guesser = await linkedChatter(t, String(90_000 + ++seq), { role });
    const { res } = await sayOnKick(t, guesser, '!guess 50');
    expect(res.statusCode).toBeLessThan(300);
    const bonus = hunt.bonuses[0]!;
    expect(
      (
        await t.call({
          method: 'POST',
          url: `/api/admin/hunts/${hunt.id}/bonuses/${bonus.id}/open`,
          as,
          body: { payout: 50 },
        })
      ).statusCode,
    ).toBe(200);
    const finished = await t.call({ method: 'POST', url: `/api/admin/hunts/${hunt.id}/finish`, as, body: {} });
    expect(finished.statusCode, finished.body).toBe(200);
    return guesser;
  }

  it('a Moderator’s 100,000,000 guess prize is held for an Admin; an Admin’s hunt pays as before', async () => {
    const winner = await finishWithGuess(mod, await huntBy(mod, 100_000_000));
    expect(await pointsOf(winner)).toBe('0.00');
    const [held] = await heldFor(winner);
    expect(held).toMatchObject({ creditAmount: '100000000.00', creditReason: 'hunt_prize' });

    // A Moderator's prize is held even when an Admin ends the hunt.
    const endedByAdmin = await finishWithGuess(admin, await huntBy(mod, 100_000_000));
    expect(await pointsOf(endedByAdmin)).toBe('0.00');
    expect(await heldFor(endedByAdmin)).toHaveLength(1);

    const paid = await finishWithGuess(admin, await huntBy(admin, 100_000_000));
    expect(await pointsOf(paid)).toBe('100000000.00');
  });

  it('a staff guesser wins a Moderator’s hunt: held, even within the limits', async () => {
    const staff = await finishWithGuess(mod, await huntBy(mod, 100), 'Admin');
    expect(await pointsOf(staff)).toBe('0.00');
    expect(await heldFor(staff)).toHaveLength(1);
  });
});

// ------------------------------------------------------------------ the limits

describe('the staff prize limits setting', () => {
  it('is an Admin’s: 401 without sign-in, 403 for a User and a Moderator', async () => {
    const fan = await user();
    expect((await t.call({ url: '/api/admin/staff-prize-limits' })).statusCode).toBe(401);
    for (const who of [fan, mod]) {
      expect((await t.call({ url: '/api/admin/staff-prize-limits', as: who })).statusCode).toBe(403);
      expect((await setLimits({ perEvent: 1e8, perDay: 1e8 }, who)).statusCode).toBe(403);
    }
    const res = await t.call({ url: '/api/admin/staff-prize-limits', as: admin });
    expect(res.json()).toMatchObject({ perEvent: 10_000, perDay: 50_000 });
  });

  it('validates (clear messages, nothing changed) and audits a change', async () => {
    for (const [body, message] of [
      [{ perEvent: -1, perDay: 10 }, /cannot be negative/],
      [{ perEvent: 'lots', perDay: 10 }, /number of points/],
      [{ perEvent: 20, perDay: 10 }, /per-event limit cannot be above the per-day limit/],
      [{ perEvent: 1, perDay: 1e12 }, /at most 100,000,000/],
    ] as const) {
      const res = await setLimits(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatch(message);
    }
    const saved = await setLimits({ perEvent: '2500.50', perDay: 20_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: staffPrizeMessages.saved,
      limits: { perEvent: 2500.5, perDay: 20_000, updatedBy: 'Host' },
    });
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'staff_prize_limits.update'))
      .orderBy(sql`${auditLog.id} DESC`)
      .limit(1);
    expect(entry).toMatchObject({
      actorUserId: admin.user.id,
      before: { perEvent: 10_000, perDay: 50_000 },
      after: { perEvent: 2500.5, perDay: 20_000 },
    });
  });
});

// ------------------------------------------------------------------ two payouts at once

describe.runIf(usingPostgres())('two Moderator-run payouts at once (PostgreSQL)', () => {
  it('queue on the limits row: the second sees the first and is held by the day’s limit', async () => {
    await setLimits({ perEvent: 10_000, perDay: 15_000 });
    const [first, second] = await Promise.all([user(), user()]);
    const event = { label: 'Race', target: { type: 'test', id: 'race' }, runBy: [mod.user.id] };
    const prize = (u: TestUser, n: number) => ({
      userId: u.user.id,
      cents: 1_000_000n,
      reason: 'game_win' as const,
      reference: `race:${seq}:${n}`,
    });
    const waitingOnLocks = async () => {
      const [row] = rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        ),
      );
      return row?.n ?? 0;
    };
    let secondSettled = false;
    let second$: Promise<unknown> | null = null;
    await t.database.db.transaction(async (tx) => {
      expect((await payPrizes(tx, event, [prize(first!, 1)], t.clock.now()))[0]?.kind).toBe('paid');
      // The other payout starts while this one is still uncommitted.
      second$ = t.database.db
        .transaction((tx2) => payPrizes(tx2, event, [prize(second!, 2)], t.clock.now()))
        .finally(() => (secondSettled = true));
      await until(async () => secondSettled || (await waitingOnLocks()) > 0);
    });
    const [outcome] = (await second$!) as Awaited<ReturnType<typeof payPrizes>>;
    expect(outcome?.kind).toBe('held');
    expect(await pointsOf(first!)).toBe('10000.00');
    expect(await pointsOf(second!)).toBe('0.00');
  });
});

async function until(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Every channel a prize reaches a balance by goes through the staff-prize gate
 * (docs/features/staff-prize-limits.md#which-events-count): each test replays a staff member paying
 * himself through one channel — slot-call payouts in his own hunt, a battle or a raffle a
 * Moderator runs, a Deal or No Deal prize he would deliver himself — and finds nothing paid without
 * an Admin, the prize held in Fulfilment and audited with its event.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { fulfilmentMessages } from '@kickback/common/http/fulfilment';
import type { HuntView } from '@kickback/common/hubs/hunt';
import type { SlotCallsState } from '@kickback/common/hubs/slot-calls';
import type { Tx } from '../../db/client';
import { AfterCommit } from '../../lib/after-commit';
import { auditLog } from '../../db/schema/audit';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { liveGames } from '../../db/schema/games';
import { ledger } from '../../db/schema/ledger';
import { users } from '../../db/schema/users';
import { kickLinkCodes } from '../../db/schema/accounts';
import { newBattle } from '@kickback/common/games/battle';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { linkedChatter, say } from '../../../test/predictions';
import { buy, makeRaffle } from '../../../test/raffles';
import { battleGame, store as battleStore } from '../battles/game';
import { dealOrNoDealGame } from '../deal-or-no-deal/game';
import { setUser } from '../../../test/partner-links';
import { milestoneProgress } from '../../db/schema/milestones';

let t: TestApp;
let admin: TestUser;
let mod: TestUser;
let kick = 91_000;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  mod = await t.signIn({ role: 'Moderator', name: 'Mod' });
});
beforeEach(async () => {
  await t.database.db.execute(sql`DELETE FROM staff_prize_payouts`);
  await t.database.db.execute(sql`UPDATE staff_prize_limits SET per_event = 10000, per_day = 50000`);
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
});
afterAll(() => t.close());

const pointsOf = async (u: TestUser) => (await t.reload(u.user.id)).points;
const held = (userId: string) =>
  t.database.db
    .select()
    .from(fulfilmentItems)
    .where(and(eq(fulfilmentItems.userId, userId), eq(fulfilmentItems.kind, 'staff_prize')));
const prizeAudits = (targetType: string, targetId: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, targetId), like(auditLog.action, 'prize.%')));
const act = (as: TestUser, id: number, action: 'deliver' | 'reject') =>
  t.call({ method: 'POST', url: `/api/admin/fulfilment/${id}/${action}`, as, body: {} });
const paidToday = async () =>
  (await t.call({ url: '/api/admin/staff-prize-limits', as: admin })).json<{ paidToday: number }>().paidToday;

describe('slot-call payouts', () => {
  const rules = {
    maxPerViewer: 5,
    cooldownSeconds: 0,
    cost: 0,
    linkedOnly: false,
    subsOnly: false,
    maxQueue: 50,
    unknownSlots: 'accept',
    blacklist: [] as string[],
    payoutMultiplier: 100,
    payoutPoints: 1000,
  };
  const slotCall = async (as: TestUser, method: 'POST' | 'PUT', url: string, body?: unknown) => {
    const res = await t.call({ method, url, as, ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ state: SlotCallsState }>();
  };

  it('a Moderator calling from his own Kick account in his own hunt is paid nothing without an Admin; a viewer is paid and counted', async () => {
    await slotCall(admin, 'PUT', '/api/admin/slot-calls/rules', rules);
    await t.database.db.execute(sql`UPDATE slot_call_settings SET is_open = false`);
    await slotCall(mod, 'POST', '/api/admin/slot-calls/open');
    // The Moderator's own Kick account, linked to his site account; and an ordinary viewer.
    const modKick = { kickId: String(++kick), kickName: 'modskick' };
    await t.database.db
      .update(users)
      .set({ kickId: modKick.kickId, kickUsername: modKick.kickName })
      .where(eq(users.id, mod.user.id));
    await t.app.chat.linkChanged(mod.user.id);
    const fan = await linkedChatter(t, String(++kick));

    const hunt = await t.call({
      method: 'POST',
      url: '/api/admin/hunts',
      as: mod,
      body: { name: 'Own hunt', startCost: 100, guessPrize: 0 },
    });
    expect(hunt.statusCode, hunt.body).toBe(200);
    const huntId = hunt.json<HuntView>().id;

    // Three cycles of: call, add to his own hunt, open at 100x.
    for (const slot of ['mental', 'sugar rush', 'reactoonz']) {
      expect((await say(t, modKick, `!sr ${slot}`)).res.statusCode).toBeLessThan(300);
    }
    expect((await say(t, fan, '!sr le bandit')).res.statusCode).toBeLessThan(300);
    const queue = (await t.call({ url: '/api/slot-calls' })).json<SlotCallsState>().queue;
    expect(queue).toHaveLength(4);
    for (const c of queue) await slotCall(mod, 'POST', `/api/admin/slot-calls/${c.id}/hunt`, { bet: 1 });
    const bonuses = (await t.call({ url: '/api/hunts' })).json<{ current: HuntView }>().current.bonuses;
    for (const b of bonuses) {
      const opened = await t.call({
        method: 'POST',
        url: `/api/admin/hunts/${huntId}/bonuses/${b.id}/open`,
        as: mod,
        body: { payout: 100 },
      });
      expect(opened.statusCode, opened.body).toBe(200);
    }

    // Nothing reached the Moderator: three payouts wait for an Admin; the viewer was paid and counted.
    expect(await pointsOf(mod)).toBe('0.00');
    const waiting = await held(mod.user.id);
    expect(waiting).toHaveLength(3);
    expect(waiting.every((h) => h.description.includes('the winner is a staff account (Moderator)'))).toBe(true);
    expect(await pointsOf(fan)).toBe('1000.00');
    expect(await paidToday()).toBe(1000);

    // Each payout is in the audit log with its slot call.
    const fanCall = queue.find((c) => c.caller === fan.kickName)!;
    const [paidEntry] = await prizeAudits('slot_call', String(fanCall.id));
    expect(paidEntry).toMatchObject({ action: 'prize.paid', actorUserId: mod.user.id });
    expect(paidEntry!.after).toMatchObject({ userId: fan.user.id, points: 1000, reason: 'slot_call_payout' });
    const modCall = queue.find((c) => c.caller === modKick.kickName)!;
    const [heldEntry] = await prizeAudits('slot_call', String(modCall.id));
    expect(heldEntry).toMatchObject({ action: 'prize.held' });
    expect(heldEntry!.after).toMatchObject({ userId: mod.user.id, moderatorRun: true });

    // He cannot approve his own; an Admin's approval pays once.
    expect((await act(mod, waiting[0]!.id, 'deliver')).statusCode).toBe(403);
    expect((await act(admin, waiting[0]!.id, 'deliver')).statusCode).toBe(200);
    expect(await pointsOf(mod)).toBe('1000.00');
    const rows = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, mod.user.id), eq(ledger.reason, 'slot_call_payout')));
    expect(rows).toHaveLength(1);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describe('bonus-buy battles', () => {
  it('a battle whose creator is a Moderator does not pay him his own prize', async () => {
    // An Admin's battle, its creator since made a Moderator (or any future Moderator-run battle).
    const creator = await t.signIn({ role: 'Moderator', name: 'Battle creator' });
    const game = newBattle({
      title: 'Own battle',
      size: 4,
      rules: { siteId: null, minWager: null, subsOnly: false },
      prize: { kind: 'points', points: '5000.00' },
      registrationEndsAt: t.clock.now().getTime() + 60_000,
      seed: 'a'.repeat(64),
      seedHash: 'b'.repeat(64),
    });
    const row = await battleStore.create(t.database.db, game, creator.user.id, t.clock.now());
    await t.app.db.transaction(async (tx) => {
      await battleGame({ closed: () => undefined }).settle(
        tx as Tx,
        row,
        { kind: 'finished', winnerId: creator.user.id },
        new AfterCommit(),
        null,
      );
    });
    expect(await pointsOf(creator)).toBe('0.00');
    const [item] = await held(creator.user.id);
    expect(item).toMatchObject({
      reference: `battle:${row.id}`,
      creditAmount: '5000.00',
      creditReason: 'battle_prize',
    });
    const [entry] = await prizeAudits('battle', row.id);
    expect(entry).toMatchObject({ action: 'prize.held' });
  });

  it('a Moderator who finishes a battle an Admin created cannot pay himself: held for an Admin, the finisher named', async () => {
    // Battle results are an Admin's routes today; the gate judges whoever finishes all the same.
    const finisher = await t.signIn({ role: 'Moderator', name: 'Battle finisher' });
    const game = newBattle({
      title: 'Finished by a Moderator',
      size: 4,
      rules: { siteId: null, minWager: null, subsOnly: false },
      prize: { kind: 'points', points: '300.00' },
      registrationEndsAt: t.clock.now().getTime() + 60_000,
      seed: 'c'.repeat(64),
      seedHash: 'd'.repeat(64),
    });
    const row = await battleStore.create(t.database.db, game, admin.user.id, t.clock.now());
    await t.app.db.transaction(async (tx) => {
      await battleGame({ closed: () => undefined }).settle(
        tx as Tx,
        row,
        { kind: 'finished', winnerId: finisher.user.id },
        new AfterCommit(),
        { userId: finisher.user.id, isAdmin: true },
      );
    });
    expect(await pointsOf(finisher)).toBe('0.00');
    const [item] = await held(finisher.user.id);
    expect(item).toMatchObject({ reference: `battle:${row.id}`, creditAmount: '300.00', status: 'pending' });
    expect(item!.description).toContain('the winner is a staff account (Moderator)');
    const [stored] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, row.id));
    expect(stored!.finishedBy).toBe(finisher.user.id);
    const [entry] = await prizeAudits('battle', row.id);
    expect(entry).toMatchObject({ action: 'prize.held', actorUserId: finisher.user.id, actorLabel: 'Battle finisher' });
    expect((entry!.after as { runBy: string[] }).runBy.sort()).toEqual([admin.user.id, finisher.user.id].sort());
    // He cannot approve it himself.
    expect((await act(finisher, item!.id, 'deliver')).statusCode).toBe(403);
  });
});

describe('raffles', () => {
  it('a raffle its Moderator creator drew pays his own winning ticket only with an Admin', async () => {
    const creator = await t.signIn({ role: 'Admin', name: 'Raffle creator' });
    const id = await makeRaffle(t, creator, { prizes: [{ kind: 'points', points: 800 }], ticketPrice: 1 });
    await t.database.db.execute(sql`UPDATE users SET points = 100 WHERE id = ${creator.user.id}`);
    await t.database.db.execute(
      sql`INSERT INTO ledger (user_id, currency, delta, balance_after, reason) VALUES (${creator.user.id}, 'points', 100, 100, 'admin_grant')`,
    );
    expect((await buy(t, creator, id, 1)).statusCode).toBe(200);
    // The creator is a Moderator by the time it is drawn; another Admin draws it.
    await t.database.db.update(users).set({ role: 'Moderator' }).where(eq(users.id, creator.user.id));
    const drawn = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/draw`, as: admin });
    expect(drawn.statusCode, drawn.body).toBe(200);
    expect(await pointsOf(creator)).toBe('99.00');
    const [item] = await held(creator.user.id);
    expect(item).toMatchObject({ reference: `raffle:${id}:0`, creditAmount: '800.00', creditReason: 'raffle_prize' });
    const [entry] = await prizeAudits('raffle', id);
    expect(entry).toMatchObject({ action: 'prize.held', actorUserId: admin.user.id });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describe('milestone ladder', () => {
  it("a ladder last saved by someone now a Moderator holds his own tier's points for an Admin; a viewer's are paid and counted", async () => {
    const editor = await t.signIn({ role: 'Admin', name: 'Ladder editor' });
    const saved = await t.call({
      method: 'PUT',
      url: '/api/admin/milestones/1',
      as: editor,
      body: {
        enabled: true,
        automatic: false,
        cycle: 'all_time',
        tiers: [{ name: 'Bronze', threshold: '1000', rewardKind: 'points', rewardAmount: '300' }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const viewer = await t.signIn({ name: 'Ladder viewer' });
    for (const [u, clash] of [
      [editor, 'EditorClash'],
      [viewer, 'ViewerClash'],
    ] as const) {
      await setUser(t.database.db, u.user.id, { clashId: clash }, t.clock.now());
      await t.database.db
        .insert(milestoneProgress)
        .values({ site: 1, cycleKey: 'all', userId: u.user.id, wagered: '2000', updatedAt: t.clock.now() });
    }
    await t.database.db.update(users).set({ role: 'Moderator' }).where(eq(users.id, editor.user.id));
    const before = await paidToday();

    const own = await t.call({ method: 'POST', url: '/api/milestones/1/claim', as: editor });
    expect(own.json()).toMatchObject({ points: 300, held: true });
    expect(await pointsOf(editor)).toBe('0.00');
    const [item] = await held(editor.user.id);
    expect(item).toMatchObject({ creditAmount: '300.00', creditReason: 'milestone_reward' });
    expect((await t.call({ method: 'POST', url: '/api/milestones/1/claim', as: viewer })).json()).toMatchObject({
      points: 300,
      held: false,
    });
    expect(await pointsOf(viewer)).toBe('300.00');
    expect(await paidToday()).toBe(before + 300);
    expect((await prizeAudits('milestone_ladder', '1')).map((a) => a.action).sort()).toEqual([
      'prize.held',
      'prize.paid',
    ]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describe('Deal or No Deal', () => {
  async function gameFor(player: TestUser, as: TestUser): Promise<string> {
    const res = await t.call({
      method: 'POST',
      url: '/api/DealOrNoDeal/create',
      as,
      body: { playerUserId: player.user.id, isPrivate: true, reward: 0, Amounts: [...DEFAULT_AMOUNTS] },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ gameId: string }>().gameId;
  }
  /** The claim's settlement, as the game runs it when its player claims. */
  async function claim(gameId: string): Promise<number> {
    const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, gameId));
    await t.app.db.transaction((tx) => dealOrNoDealGame(t.app).settle(tx as Tx, row!, { prizeCents: 1_000_000n }));
    const [item] = await t.database.db
      .select()
      .from(fulfilmentItems)
      .where(and(eq(fulfilmentItems.kind, 'deal_or_no_deal'), eq(fulfilmentItems.reference, `game:${gameId}`)));
    return item!.id;
  }

  it('the Moderator who ran a game cannot deliver its prize; another staff member can', async () => {
    const other = await t.signIn({ role: 'Moderator', name: 'Other mod' });
    const player = await t.signIn({ name: 'Old fan' });
    await t.database.db
      .update(users)
      .set({ createdAt: new Date(t.clock.now().getTime() - 86_400_000) })
      .where(eq(users.id, player.user.id));
    const id = await claim(await gameFor(player, mod));
    const own = await act(mod, id, 'deliver');
    expect([own.statusCode, own.json().message]).toEqual([403, fulfilmentMessages.ranItYourself]);
    expect((await act(other, id, 'deliver')).statusCode).toBe(200);
  });

  it('an Admin who ran a game may deliver its prize himself', async () => {
    const player = await t.signIn({ name: 'Admin-run fan' });
    await t.database.db
      .update(users)
      .set({ createdAt: new Date(t.clock.now().getTime() - 86_400_000) })
      .where(eq(users.id, player.user.id));
    const id = await claim(await gameFor(player, admin));
    expect((await act(admin, id, 'deliver')).statusCode).toBe(200);
  });

  it('an account created or linked after the game, or a staff winner, waits for an Admin', async () => {
    const other = await t.signIn({ role: 'Moderator', name: 'Second mod' });
    const alt = await t.signIn({ name: 'Alt' });
    await t.database.db
      .update(users)
      .set({ createdAt: new Date(t.clock.now().getTime() - 86_400_000) })
      .where(eq(users.id, alt.user.id));
    const gameId = await gameFor(alt, mod);
    // The alt links a Kick account after the game was made for it.
    t.clock.advance(60_000);
    await t.database.db.insert(kickLinkCodes).values({
      code: `gate-${alt.user.id.slice(0, 8)}`,
      userId: alt.user.id,
      createdAt: t.clock.now(),
      expiresAt: new Date(t.clock.now().getTime() + 600_000),
      usedAt: t.clock.now(),
    });
    const id = await claim(gameId);
    const refused = await act(other, id, 'deliver');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      fulfilmentMessages.waitsForAdmin('the winner linked an account after the game was created'),
    );
    expect((await t.database.db.select().from(fulfilmentItems).where(eq(fulfilmentItems.id, id)))[0]!.status).toBe(
      'pending',
    );
    expect((await act(admin, id, 'deliver')).statusCode).toBe(200);

    // A player made a Moderator after the game was created.
    const promoted = await t.signIn({ name: 'Soon staff' });
    await t.database.db
      .update(users)
      .set({ createdAt: new Date(t.clock.now().getTime() - 86_400_000) })
      .where(eq(users.id, promoted.user.id));
    const second = await claim(await gameFor(promoted, mod));
    await t.database.db.update(users).set({ role: 'Moderator' }).where(eq(users.id, promoted.user.id));
    expect((await act(other, second, 'deliver')).json().message).toBe(
      fulfilmentMessages.waitsForAdmin('the winner is a staff account (Moderator)'),
    );

    // A game an Admin ran: any staff member delivers it (an Admin is trusted with what he runs).
    const fresh = await t.signIn({ name: 'Newcomer' });
    const third = await claim(await gameFor(fresh, admin));
    expect((await act(other, third, 'deliver')).statusCode).toBe(200);
  });
});

/**
 * `!guess` through the real signed Kick webhook route: one guess per linked chatter, replaced
 * until guessing closes, refused after; the published hash of the closed list matches the list
 * revealed at the end (recomputed here independently); the closest guess wins (ties: the earliest)
 * and its prize is paid once through the ledger, even when the end is requested twice at once.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { HuntGuessView, HuntView } from '@kickback/common/hubs/hunt';
import { ledger } from '../../db/schema/ledger';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { postDelivery, signedDelivery, chatPayload } from '../../../test/kick';
import { linkedChatter, repliesTo, say, type Chatter } from '../../../test/predictions';
import { raceBarrier } from '../../../test/race';
import { describeRace, useRaceApp } from '../../../test/race-database';

let t: TestApp;
let admin: TestUser;
let kick = 5000;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
});
beforeEach(async () => {
  await t.database.db.execute(sql`UPDATE hunts SET status = 'finished', finished_at = now() WHERE status = 'running'`);
});
afterAll(async () => {
  await t.close();
});

const chatter = () => linkedChatter(t, String(++kick));

async function post(path: string, body: unknown = {}) {
  const res = await t.call({ method: 'POST', url: path, as: admin, body });
  return { status: res.statusCode, body: res.json<HuntView & { message?: string }>() };
}

/** A running hunt with bonuses of these bets (guessing open). */
async function huntWith(bets: number[], guessPrize = 250): Promise<HuntView> {
  let view = (await post('/api/admin/hunts', { name: 'Guess hunt', startCost: 100, guessPrize })).body;
  for (const bet of bets) view = (await post(`/api/admin/hunts/${view.id}/bonuses`, { slot: 'Slot', bet })).body;
  return view;
}

async function guess(who: Chatter, text: string): Promise<string[]> {
  const { res, messageId } = await say(t, who, text);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return repliesTo(t, messageId);
}

const guesses = () => t.app.hunt.guesses();

/** The canonical text as documented (docs/features/bonus-hunt.md#running-a-hunt, common/hunt/guesses.ts), built here without that code. */
function independentHash(list: HuntGuessView[]): string {
  const text = `[${list.map((g) => `[${JSON.stringify(g.kickUsername)},"${g.amount.toFixed(2)}","${g.guessedAt}"]`).join(',')}]`;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

async function openAll(view: HuntView, payouts: number[]): Promise<HuntView> {
  for (const [i, b] of view.bonuses.entries()) {
    view = (await post(`/api/admin/hunts/${view.id}/bonuses/${b.id}/open`, { payout: payouts[i] })).body;
  }
  return view;
}

describe('!guess from chat', () => {
  it('takes one guess per linked user, a new one replacing the old until guessing closes, then refuses', async () => {
    const hunt = await huntWith([1]);
    const ann = await chatter();
    const bob = await chatter();
    expect(await guess(ann, '!guess 1200')).toEqual([`@${ann.kickName} guess taken: 1,200.00.`]);
    expect(await guess(bob, '!GUESS $1,500.50')).toEqual([`@${bob.kickName} guess taken: 1,500.50.`]);
    t.clock.advance(1000);
    expect(await guess(ann, '!guess 900.5')).toEqual([`@${ann.kickName} guess changed to 900.50.`]);
    expect((await guesses()).map((g) => [g.kickUsername, g.amount])).toEqual([
      [bob.kickName, 1500.5],
      [ann.kickName, 900.5], // replaced: it now counts from its new time
    ]);
    expect(await guess(ann, '!guess lots')).toEqual([
      `@${ann.kickName} use !guess [AMOUNT], for example !guess 1234.50.`,
    ]);
    const stranger = await say(t, { kickId: '99999', kickName: 'stranger' }, '!guess 10');
    expect((await repliesTo(t, stranger.messageId))[0]).toContain('link your Kick account');

    const closed = await post(`/api/admin/hunts/${hunt.id}/close-guessing`);
    expect(closed.body.guessing).toMatchObject({ state: 'closed', count: 2, revealed: null });
    expect(await guess(bob, '!guess 1')).toEqual([`@${bob.kickName} guessing is closed for this hunt.`]);
    expect(await guess(await chatter(), '!guess 2')).toEqual([expect.stringContaining('guessing is closed')]);
    expect((await guesses()).map((g) => g.amount)).toEqual([1500.5, 900.5]);
    expect((await post(`/api/admin/hunts/${hunt.id}/close-guessing`)).status).toBe(409);
  });

  it('a redelivered message counts once and does not move the guess', async () => {
    await huntWith([1]);
    const cat = await chatter();
    const delivery = signedDelivery(chatPayload(t, cat.kickName, '!guess 321', { userId: cat.kickId }), {
      at: t.clock.now(),
    });
    expect((await postDelivery(t, delivery)).statusCode).toBeLessThan(300);
    const first = await guesses();
    t.clock.advance(5000);
    expect((await postDelivery(t, delivery)).statusCode).toBeLessThan(300);
    expect(await guesses()).toEqual(first);
  });

  it('a message already handled elsewhere (its once-mark taken) changes nothing', async () => {
    await huntWith([1]);
    const dee = await chatter();
    const linked = {
      id: dee.user.id,
      username: dee.user.username,
      kickId: dee.kickId,
      kickUsername: dee.kickName,
      excluded: false,
    };
    expect(await t.app.hunt.guess(linked, 4200n, async () => false)).toEqual({ ok: false, reason: 'repeated' });
    expect(await guesses()).toEqual([]);
    expect(await t.app.hunt.guess(linked, 4200n, async () => true)).toMatchObject({ ok: true, replaced: false });
    expect((await guesses()).map((g) => g.amount)).toEqual([42]); // 4200 hundredths
  });

  it('opening the first bonus with guessing open closes it and publishes the hash first', async () => {
    const hunt = await huntWith([1, 2]);
    const dan = await chatter();
    await guess(dan, '!guess 77');
    const opened = (await post(`/api/admin/hunts/${hunt.id}/bonuses/${hunt.bonuses[0]!.id}/open`, { payout: 5 })).body;
    expect(opened.guessing.state).toBe('closed');
    expect(opened.guessing.hash).toBe(independentHash(await guesses()));
    expect(await guess(dan, '!guess 78')).toEqual([expect.stringContaining('guessing is closed')]);
  });
});

describe('the end of a hunt', () => {
  it('the closest guess wins (ties: the earliest), paid once; the revealed list matches the published hash', async () => {
    const hunt = await huntWith([1, 1]);
    const [early, late, far, replaced] = [await chatter(), await chatter(), await chatter(), await chatter()];
    await guess(replaced, '!guess 1000'); // exact at first, but replaced below
    t.clock.advance(10);
    await guess(early, '!guess 990'); // 10 below
    t.clock.advance(10);
    await guess(late, '!guess 1010'); // 10 above: a tie, but later
    await guess(far, '!guess 5');
    t.clock.advance(10);
    await guess(replaced, '!guess 2000');
    const closed = (await post(`/api/admin/hunts/${hunt.id}/close-guessing`)).body;
    const before = await t.reload(early.user.id);

    const ended = await openAll(closed, [600, 400]); // total won: 1000.00
    const finished = await post(`/api/admin/hunts/${hunt.id}/finish`);
    expect(finished.status).toBe(200);
    const g = finished.body.guessing;
    expect(g.winner).toEqual({
      kickUsername: early.kickName,
      amount: 990,
      distance: 10,
      prize: 250,
      paid: true,
      held: false,
    });
    expect(ended.won).toBe(1000);
    expect(g.revealed?.map((r) => r.kickUsername)).toEqual([
      early.kickName,
      late.kickName,
      far.kickName,
      replaced.kickName,
    ]);
    expect(g.hash).toBe(closed.guessing.hash);
    expect(independentHash(g.revealed!)).toBe(g.hash);

    expect(Number((await t.reload(early.user.id)).points) - Number(before.points)).toBe(250);
    const prizes = await t.database.db.select().from(ledger).where(eq(ledger.reason, 'hunt_prize'));
    expect(prizes.filter((p) => p.reference === hunt.id)).toHaveLength(1);
    expect((await post(`/api/admin/hunts/${hunt.id}/finish`)).status).toBe(409);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a hunt without guesses ends with no winner and pays nothing', async () => {
    const hunt = await huntWith([1]);
    await openAll(hunt, [3]);
    const finished = (await post(`/api/admin/hunts/${hunt.id}/finish`)).body;
    expect(finished.guessing).toMatchObject({ winner: null, revealed: [], count: 0 });
    expect(finished.guessing.hash).toBe(independentHash([]));
  });
});

describeRace('hunt: two finish requests at once', () => {
  // The file's app runs on PGlite: this block has its own, on PostgreSQL.
  useRaceApp(async (app) => {
    const saved = { t, admin };
    t = app;
    admin = await app.signIn({ role: 'Admin', name: 'Host' });
    return () => ({ t, admin } = saved);
  });

  it('two finish requests at once: one finishes and pays, the other is a 409', async () => {
    const hunt = await huntWith([2], 100);
    const eve = await chatter();
    await guess(eve, '!guess 10');
    await openAll(hunt, [12]);
    const race = raceBarrier(2);
    race.reset(hunt.id, 'hunts');
    t.app.hunt.hooks.afterFinishLock = (tx) => race.arrive(tx);
    try {
      const results = await Promise.all([
        post(`/api/admin/hunts/${hunt.id}/finish`),
        post(`/api/admin/hunts/${hunt.id}/finish`),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    } finally {
      delete t.app.hunt.hooks.afterFinishLock;
    }
    expect(race.unlockedReads()).toEqual([]);
    const prizes = await t.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'hunt_prize'), eq(ledger.reference, hunt.id)));
    expect(prizes).toHaveLength(1);
    expect(prizes[0]!.userId).toBe(eve.user.id);
  });
});

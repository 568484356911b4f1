/**
 * A `!bet` whose lease runs out while the process that recorded it is still working on it — the
 * message queued behind the sender's earlier one, or waiting on the database — and that something
 * else takes over meanwhile: that process's own sweeper, another process's sweeper, or Kick's retry
 * to another process (docs/features/kick-chat.md#the-pipeline). Whoever processes it, each bet
 * commits once and is answered once, and a sender's bets commit in Kick's order, even when the
 * taker meets the sender's last message first. The first process, when it resumes, finds every one
 * of them handled — in one statement, and the general way when the sender's bet lock is held. On
 * PostgreSQL, the first process and the taker also run at the same moment.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { inArray } from 'drizzle-orm';
import type pg from 'pg';
import { chatMessages } from '../../db/schema/chat';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { appsClosedAfterEach, type TestApp } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { chatMessage } from '../../../test/kick';
import { holdFirst } from '../../../test/chat-hold';
import { betStakes, escrow, linkedChatter, openPrediction, repliesTo, type Chatter } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { CLAIM_LEASE_MS } from '../chat/pipeline';
import type { PipelineResult } from '../chat/service';
import { BETTOR_LOCK } from './bet-order';

const { app, twoProcesses } = appsClosedAfterEach();
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** A chatter's `!bet`, stamped by Kick now on `t`'s clock. */
const bet = (t: TestApp, fan: Chatter, content: string): ChatMessage =>
  chatMessage(t, { kickUserId: fan.kickId, kickUsername: fan.kickName, content });

const rowsOf = (t: TestApp, ids: string[]) =>
  t.database.db.select().from(chatMessages).where(inArray(chatMessages.messageId, ids));

/** Waits until every one of these messages is recorded (committed by the chat's batched write). */
async function recorded(t: TestApp, ids: string[]): Promise<void> {
  const until = Date.now() + 20_000;
  while ((await rowsOf(t, ids)).length < ids.length) {
    if (Date.now() > until) throw new Error('the messages were not recorded');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Runs `start` while another connection holds the sender's bet lock, and lets the lock go once a
 * bet in `t` went the general way (the one statement never waits for the lock).
 */
async function withBetLockHeld(t: TestApp, userId: string, start: () => void): Promise<void> {
  const holder = await (t.database.raw as pg.Pool).connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BETTOR_LOCK, userId]);
    const before = t.app.predictions.betPaths.general;
    start();
    const until = Date.now() + 20_000;
    while (t.app.predictions.betPaths.general === before) {
      if (Date.now() > until) throw new Error('the bet did not go the general way');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await holder.query('COMMIT');
    holder.release();
  }
}

type Taker = 'its own sweeper' | "another process's sweeper" | "Kick's retry to another process";
type Resumed = 'in one statement' | 'the general way';

describe('a !bet whose lease runs out while its process still works on it', () => {
  const cases: Array<[Taker, Resumed]> = [
    ['its own sweeper', 'in one statement'],
    ["another process's sweeper", 'in one statement'],
    ["Kick's retry to another process", 'in one statement'],
    ['its own sweeper', 'the general way'],
    ["another process's sweeper", 'the general way'],
  ];

  it.each(cases)(
    'is taken over by %s: each bet commits once, in Kick’s order, and the first process resumes %s finding them handled',
    async (taker, resumed) => {
      if (resumed === 'the general way' && !usingPostgres()) return; // another connection holds a lock
      const [a, b] = taker === 'its own sweeper' ? [await app(), null] : await twoProcesses();
      const other = b ?? a;
      const admin = await a.signIn({ role: 'Admin' });
      const fan = await linkedChatter(a, '9101', { points: '1000' });
      await other.app.chat.linkChanged(fan.user.id); // B's in-memory links follow (Redis in production)
      await openPrediction(a, admin);

      // Kick stamps three bets a second apart and delivers the last first; A holds that one (a slow
      // handler, a busy database), and the two earlier ones arrive and queue behind it.
      const m1 = bet(a, fan, '!bet 1 1');
      a.clock.advance(1000);
      const m2 = bet(a, fan, '!bet 1 2');
      a.clock.advance(1000);
      const m3 = bet(a, fan, '!bet 1 3');
      const held = holdFirst((m) => m.content === '!bet 1 3');
      a.app.chat.register(held.handler);
      const firstCopies: Array<Promise<PipelineResult>> = [a.app.chat.process(m3, 'kick-webhook')];
      await held.arrived;
      a.clock.advance(1000);
      firstCopies.push(a.app.chat.process(m2, 'kick-webhook'));
      a.clock.advance(1000);
      firstCopies.push(a.app.chat.process(m1, 'kick-webhook'));
      await recorded(a, [m1.messageId, m2.messageId, m3.messageId]);
      expect(await betStakes(a, fan.user.id)).toEqual([]);

      // The last message's lease runs out; the two queued behind it are still A's.
      const lease = (await rowsOf(a, [m3.messageId]))[0]!.claimedUntil!;
      other.clock.set(new Date(lease.getTime() + 500));
      if (taker === "Kick's retry to another process") {
        expect(await other.app.chat.process(m1, 'kick-webhook')).toMatchObject({ inFlight: true }); // still A's
        expect(await other.app.chat.process(m3, 'kick-webhook')).toMatchObject({
          duplicate: false,
          inFlight: false,
          handledBy: 'bet',
        });
      } else {
        expect(await other.app.chat.sweep()).toBe(1);
      }
      // The taker took the sender's earlier bets first, and answered each (with the stake so far).
      expect(await betStakes(a, fan.user.id)).toEqual(['-1.00', '-2.00', '-3.00']);
      for (const [m, stake, balance] of [
        [m1, 1, 999],
        [m2, 3, 997],
        [m3, 6, 994],
      ] as const) {
        expect(await repliesTo(a, m.messageId)).toEqual([
          `@${fan.kickName} bet taken: ${stake} points on option 1. Balance: ${balance}.`,
        ]);
      }

      // A resumes and works through its copies: every one is found handled.
      if (resumed === 'the general way') await withBetLockHeld(a, fan.user.id, held.release);
      else held.release();
      const results = await Promise.all(firstCopies);
      for (const r of results) expect(r).toMatchObject({ duplicate: false, inFlight: false, errors: [] });

      expect(await betStakes(a, fan.user.id)).toEqual(['-1.00', '-2.00', '-3.00']);
      expect((await a.reload(fan.user.id)).points).toBe('994.00');
      expect(await escrow(a)).toMatchObject({ stakes: '6.00', bets: 3 });
      for (const m of [m1, m2, m3]) expect(await repliesTo(a, m.messageId)).toHaveLength(1);
      expect((await rowsOf(a, [m1.messageId, m2.messageId, m3.messageId])).map((r) => r.handledBy)).toEqual([
        'bet',
        'bet',
        'bet',
      ]);
      // Nothing is left to sweep, and a later redelivery is a duplicate.
      expect(await other.app.chat.sweep()).toBe(0);
      expect(await other.app.chat.process(m2, 'kick-webhook')).toMatchObject({ duplicate: true });
      expect(await ledgerMismatches(a)).toEqual([]);
    },
  );
});

describe.runIf(usingPostgres())('a taken-over !bet and its first process at the same moment (PostgreSQL)', () => {
  it('commits each bet once, whichever of the two gets there first', async () => {
    const [a, b] = await twoProcesses();
    const admin = await a.signIn({ role: 'Admin' });
    await openPrediction(a, admin);
    // Several bettors, each with one bet held in A past its lease; then A resumes while B sweeps.
    const fans: Chatter[] = [];
    for (let k = 0; k < 6; k++) {
      const fan = await linkedChatter(a, `92${k}1`, { points: '100' });
      await b.app.chat.linkChanged(fan.user.id);
      fans.push(fan);
    }
    let resume!: () => void;
    const together = new Promise<void>((r) => (resume = r));
    let waiting = 0;
    let allHeld!: () => void;
    const held = new Promise<void>((r) => (allHeld = r));
    a.app.chat.register({
      name: 'hold-all',
      order: 1,
      async handle() {
        if (++waiting === fans.length) allHeld();
        await together;
        return false;
      },
    });
    const messages = fans.map((f, k) => bet(a, f, `!bet 1 ${10 + k}`));
    const firstCopies = messages.map((m) => a.app.chat.process(m, 'kick-webhook'));
    await held;
    // A resumes the moment B's sweeper has claimed the messages: both take their bets at once.
    const query = b.database.query.bind(b.database);
    vi.spyOn(b.database, 'query').mockImplementation(async (text, params, name) => {
      const rows = await query(text, params, name);
      if (text.includes('UPDATE chat_messages SET claimed_until')) resume();
      return rows as never;
    });
    b.clock.advance(CLAIM_LEASE_MS + 1000);
    expect(await b.app.chat.sweep()).toBe(fans.length);
    for (const r of await Promise.all(firstCopies)) expect(r).toMatchObject({ duplicate: false, errors: [] });
    for (const [k, f] of fans.entries()) expect(await betStakes(a, f.user.id)).toEqual([`-${10 + k}.00`]);
    for (const m of messages) expect(await repliesTo(a, m.messageId)).toHaveLength(1);
    expect(await escrow(a)).toMatchObject({ bets: fans.length });
    expect(await ledgerMismatches(a)).toEqual([]);
  });
});

describe.runIf(usingPostgres())('a refused !bet taken the general way (PostgreSQL)', () => {
  it('is marked handled with its refusal, so the bettor’s next bet in another process does not take it again', async () => {
    const [a, b] = await twoProcesses();
    const admin = await a.signIn({ role: 'Admin' });
    const fan = await linkedChatter(a, '9301', { points: '50' });
    await b.app.chat.linkChanged(fan.user.id);
    await openPrediction(a, admin);
    const over = bet(a, fan, '!bet 1 100');
    a.clock.advance(1000);
    b.clock.set(a.clock.now());
    const next = bet(b, fan, '!bet 1 20');

    // A takes the first bet the general way (the sender's bet lock is held elsewhere at first), refuses
    // it, and is slow to answer and to write the message's "processed".
    let answered!: () => void;
    const answer = new Promise<void>((r) => (answered = r));
    let replying!: () => void;
    const atReply = new Promise<void>((r) => (replying = r));
    const reply = a.app.chat.reply.bind(a.app.chat);
    a.app.chat.reply = async (m, text, ack) => {
      if (m.messageId === over.messageId) {
        replying();
        await answer;
      }
      return reply(m, text, ack);
    };
    let first!: Promise<PipelineResult>;
    await withBetLockHeld(a, fan.user.id, () => (first = a.app.chat.process(over, 'kick-webhook')));
    await atReply; // refused and committed; not answered, not marked processed by the chat's write yet

    // Meanwhile the bettor gets points, and the next bet arrives at B: it takes only itself.
    await givePoints(a, fan.user.id, '100');
    expect(await b.app.chat.process(next, 'kick-webhook')).toMatchObject({ handledBy: 'bet', errors: [] });
    answered();
    expect(await first).toMatchObject({ handledBy: 'bet', errors: [] });

    expect(await betStakes(a, fan.user.id)).toEqual(['-20.00']);
    expect(await repliesTo(a, over.messageId)).toEqual([`@${fan.kickName} not enough points (balance: 50).`]);
    expect(await repliesTo(a, next.messageId)).toEqual([
      `@${fan.kickName} bet taken: 20 points on option 1. Balance: 130.`,
    ]);
    expect(await ledgerMismatches(a)).toEqual([]);
  });
});

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
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { chatMessages } from '../../db/schema/chat';
import { ledger } from '../../db/schema/ledger';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { appsClosedAfterEach, type TestApp } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { givePoints, ledgerMismatches } from '../../../test/economy';
import { chatMessage } from '../../../test/kick';
import { escrow, linkedChatter, openPrediction, repliesTo, type Chatter } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { CLAIM_LEASE_MS } from '../chat/pipeline';
import type { ChatHandler, PipelineResult } from '../chat/service';
import { BETTOR_LOCK } from './bet-order';

const { app, twoProcesses } = appsClosedAfterEach();
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** A handler (before the bet's) that holds the first message with this text, once, until released. */
function holdFirst(content: string) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const arrived = new Promise<void>((r) => (reached = r));
  let used = false;
  const handler: ChatHandler = {
    name: 'hold',
    order: 1,
    async handle(m) {
      if (used || m.content !== content) return false;
      used = true;
      reached();
      await gate;
      return false;
    },
  };
  return { handler, arrived, release };
}

/** A chatter's `!bet`, stamped by Kick now on `t`'s clock. */
const bet = (t: TestApp, fan: Chatter, content: string): ChatMessage =>
  chatMessage(t, { kickUserId: fan.kickId, kickUsername: fan.kickName, content });

const stakes = async (t: TestApp, userId: string) =>
  (
    await t.database.db
      .select({ delta: ledger.delta })
      .from(ledger)
      .where(and(eq(ledger.userId, userId), eq(ledger.reason, 'prediction_bet')))
      .orderBy(asc(ledger.id))
  ).map((r) => r.delta);

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
      const held = holdFirst('!bet 1 3');
      a.app.chat.register(held.handler);
      const firstCopies: Array<Promise<PipelineResult>> = [a.app.chat.process(m3, 'kick-webhook')];
      await held.arrived;
      a.clock.advance(1000);
      firstCopies.push(a.app.chat.process(m2, 'kick-webhook'));
      a.clock.advance(1000);
      firstCopies.push(a.app.chat.process(m1, 'kick-webhook'));
      await recorded(a, [m1.messageId, m2.messageId, m3.messageId]);
      expect(await stakes(a, fan.user.id)).toEqual([]);

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
      expect(await stakes(a, fan.user.id)).toEqual(['-1.00', '-2.00', '-3.00']);
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
      const pool = a.database.raw as pg.Pool;
      const holder = resumed === 'the general way' ? await pool.connect() : null;
      try {
        if (holder) {
          // The sender's bet lock is held elsewhere: A's bets cannot go in one statement.
          await holder.query('BEGIN');
          await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BETTOR_LOCK, fan.user.id]);
        }
        held.release();
        if (holder) {
          const until = Date.now() + 20_000;
          while (a.app.predictions.betPaths.general === 0) {
            if (Date.now() > until) throw new Error('the bet did not go the general way');
            await new Promise((r) => setTimeout(r, 10));
          }
          await holder.query('COMMIT');
        }
      } finally {
        holder?.release();
      }
      const results = await Promise.all(firstCopies);
      for (const r of results) expect(r).toMatchObject({ duplicate: false, inFlight: false, errors: [] });

      expect(await stakes(a, fan.user.id)).toEqual(['-1.00', '-2.00', '-3.00']);
      expect((await a.reload(fan.user.id)).points).toBe('994.00');
      expect(await escrow(a)).toMatchObject({ stakes: '6.00', bets: 3 });
      for (const m of [m1, m2, m3]) expect(await repliesTo(a, m.messageId)).toHaveLength(1);
      expect((await rowsOf(a, [m1.messageId, m2.messageId, m3.messageId])).map((r) => r.handledBy)).toEqual([
        'bet',
        'bet',
        'bet',
      ]);
      if (holder) expect(a.app.predictions.betPaths.general).toBeGreaterThan(0);
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
    b.clock.advance(CLAIM_LEASE_MS + 1000);
    const [swept] = await Promise.all([b.app.chat.sweep(), Promise.resolve().then(resume)]);
    expect(swept).toBe(fans.length);
    for (const r of await Promise.all(firstCopies)) expect(r).toMatchObject({ duplicate: false, errors: [] });
    for (const [k, f] of fans.entries()) expect(await stakes(a, f.user.id)).toEqual([`-${10 + k}.00`]);
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
    const pool = a.database.raw as pg.Pool;
    const holder = await pool.connect();
    let first: Promise<PipelineResult>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BETTOR_LOCK, fan.user.id]);
      first = a.app.chat.process(over, 'kick-webhook');
      const until = Date.now() + 20_000;
      while (a.app.predictions.betPaths.general === 0) {
        if (Date.now() > until) throw new Error('the bet did not go the general way');
        await new Promise((r) => setTimeout(r, 10));
      }
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    await atReply; // refused and committed; not answered, not marked processed by the chat's write yet

    // Meanwhile the bettor gets points, and the next bet arrives at B: it takes only itself.
    await givePoints(a, fan.user.id, '100');
    expect(await b.app.chat.process(next, 'kick-webhook')).toMatchObject({ handledBy: 'bet', errors: [] });
    answered();
    expect(await first).toMatchObject({ handledBy: 'bet', errors: [] });

    expect(await stakes(a, fan.user.id)).toEqual(['-20.00']);
    expect(await repliesTo(a, over.messageId)).toEqual([`@${fan.kickName} not enough points (balance: 50).`]);
    expect(await repliesTo(a, next.messageId)).toEqual([
      `@${fan.kickName} bet taken: 20 points on option 1. Balance: 130.`,
    ]);
    expect(await ledgerMismatches(a)).toEqual([]);
  });
});

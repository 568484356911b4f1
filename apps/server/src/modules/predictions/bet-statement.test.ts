/**
 * A `!bet` taken in one statement (./bet-statement.ts), through the real webhook route: the usual
 * bet never opens a transaction of its own; a refusal is answered once even when the bettor's
 * next bet follows at once; a sender's earlier bet, recorded but not handled, is taken first; and
 * (on PostgreSQL, where another transaction can hold a lock) a bet that finds the sender's bet lock
 * or any row it needs held elsewhere waits its turn the general way, so an earlier bet recorded
 * meanwhile is still taken first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { chatMessages } from '../../db/schema/chat';
import { appsClosedAfterEach, type TestApp } from '../../../test/app';
import { usingPostgres } from '../../../test/database';
import { ledgerMismatches } from '../../../test/economy';
import { chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { holdFirst } from '../../../test/chat-hold';
import {
  betStakes,
  escrow,
  linkedChatter,
  openPrediction,
  repliesTo,
  say,
  type Chatter,
} from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { BETTOR_LOCK } from './bet-order';

const { app, twoProcesses } = appsClosedAfterEach();
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** A chatter's `!bet` as Kick delivers it, stamped now on the app's clock; posted when the test says. */
function betDelivery(t: TestApp, fan: Chatter, text: string) {
  const payload = chatPayload(t, fan.kickName, text, { userId: fan.kickId });
  return { messageId: String(payload.message_id), delivery: signedDelivery(payload, { at: t.clock.now() }) };
}

describe('a !bet in one statement', () => {
  it('takes and refuses bets without a transaction of their own', async () => {
    const t = await app();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '8001', { points: '300' });
    const poor = await linkedChatter(t, '8002', { points: '10' });
    await openPrediction(t, admin, { minBet: 10, maxBet: 250 });
    const transactions = { n: 0 };
    const transaction = t.app.db.transaction.bind(t.app.db);
    t.app.db.transaction = ((...args: Parameters<typeof transaction>) => {
      transactions.n += 1;
      return transaction(...args);
    }) as typeof transaction;

    const sent: Array<[string, string]> = [
      ['!bet 1 100', 'bet taken: 100 points on option 1. Balance: 200.'],
      ['!bet 1 50.5', 'bet taken: 150.5 points on option 1. Balance: 149.5.'],
      ['!bet 2 20', 'you already bet on option 1: one answer per prediction.'],
      ['!bet 4 20', 'there is no such option; use !bet [OPTION] [POINTS], for example !bet 1 500.'],
      ['!bet 1 5', 'the minimum bet is 10 points.'],
      ['!bet 1 100', 'the maximum stake is 250 points per prediction.'],
      ['!bet 1 99.5', 'bet taken: 250 points on option 1. Balance: 50.'],
    ];
    for (const [text, answer] of sent) {
      const { messageId } = await say(t, fan, text);
      expect(await repliesTo(t, messageId), text).toEqual([`@kick8001 ${answer}`]);
    }
    const { messageId } = await say(t, poor, '!bet 2 10.01');
    expect(await repliesTo(t, messageId)).toEqual(['@kick8002 not enough points (balance: 10).']);

    expect(t.app.predictions.betPaths).toEqual({ oneStatement: sent.length + 1, general: 0 });
    expect(transactions.n).toBe(0);
    expect(await betStakes(t, fan.user.id)).toEqual(['-100.00', '-50.50', '-99.50']);
    expect(await escrow(t)).toEqual({ stakes: '250.00', ledgerNet: '250.00', bets: 3 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('answers a refused bet once, even when the bettor’s next bet follows at once', async () => {
    const t = await app();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '8101', { points: '50' });
    await openPrediction(t, admin);
    const over = betDelivery(t, fan, '!bet 1 100');
    t.clock.advance(1000);
    const next = betDelivery(t, fan, '!bet 1 20');
    // Both arrive together: the second bet runs as soon as the first is answered, before the first
    // message's "processed" is written with the chat's next batch.
    const answers = await Promise.all([postDelivery(t, over.delivery), postDelivery(t, next.delivery)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await repliesTo(t, over.messageId)).toEqual(['@kick8101 not enough points (balance: 50).']);
    expect(await repliesTo(t, next.messageId)).toEqual(['@kick8101 bet taken: 20 points on option 1. Balance: 30.']);
    const [row] = await t.database.db
      .select({ handledBy: chatMessages.handledBy })
      .from(chatMessages)
      .where(eq(chatMessages.messageId, over.messageId));
    expect(row?.handledBy).toBe('bet');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('takes the sender’s earlier bet first when another process recorded it and has not handled it yet', async () => {
    const [a, b] = await twoProcesses();
    const admin = await a.signIn({ role: 'Admin' });
    const fan = await linkedChatter(a, '8201', { points: '500' });
    await b.app.chat.linkChanged(fan.user.id); // B's in-memory links follow (Redis does this in production)
    await openPrediction(a, admin);
    const held = holdFirst((m) => m.content === '!bet 1 100');
    a.app.chat.register(held.handler);

    const first = betDelivery(a, fan, '!bet 1 100');
    a.clock.advance(1000);
    b.clock.advance(1000);
    const second = betDelivery(b, fan, '!bet 2 50');
    const firstAnswer = postDelivery(a, first.delivery); // A records it, then holds it
    await held.arrived;
    expect((await postDelivery(b, second.delivery)).statusCode).toBe(200);
    held.release();
    expect((await firstAnswer).statusCode).toBe(200);

    expect(await betStakes(a, fan.user.id)).toEqual(['-100.00']);
    expect(await repliesTo(a, first.messageId)).toEqual(['@kick8201 bet taken: 100 points on option 1. Balance: 400.']);
    expect(await repliesTo(a, second.messageId)).toEqual([
      '@kick8201 you already bet on option 1: one answer per prediction.',
    ]);
    expect(b.app.predictions.betPaths.general).toBe(1);
    expect(await ledgerMismatches(a)).toEqual([]);
  });
});

describe.runIf(usingPostgres())('a !bet that finds a lock held elsewhere (PostgreSQL)', () => {
  type Held = 'the sender’s bet lock' | 'the bettor’s row' | 'the prediction' | 'the bettor’s stake' | 'the message';
  const cases: Held[] = [
    'the sender’s bet lock',
    'the bettor’s row',
    'the prediction',
    'the bettor’s stake',
    'the message',
  ];

  it.each(cases)(
    'waits its turn when another transaction holds %s, and an earlier bet recorded meanwhile goes first',
    async (held) => {
      const t = await app();
      const admin = await t.signIn({ role: 'Admin' });
      const fan = await linkedChatter(t, '8301', { points: '1000' });
      const { id: predictionId } = await openPrediction(t, admin);
      if (held === 'the bettor’s stake') await say(t, fan, '!bet 1 1'); // the stake row to hold
      const pool = t.database.raw as pg.Pool;
      const waiting = async () =>
        Number(
          (
            await pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity s USING (pid)
               WHERE NOT l.granted AND s.datname = current_database()`,
            )
          ).rows[0]!.n,
        );
      const recorded = async (messageId: string) =>
        (await pool.query('SELECT 1 FROM chat_messages WHERE message_id = $1', [messageId])).rowCount === 1;

      // Kick stamped the first message a second before the second; the second arrives first.
      const first = betDelivery(t, fan, '!bet 1 100');
      t.clock.advance(1000);
      const second = betDelivery(t, fan, '!bet 1 50');
      const hold = holdFirst((m) => m.content === '!bet 1 50');
      if (held === 'the message') t.app.chat.register(hold.handler);

      const holder = await pool.connect();
      let answered = false;
      let secondAnswer: Promise<unknown> | null = null;
      let firstAnswer: Promise<unknown> | null = null;
      try {
        await holder.query('BEGIN');
        if (held === 'the sender’s bet lock') {
          await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BETTOR_LOCK, fan.user.id]);
        } else if (held === 'the bettor’s row') {
          await holder.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [fan.user.id]);
        } else if (held === 'the prediction') {
          await holder.query('SELECT 1 FROM live_games WHERE id = $1 FOR UPDATE', [predictionId]);
        } else if (held === 'the bettor’s stake') {
          await holder.query('SELECT 1 FROM prediction_bets WHERE prediction_id = $1 AND user_id = $2 FOR UPDATE', [
            predictionId,
            fan.user.id,
          ]);
        }
        secondAnswer = postDelivery(t, second.delivery).then((r) => {
          answered = true;
          return r.statusCode;
        });
        if (held === 'the message') {
          await hold.arrived; // recorded, not yet at the bet handler: hold its row, then let it go on
          await holder.query('SELECT 1 FROM chat_messages WHERE message_id = $1 FOR UPDATE', [second.messageId]);
          hold.release();
        }
        // The second bet must wait for the holder (it may not go past it in one statement).
        for (let i = 0; !answered && (await waiting()) === 0; i++) {
          if (i > 2000) throw new Error('the second bet neither waited nor was answered');
          await new Promise((r) => setTimeout(r, 10));
        }
        expect(answered).toBe(false);
        firstAnswer = postDelivery(t, first.delivery).then((r) => r.statusCode);
        while (!(await recorded(first.messageId))) await new Promise((r) => setTimeout(r, 10));
      } finally {
        await holder.query('COMMIT');
        holder.release();
      }
      expect([await firstAnswer, await secondAnswer]).toEqual([200, 200]);
      const before = held === 'the bettor’s stake' ? ['-1.00'] : [];
      expect(await betStakes(t, fan.user.id)).toEqual([...before, '-100.00', '-50.00']);
      expect(await repliesTo(t, first.messageId)).toHaveLength(1);
      expect(await repliesTo(t, second.messageId)).toHaveLength(1);
      expect(t.app.predictions.betPaths.general).toBeGreaterThanOrEqual(1);
      expect(await ledgerMismatches(t)).toEqual([]);
    },
    60_000,
  );
});

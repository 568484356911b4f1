/**
 * The batched chat ingest through the real webhook route: a message is recorded and deduplicated by
 * one statement, many messages share one write, nothing is lost when a process stops between
 * recording and answering (Kick's retry or the sweeper takes it over, and a bet still commits
 * once), a chatter's bets commit in the order they arrived, and the linked-user lookup follows
 * link, exclusion and unlink made in another process (Redis).
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { chatMessages, kickChatActivity } from '../../db/schema/chat';
import { ledger } from '../../db/schema/ledger';
import { appsClosedAfterEach, type TestApp } from '../../../test/app';
import { chatMessage, chatPayload, postDelivery, signedDelivery } from '../../../test/kick';
import { escrow, linkedChatter, openPrediction, repliesTo } from '../../../test/predictions';
import { redisForTest, testRedisUrl } from '../../../test/redis';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { holdFirst } from '../../../test/chat-hold';
import { CLAIM_LEASE_MS } from './pipeline';
import type { LinkedChatter } from './service';

const { app, twoProcesses } = appsClosedAfterEach();
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** Counts the chat's batched ingest statements run on `t`'s database from now on. */
function ingestStatements(t: TestApp): () => number {
  const query = vi.spyOn(t.database, 'query');
  return () => query.mock.calls.filter((c) => /^\s*WITH incoming AS/.test(c[0])).length;
}

const rowOf = async (t: TestApp, messageId: string) =>
  (await t.database.db.select().from(chatMessages).where(eq(chatMessages.messageId, messageId)))[0];

describe('recording chat messages', () => {
  it('records plain chat no handler will act on already processed, deduplicated, in one statement', async () => {
    const t = await app();
    // The first message of a process finds the giveaway keys not yet read, so it might be a key.
    await t.app.chat.process(chatMessage(t, { content: 'warm-up' }), 'kick-websocket');
    const statements = ingestStatements(t);
    const m = chatMessage(t, { content: 'first!' });
    expect(await t.app.chat.process(m, 'kick-websocket')).toMatchObject({ duplicate: false, inFlight: false });
    expect(statements()).toBe(1);
    expect(await rowOf(t, m.messageId)).toMatchObject({ content: 'first!', claimedUntil: null, handledBy: null });
    expect((await rowOf(t, m.messageId))?.processedAt).not.toBeNull();

    // The same message again (another source, a redelivery): one statement finds it, nothing runs.
    expect(await t.app.chat.process(m, 'kick-webhook')).toMatchObject({ duplicate: true });
    expect(statements()).toBe(2);
    const [n] = await t.database.db
      .select({ n: count() })
      .from(chatMessages)
      .where(eq(chatMessages.messageId, m.messageId));
    expect(n?.n).toBe(1);
  });

  it('records a message a handler may act on with a lease, and marks it processed in the next statement', async () => {
    const t = await app();
    const statements = ingestStatements(t);
    let whileHandled: Awaited<ReturnType<typeof rowOf>>;
    t.app.chat.register({
      name: 'command',
      order: 1,
      mayAct: (m) => m.content === '!command',
      async handle(m) {
        if (m.content !== '!command') return false;
        whileHandled = await rowOf(t, m.messageId);
        return true;
      },
    });
    const m = chatMessage(t, { content: '!command' });
    expect(await t.app.chat.process(m, 'kick-websocket')).toMatchObject({ handledBy: 'command' });
    expect(whileHandled).toMatchObject({ processedAt: null });
    expect(whileHandled?.claimedUntil).not.toBeNull();
    expect(statements()).toBe(2);
    expect(await rowOf(t, m.messageId)).toMatchObject({ claimedUntil: null, handledBy: 'command' });
    expect((await rowOf(t, m.messageId))?.processedAt).not.toBeNull();
  });

  it("leases every command the site's own handlers may take, and no plain chat", async () => {
    const t = await app();
    await t.app.giveaway.addKey((await t.signIn({ role: 'Admin' })).user, '!enter');
    // An observer that runs first and reads the message's row as the handlers see it.
    const seen = new Map<string, { leased: boolean; processed: boolean }>();
    t.app.chat.register({
      name: 'observer',
      order: 1,
      mayAct: () => false,
      async handle(m) {
        const row = await rowOf(t, m.messageId);
        seen.set(m.content, { leased: row?.claimedUntil != null, processed: row?.processedAt != null });
        return false;
      },
    });
    const commands = ['!bet 1 500', '!bet', '!verify ABC123', '!verify', '!guess 1,234.50', '!guess', '!ENTER'];
    const plain = ['hello', 'enter', '!betting', 'I will !bet later', '!verifying'];
    for (const content of [...commands, ...plain]) {
      await t.app.chat.process(chatMessage(t, { content }), 'kick-websocket');
    }
    for (const content of commands) expect(seen.get(content), content).toEqual({ leased: true, processed: false });
    for (const content of plain) expect(seen.get(content), content).toEqual({ leased: false, processed: true });
  });

  it('writes many concurrent deliveries in a few statements and commits every one of them', async () => {
    const t = await app();
    const before = t.app.chat.batches;
    const deliveries = Array.from({ length: 200 }, (_, i) =>
      signedDelivery(chatPayload(t, `crowd${i % 50}`, `message ${i}`), { at: t.clock.now() }),
    );
    const answers = await Promise.all(deliveries.map((d) => postDelivery(t, d)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.every((a) => a.json<{ duplicate?: boolean }>().duplicate === undefined)).toBe(true);
    // One write per message would be 200 (plain chat is recorded processed at once).
    expect(t.app.chat.batches - before).toBeLessThan(100);
    const [all] = await t.database.db.select({ n: count() }).from(chatMessages);
    const [open] = await t.database.db
      .select({ n: count() })
      .from(chatMessages)
      .where(isNull(chatMessages.processedAt));
    const [chatters] = await t.database.db.select({ n: count() }).from(kickChatActivity);
    expect([all?.n, open?.n, chatters?.n]).toEqual([200, 0, 50]);
  });

  it('stores a message carrying a lone UTF-16 surrogate cleaned (U+FFFD), and fails none of the batch beside it', async () => {
    const t = await app();
    const before = t.app.chat.batches;
    // JSON carries a lone surrogate as a "\\uD800" escape; the signed body is what Kick would send.
    const payloads = Array.from({ length: 60 }, (_, i) => chatPayload(t, `mixed${i % 20}`, `hello ${i}`));
    payloads[17] = chatPayload(t, `mixed\uDC00name`, `bad \uD800 end\uD83D`);
    const deliveries = payloads.map((p) => signedDelivery(p, { at: t.clock.now() }));
    expect(deliveries[17]!.body.toString()).toContain('\\ud800');
    const answers = await Promise.all(deliveries.map((d) => postDelivery(t, d)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    // Sent together, so they shared statements: the bad one could have failed its neighbours.
    expect(t.app.chat.batches - before).toBeLessThan(30);
    const rows = await t.database.db.select().from(chatMessages);
    expect(rows).toHaveLength(60);
    const bad = rows.find((r) => r.messageId === payloads[17]!.message_id);
    expect(bad).toMatchObject({ content: 'bad \uFFFD end\uFFFD', kickUsername: 'mixed\uFFFDname' });
    for (let i = 0; i < 60; i++) {
      if (i === 17) continue;
      expect(rows.find((r) => r.messageId === payloads[i]!.message_id)?.content).toBe(`hello ${i}`);
    }

    // A long message (the chat websocket has no length limit) whose 2000-unit cut would split an
    // emoji's pair keeps no half of it.
    const long = chatMessage(t, { content: `${'a'.repeat(1999)}\u{1F600}tail` });
    expect(await t.app.chat.process(long, 'kick-websocket')).toMatchObject({ duplicate: false });
    expect((await rowOf(t, long.messageId))?.content).toBe('a'.repeat(1999));
  });

  it('a row the database refuses fails only its own message: the rest of its batch is written one by one', async () => {
    const t = await app();
    // Straight into the pipeline, past the sources' cleaning: the database refuses this content.
    const bad = chatMessage(t, { content: 'raw \uD800' });
    const good = Array.from({ length: 20 }, (_, i) => chatMessage(t, { content: `fine ${i}` }));
    const results = await Promise.allSettled([...good, bad].map((m) => t.app.chat.process(m, 'kick-websocket')));
    expect(results.map((r) => r.status)).toEqual([...good.map(() => 'fulfilled'), 'rejected']);
    for (const m of good) expect((await rowOf(t, m.messageId))?.content).toBe(m.content);
    expect(await rowOf(t, bad.messageId)).toBeUndefined();
  });
});

describe('replies', () => {
  it('are kept by the batched write that completes their message, in order, before the answer', async () => {
    // No Kick bot: posting a reply is then no I/O, so nothing lets the writer's timer run between
    // the replies and the completion (with the simulated bot a reply's token read may, and the first
    // reply is then written by a write of its own — also correct, but not what this test pins down).
    const t = await app({ env: { KICK_BOT_SIMULATOR: '0' } });
    // Posting goes through the outgoing queue, whose insert is I/O of its own on PostgreSQL; it is
    // tested in modules/chat-out. Here it is taken out so the writer alone decides the batches.
    const queued: unknown[] = [];
    t.app.chatOut.enqueue = async (...messages) => {
      queued.push(...messages);
    };
    t.app.chat.register({
      name: 'echo',
      order: 1,
      async handle(m) {
        if (m.content !== 'echo') return false;
        await t.app.chat.reply(m, 'first');
        await t.app.chat.reply(m, 'second');
        return true;
      },
    });
    const m = chatMessage(t, { content: 'echo' });
    const before = t.app.chat.batches;
    expect(await t.app.chat.process(m, 'kick-websocket')).toMatchObject({ handledBy: 'echo' });
    // Recorded; both replies with the completion (the pipeline waits for that write, not each reply).
    expect(t.app.chat.batches - before).toBe(2);
    expect(await rowOf(t, m.messageId)).toMatchObject({
      replies: ['@chatter first', '@chatter second'],
      handledBy: 'echo',
    });
    expect((await rowOf(t, m.messageId))?.processedAt).not.toBeNull();
    expect(queued).toHaveLength(2);
  });
});

describe('a process that stops between recording and answering', () => {
  it("loses nothing: Kick's retry to another process takes the message over after the lease, and its bet commits once", async () => {
    const [a, b] = await twoProcesses();
    const admin = await a.signIn({ role: 'Admin' });
    const fan = await linkedChatter(a, '6001', { points: '1000' });
    await openPrediction(a, admin);
    const stuck = holdFirst();
    a.app.chat.register(stuck.handler);

    const payload = chatPayload(a, fan.kickName, '!bet 1 100', { userId: fan.kickId });
    const delivery = signedDelivery(payload, { at: a.clock.now() });
    const deliveryId = delivery.headers['kick-event-message-id']!;
    const messageId = String(payload.message_id);
    const first = postDelivery(a, delivery); // A recorded it, then stalls: Kick gets no answer
    await stuck.arrived;
    expect(await rowOf(a, messageId)).toMatchObject({ content: '!bet 1 100', processedAt: null });

    // Kick retries to B while A's lease runs: "come back later", nothing done.
    const early = await postDelivery(b, signedDelivery(payload, { at: b.clock.now(), messageId: deliveryId }));
    expect(early.statusCode).toBe(503);
    expect((await a.reload(fan.user.id)).points).toBe('1000.00');

    // After the lease, the retry takes the message over and processes it.
    b.clock.advance(CLAIM_LEASE_MS + 1000);
    const retry = await postDelivery(b, signedDelivery(payload, { at: b.clock.now(), messageId: deliveryId }));
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ ok: true });
    expect((await a.reload(fan.user.id)).points).toBe('900.00');

    // A wakes up and finishes its copy: the bet is not taken twice, nor answered twice.
    stuck.release();
    expect((await first).statusCode).toBe(200);
    expect((await a.reload(fan.user.id)).points).toBe('900.00');
    expect(await escrow(a)).toMatchObject({ stakes: '100.00', bets: 1 });
    expect(await repliesTo(a, messageId)).toHaveLength(1);
    expect(await rowOf(a, messageId)).toMatchObject({ handledBy: 'bet' });
    const later = await postDelivery(b, signedDelivery(payload, { at: b.clock.now(), messageId: deliveryId }));
    expect(later.json()).toEqual({ ok: true, duplicate: true });
  });

  it('a redelivery that no handler there will act on takes the message over as processed, and the sweeper leaves it', async () => {
    const [a, b] = await twoProcesses();
    const stuck = holdFirst(); // no mayAct: the message is leased in A
    a.app.chat.register(stuck.handler);
    const m = chatMessage(a, { content: 'plain in B' });
    const first = a.app.chat.process(m, 'kick-webhook');
    await stuck.arrived;

    b.clock.advance(CLAIM_LEASE_MS + 1000);
    await b.app.chat.process(chatMessage(b, { content: 'warm-up' }), 'kick-websocket'); // B has read the keys
    const statements = ingestStatements(b);
    expect(await b.app.chat.process(m, 'kick-webhook')).toMatchObject({ duplicate: false, inFlight: false });
    expect(statements()).toBe(1);
    expect(await rowOf(b, m.messageId)).toMatchObject({ claimedUntil: null });
    expect((await rowOf(b, m.messageId))?.processedAt).not.toBeNull();
    expect(await b.app.chat.sweep()).toBe(0);
    stuck.release();
    await first;
  });

  it('loses nothing when no retry comes: the sweeper of another process finishes the message after the lease', async () => {
    const [a, b] = await twoProcesses();
    const stuck = holdFirst();
    a.app.chat.register(stuck.handler);
    const seen: string[] = [];
    b.app.chat.register({ name: 'seen', order: 2, handle: async (m) => void seen.push(m.content) });
    const m = chatMessage(a, { content: 'from the chat websocket' });
    const first = a.app.chat.process(m, 'kick-websocket');
    await stuck.arrived;

    expect(await b.app.chat.sweep()).toBe(0); // A's lease still runs
    b.clock.advance(CLAIM_LEASE_MS + 1000);
    expect(await b.app.chat.sweep()).toBe(1);
    expect(seen).toEqual(['from the chat websocket']);
    expect((await rowOf(b, m.messageId))?.processedAt).not.toBeNull();
    stuck.release();
    await first;
  });
});

describe("a chatter's bets", () => {
  it('commit in the order the messages arrived, even when an earlier one is slower on its way', async () => {
    const t = await app();
    const admin = await t.signIn({ role: 'Admin' });
    const fan = await linkedChatter(t, '6101', { points: '10000' });
    await openPrediction(t, admin);
    // Earlier bets are held longer before the bet handler sees them.
    t.app.chat.register({
      name: 'slow-start',
      order: 1,
      async handle(m) {
        const stake = Number(/^!bet 1 (\d+)$/.exec(m.content)?.[1] ?? 0);
        await new Promise((r) => setTimeout(r, (12 - stake) * 5));
        return false;
      },
    });
    // Kick stamps each message a second after the one before (its order is created_at, then the id).
    const deliveries = Array.from({ length: 12 }, (_, k) => {
      t.clock.advance(1000);
      return signedDelivery(chatPayload(t, fan.kickName, `!bet 1 ${k + 1}`, { userId: fan.kickId }), {
        at: t.clock.now(),
      });
    });
    const answers = await Promise.all(deliveries.map((d) => postDelivery(t, d)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const rows = await t.database.db
      .select({ delta: ledger.delta })
      .from(ledger)
      .where(and(eq(ledger.userId, fan.user.id), eq(ledger.reason, 'prediction_bet')))
      .orderBy(asc(ledger.id));
    expect(rows.map((r) => r.delta)).toEqual(Array.from({ length: 12 }, (_, k) => `-${k + 1}.00`));
  });
});

const redisMissing = await redisForTest('linked-user lookup across processes');

describe.skipIf(redisMissing !== null)('the linked-user lookup with several processes (Redis)', () => {
  it('follows a link, an exclusion and an unlink made in another process', async () => {
    const [a, b] = await twoProcesses({ REDIS_URL: testRedisUrl, REDIS_PREFIX: `t${randomBytes(4).toString('hex')}:` });
    const seenByB: Array<LinkedChatter | null> = [];
    b.app.chat.register({ name: 'spy', order: 1, handle: async (_m, ctx) => void seenByB.push(ctx.linkedUser) });
    const kick = { kickUserId: '7301', kickUsername: 'roamer' };
    const bSees = async () => {
      await b.app.chat.process(chatMessage(b, kick), 'kick-webhook');
      return seenByB.at(-1) ?? null;
    };
    /** B's view once it changed (pub/sub is asynchronous), or the last one after ~3 s. */
    const bSeesEventually = async (ok: (u: LinkedChatter | null) => boolean) => {
      for (let i = 0; i < 60; i++) {
        const seen = await bSees();
        if (ok(seen)) return seen;
        await new Promise((r) => setTimeout(r, 50));
      }
      return bSees();
    };
    expect(await bSees()).toBeNull(); // B has read the links: nobody yet

    // The user links on A with !verify.
    const user = await a.signIn({ name: 'Roamer' });
    const code = (await a.call({ url: '/api/User/link/kick', as: user })).json<{ key: string }>().key;
    await a.app.chat.process(chatMessage(a, { ...kick, content: `!verify ${code}` }), 'kick-webhook');
    expect(await bSeesEventually((u) => u?.id === user.user.id)).toMatchObject({ id: user.user.id, excluded: false });

    const admin = await a.signIn({ role: 'Admin' });
    const excluded = await a.call({
      method: 'POST',
      url: `/api/admin/users/${user.user.id}/excluded`,
      as: admin,
      body: { excluded: true },
    });
    expect(excluded.statusCode).toBe(200);
    expect(await bSeesEventually((u) => u?.excluded === true)).toMatchObject({ id: user.user.id, excluded: true });

    expect((await a.call({ url: '/api/User/unlink?type=kick', as: user })).statusCode).toBe(200);
    expect(await bSeesEventually((u) => u === null)).toBeNull();
  });
});

/**
 * The outgoing Kick chat queue against the Kick simulator (docs/features/kick-chat-queue.md):
 * pacing on an injected clock, 429 with Retry-After, an accepted message never sent again, age
 * drop, both posting modes with their hints, the figures on Admin → Integrations and /metrics,
 * and one sender across processes (run on PostgreSQL: TEST_DATABASE_URL).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { postAsBot } from '../../integrations/kick/bot-chat';
import { ChatQueue, isDailyQuota, type ChatPoster, type ChatQueueSettings } from '../../integrations/kick/chat-queue';
import { KickApiError } from '../../integrations/kick/api';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { systemClock } from '../../lib/clock';
import { rowsOf } from '../../db/rows';
import { buildTestApp, type TestApp } from '../../../test/app';
import { connectKickBot } from '../../../test/kick';
import { linkedChatter, openPrediction, say } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

async function started(env: Record<string, string> = {}) {
  const app = await buildTestApp({ env });
  t = app;
  const sim = app.app.kickSimulator!;
  const admin = await app.signIn({ role: 'Admin' });
  await connectKickBot(app, admin);
  return { app, sim, admin };
}

const announce = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'announce' as const, text: `news ${i}` }));

/** The app's own poster, for queues built beside the app's (other "processes"). */
function appPoster(app: TestApp): ChatPoster {
  const bot = app.app.kickBot!;
  return ({ content, replyTo }) => postAsBot(bot.tokens, bot.api, content, replyTo, { type: 'bot' });
}

describe('outgoing chat queue', () => {
  it('never posts faster than the configured pace: bursts of 3, then one per 1.5 s', async () => {
    const { app, sim } = await started({ KICK_SIMULATOR_CHAT_LIMIT: '1000' });
    await app.app.chatOut.enqueue(...announce(40));
    expect(await app.app.chatOut.pump()).toBe(3); // the burst
    expect(await app.app.chatOut.pump()).toBe(0);
    app.clock.advance(1499);
    expect(await app.app.chatOut.pump()).toBe(0);
    app.clock.advance(1);
    expect(await app.app.chatOut.pump()).toBe(1);
    // Pumped every 100 ms for 30 s: never more than the burst plus one per 1.5 s in any window.
    for (let i = 0; i < 300; i++) {
      app.clock.advance(100);
      await app.app.chatOut.pump();
    }
    const times = sim.chat.map((m) => Date.parse(m.at));
    for (const start of times) {
      const inWindow = times.filter((at) => at >= start && at < start + 15_000).length;
      expect(inWindow).toBeLessThanOrEqual(3 + 10);
    }
    expect(sim.chat.length).toBe(3 + 1 + 20); // 30 s at one per 1.5 s after the first ones
    expect(sim.chat.map((m) => m.content).slice(0, 3)).toEqual(['news 0', 'news 1', 'news 2']);
  });

  it('honours a 429 and its Retry-After: waits, then sends the same message once', async () => {
    const { app, sim } = await started({
      KICK_SIMULATOR_CHAT_LIMIT: '2',
      KICK_SIMULATOR_CHAT_WINDOW_MS: '10000',
      KICK_CHAT_INTERVAL_MS: '10',
      KICK_CHAT_BURST: '5',
    });
    await app.app.chatOut.enqueue(...announce(3));
    expect(await app.app.chatOut.pump()).toBe(2);
    expect(sim.throttled).toBe(1);
    const stats = await app.app.chatOut.stats();
    expect(stats).toMatchObject({ waiting: 1, sent: 2, throttled: 1 });
    expect(stats.pausedUntil?.getTime()).toBe(app.clock.now().getTime() + 10_000);
    app.clock.advance(9_990);
    expect(await app.app.chatOut.pump()).toBe(0);
    expect(sim.throttled).toBe(1); // not even tried while paused
    app.clock.advance(10);
    expect(await app.app.chatOut.pump()).toBe(1);
    expect(sim.chat.map((m) => m.content)).toEqual(['news 0', 'news 1', 'news 2']);
  });

  it("Kick's daily message quota pauses the sender and keeps the queue until the next UTC midnight, trying one line an hour", async () => {
    const app = await buildTestApp({
      env: { KICK_SIMULATOR_CHAT_LIMIT: '1000', KICK_CHAT_INTERVAL_MS: '10', KICK_CHAT_BURST: '5' },
    });
    t = app;
    app.clock.set('2026-03-10T22:30:00Z');
    const sim = app.app.kickSimulator!;
    const admin = await app.signIn({ role: 'Admin' });
    await connectKickBot(app, admin);
    sim.dailyLimit = 2; // Kick's quota, answered by the simulator's real HTTP endpoint
    await app.app.chatOut.enqueue(...announce(5));
    expect(await app.app.chatOut.pump()).toBe(2);
    expect(sim.quotaRefused).toBe(1);
    const stats = await app.app.chatOut.stats();
    // Nothing failed, one by one or at all: the three lines wait.
    expect(stats).toMatchObject({ waiting: 3, sent: 2, failed: 0 });
    expect(stats.quotaUntil?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(stats.pausedUntil?.toISOString()).toBe('2026-03-10T23:30:00.000Z'); // one line tried an hour on
    // Admin → Integrations says so.
    const shown = (await app.call({ url: '/api/admin/integrations', as: admin })).json().kickChat;
    expect(shown).toMatchObject({ waiting: 3, quotaUntil: '2026-03-11T00:00:00.000Z', failed: 0 });
    expect(shown.lastError).toMatch(/^Kick's daily chat-message limit reached: Daily chat message quota exceeded/);

    app.clock.advance(30 * 60_000);
    expect(await app.app.chatOut.pump()).toBe(0);
    expect(sim.quotaRefused).toBe(1); // not even tried while paused
    app.clock.set('2026-03-10T23:30:00Z');
    expect(await app.app.chatOut.pump()).toBe(0); // the hourly try: still over the quota
    expect(sim.quotaRefused).toBe(2);
    expect((await app.app.chatOut.stats()).pausedUntil?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    sim.dailyLimit = 10;
    app.clock.set('2026-03-11T00:00:00Z'); // Kick's new day
    expect(await app.app.chatOut.pump()).toBe(1); // one line first, then the pace
    for (let i = 0; i < 5; i++) {
      app.clock.advance(10);
      await app.app.chatOut.pump();
    }
    expect(sim.chat.map((m) => m.content)).toEqual(['news 0', 'news 1', 'news 2', 'news 3', 'news 4']);
    expect(await app.app.chatOut.stats()).toMatchObject({ waiting: 0, failed: 0, quotaUntil: null });
  });

  it('tells the daily quota from a short rate limit, and a quota refusal from other refusals', () => {
    expect(isDailyQuota(new KickApiError('x', 429, null, 'Daily chat message quota exceeded'))).toBe(true);
    expect(isDailyQuota(new KickApiError('x', 403, null, 'You have reached your daily message limit'))).toBe(true);
    expect(isDailyQuota(new KickApiError('x', 429, 5000, 'Too Many Requests'))).toBe(false);
    expect(isDailyQuota(new KickApiError('x', 429, null, 'Rate limit exceeded'))).toBe(false);
    expect(isDailyQuota(new KickApiError('x', 400, null, 'daily quota'))).toBe(false);
  });

  it('never sends again a message Kick may have accepted (no answer, or a process died mid-post)', async () => {
    const { app, sim } = await started();
    const real = appPoster(app);
    // Kick posts it, and the answer is lost (a timeout).
    const lost: ChatPoster = async (message, mode) => {
      await real(message, mode);
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    const queue = new ChatQueue(app.database, app.clock, app.config.kick.chatQueue, lost);
    await queue.enqueue({ kind: 'announce', text: 'winner: @lucky' });
    await queue.pump();
    await queue.release();
    app.clock.advance(60_000);
    expect(await app.app.chatOut.pump()).toBe(0);
    expect(sim.chat.map((m) => m.content)).toEqual(['winner: @lucky']);

    // A process that marked a message sending and died: the next holder never posts it.
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'half sent' });
    await app.database.db.execute(
      sql`UPDATE chat_out SET state = 'sending', attempt = 'dead' WHERE body = 'half sent'`,
    );
    await app.database.db.execute(sql`UPDATE chat_out_sender SET lease_until = NULL`);
    app.clock.advance(60_000);
    await app.app.chatOut.pump();
    expect(sim.chat.map((m) => m.content)).toEqual(['winner: @lucky']);
    const states = rowsOf<{ body: string; state: string }>(
      await app.database.db.execute(sql`SELECT body, state FROM chat_out ORDER BY id`),
    );
    expect(states).toEqual([
      { body: 'winner: @lucky', state: 'unknown' },
      { body: 'half sent', state: 'unknown' },
    ]);
  });

  it('writes what is queued within the same milliseconds in one insert, in order; a message the database refuses fails only its own caller', async () => {
    const { app } = await started();
    let inserts = 0;
    const database: typeof app.database = Object.assign(Object.create(app.database) as typeof app.database, {
      query: (text: string, params?: unknown[], name?: string) => {
        if (text.startsWith('INSERT INTO chat_out')) inserts += 1;
        return app.database.query(text, params, name);
      },
    });
    const queue = new ChatQueue(database, app.clock, app.config.kick.chatQueue, appPoster(app));
    const bodies = async () =>
      (await app.database.query<{ body: string }>('SELECT body FROM chat_out ORDER BY id')).map((r) => r.body);
    await Promise.all([
      queue.enqueue({ kind: 'announce', text: 'one' }),
      queue.enqueue({ kind: 'announce', text: 'two' }, { kind: 'announce', text: 'three' }),
      queue.enqueue({ kind: 'announce', text: 'four' }),
    ]);
    expect(inserts).toBe(1);
    expect(await bodies()).toEqual(['one', 'two', 'three', 'four']);
    // PostgreSQL text holds no NUL: that group is refused, and the others are written on their own.
    inserts = 0;
    const results = await Promise.allSettled([
      queue.enqueue({ kind: 'announce', text: 'five' }),
      queue.enqueue({ kind: 'announce', text: 'bad \u0000' }),
      queue.enqueue({ kind: 'announce', text: 'six' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(inserts).toBe(4);
    expect(await bodies()).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
  });

  it('drops acknowledgements older than the configured age, never announcements', async () => {
    const { app, sim } = await started({ KICK_CHAT_MAX_AGE_S: '30' });
    await app.app.chatOut.enqueue(
      { kind: 'ack', topic: 'Bets taken', addressee: 'late', item: '5 on 1' },
      { kind: 'personal', addressee: 'late', text: 'not enough points.' },
      { kind: 'announce', text: 'prediction result: option 1 wins' },
    );
    app.clock.advance(30_001);
    await app.app.chatOut.enqueue({ kind: 'ack', topic: 'Bets taken', addressee: 'fresh', item: '7 on 2' });
    await app.app.chatOut.pump();
    expect(sim.chat.map((m) => m.content)).toEqual(['prediction result: option 1 wins', 'Bets taken: @fresh 7 on 2']);
    expect(await app.app.chatOut.stats()).toMatchObject({ dropped: 2, sent: 2, waiting: 0 });
  });

  it('merges waiting bets into one message and counts what it merged', async () => {
    const { app, sim } = await started();
    await app.app.chatOut.enqueue(
      ...Array.from({ length: 5 }, (_, i) => ({
        kind: 'ack' as const,
        topic: 'Bets taken',
        addressee: `b${i}`,
        item: `${i + 1}00 on 1`,
      })),
    );
    expect(await app.app.chatOut.pump()).toBe(1);
    expect(sim.chat.map((m) => m.content)).toEqual([
      'Bets taken: @b0 100 on 1 · @b1 200 on 1 · @b2 300 on 1 · @b3 400 on 1 · @b4 500 on 1',
    ]);
    expect(await app.app.chatOut.stats()).toMatchObject({ sent: 1, merged: 4 });
  });
});

describe('chat commands through the queue', () => {
  it('acknowledges bets taken together in one merged line, and folds one bettor’s refusals', async () => {
    const { app, sim, admin } = await started();
    const a = await linkedChatter(app, '6001', { points: '2000' });
    const b = await linkedChatter(app, '6002', { points: '2000' });
    await openPrediction(app, admin);
    await say(app, a, '!bet 1 500');
    await say(app, b, '!bet 2 1200');
    await say(app, a, '!bet 2 5');
    await say(app, a, '!bet 1 999999');
    await app.app.chatOut.pump();
    expect(sim.chat.map((m) => m.content)).toEqual([
      'Bets taken: @kick6001 500 on 1 · @kick6002 1.2k on 2',
      '@kick6001: you already bet on option 1: one answer per prediction · not enough points (balance: 1.5k)',
    ]);
  });
});

describe('announcements', () => {
  it('announces a prediction result once, alone, even after acknowledgements would have been dropped', async () => {
    const { app, sim, admin } = await started({ KICK_CHAT_MAX_AGE_S: '5' });
    const fan = await linkedChatter(app, '6101', { points: '100' });
    const { id } = await openPrediction(app, admin);
    await say(app, fan, '!bet 1 10');
    const resolve = () =>
      app.call({ method: 'POST', url: `/api/predictions/${id}/resolve`, as: admin, body: { answerId: 1 } });
    expect((await resolve()).statusCode).toBe(200);
    expect((await resolve()).statusCode).toBe(409);
    app.clock.advance(60_000);
    await app.app.chatOut.pump();
    expect(sim.chat.map((m) => m.content)).toEqual([expect.stringMatching(/^Prediction result: ".+" wins — /)]);
    expect(await app.app.chatOut.stats()).toMatchObject({ dropped: 1, sent: 1 });
  });
});

describe('posting modes', () => {
  it("posts as type bot with the streamer's account, and as type user into the broadcaster's channel with a bot account", async () => {
    const { app, sim, admin } = await started();
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'as the streamer' });
    await app.app.chatOut.pump();

    await connectKickBot(app, admin, 'vexbot', 'kick-bot-account');
    const set = await app.call({
      method: 'PUT',
      url: '/api/admin/integrations/kick-chat/mode',
      as: admin,
      body: { mode: 'bot-account' },
    });
    expect(set.json()).toEqual({ message: 'Bot messages now post with the bot account.' });
    app.clock.advance(5_000);
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'as the bot' });
    await app.app.chatOut.pump();
    const streamer = simulatedKickUserId('vex');
    expect(sim.chat).toMatchObject([
      { type: 'bot', senderUsername: 'vex', channelUserId: streamer, content: 'as the streamer' },
      { type: 'user', senderUsername: 'vexbot', channelUserId: streamer, content: 'as the bot' },
    ]);
    const overview = await app.call({ url: '/api/admin/integrations', as: admin });
    expect(overview.json().kickChat).toMatchObject({
      mode: 'bot-account',
      sent: 2,
      botAccount: { connected: true, kickUsername: 'vexbot' },
      intervalMs: 1500,
      burst: 3,
    });
  });

  it('suggests the bot account after a 500 on type bot, and the bot setting after "channel not found"', async () => {
    const { app, sim, admin } = await started();
    sim.failBotType = true;
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'one' });
    await app.app.chatOut.pump();
    const hint = async () => (await app.call({ url: '/api/admin/integrations', as: admin })).json().kickChat;
    expect(await hint()).toMatchObject({ hint: 'try-bot-account', failed: 1, lastError: expect.stringMatching(/500/) });
    sim.failBotType = false;
    sim.channelMissing = true;
    app.clock.advance(5_000);
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'two' });
    await app.app.chatOut.pump();
    expect(await hint()).toMatchObject({ hint: 'enable-bot-setting', failed: 2 });
    sim.channelMissing = false;
    app.clock.advance(5_000);
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'three' });
    await app.app.chatOut.pump();
    expect(await hint()).toMatchObject({ hint: null, sent: 1, lastError: null });
  });

  it("refuses to post as type bot when the streamer's account is not the broadcaster", async () => {
    const app = await buildTestApp({ env: { KICK_BROADCASTER_USER_ID: '999' } });
    t = app;
    const admin = await app.signIn({ role: 'Admin' });
    await connectKickBot(app, admin, 'someone_else');
    await app.app.chatOut.enqueue({ kind: 'announce', text: 'hello' });
    await app.app.chatOut.pump();
    expect(app.app.kickSimulator!.chat).toEqual([]);
    expect((await app.call({ url: '/api/admin/integrations', as: admin })).json().kickChat).toMatchObject({
      hint: 'wrong-account',
      failed: 1,
    });
  });

  it('changes mode for admins only, with the field named on bad input', async () => {
    const app = await buildTestApp();
    t = app;
    const admin = await app.signIn({ role: 'Admin' });
    const user = await app.signIn();
    const url = '/api/admin/integrations/kick-chat/mode';
    expect((await app.call({ method: 'PUT', url, body: { mode: 'streamer' } })).statusCode).toBe(401);
    expect((await app.call({ method: 'PUT', url, as: user, body: { mode: 'streamer' } })).statusCode).toBe(403);
    const bad = await app.call({ method: 'PUT', url, as: admin, body: { mode: 'robot' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/mode/);
    expect((await app.app.chatOut.stats()).postingMode).toBe('streamer');
    for (const [method, path] of [
      ['POST', '/api/admin/integrations/kick-bot-account/connect'],
      ['DELETE', '/api/admin/integrations/kick-bot-account'],
    ] as const) {
      expect((await app.call({ method, url: path, body: {} })).statusCode).toBe(401);
      expect((await app.call({ method, url: path, as: user, body: {} })).statusCode).toBe(403);
    }
    expect(
      (await app.call({ method: 'DELETE', url: '/api/admin/integrations/kick-bot-account', as: admin })).statusCode,
    ).toBe(404);

    expect((await app.call({ method: 'PUT', url, as: admin, body: { mode: 'bot-account' } })).statusCode).toBe(200);
    const audit = rowsOf<{ action: string; before: unknown; after: unknown }>(
      await app.database.db.execute(sql`SELECT action, before, after FROM audit_log WHERE action = 'kick.chat.mode'`),
    );
    expect(audit).toEqual([{ action: 'kick.chat.mode', before: { mode: 'streamer' }, after: { mode: 'bot-account' } }]);
  });

  it('shows the queue in /metrics', async () => {
    const app = await buildTestApp({ env: { METRICS_TOKEN: 'm'.repeat(32) } });
    t = app;
    await app.app.chatOut.enqueue(...announce(2));
    const res = await app.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${'m'.repeat(32)}` } });
    expect(res.body).toMatch(/^kickback_chat_out_waiting 2$/m);
    for (const name of ['sent', 'merged', 'dropped', 'throttled', 'failed']) {
      expect(res.body).toMatch(new RegExp(`^kickback_chat_out_${name} 0$`, 'm'));
    }
  });
});

describe('one sender across processes (on PostgreSQL when TEST_DATABASE_URL is set)', () => {
  it('two queues on one database never post at once, and post each message once', async () => {
    const { app, sim } = await started({ KICK_SIMULATOR_CHAT_LIMIT: '1000' });
    sim.chatDelayMs = 25; // a post takes a while: two senders at once would overlap
    const settings: ChatQueueSettings = { intervalMs: 5, burst: 1, maxAgeMs: 60_000 };
    const queues = [0, 1].map(() => new ChatQueue(app.database, systemClock, settings, appPoster(app)));
    await queues[0]!.enqueue(...announce(16));
    const deadline = Date.now() + 20_000;
    const run = async (q: ChatQueue) => {
      while (sim.chat.length < 16 && Date.now() < deadline) {
        await q.pump();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    await Promise.all(queues.map(run));
    expect(sim.maxInFlight).toBe(1);
    expect(sim.chat.map((m) => m.content).sort()).toEqual(
      announce(16)
        .map((a) => a.text)
        .sort(),
    );
  });
});

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { chatMessages, kickChatActivity, kickWebhookDeliveries } from '../../db/schema/chat';
import { buildTestApp, LogCapture, type TestApp } from '../../../test/app';
import { chatMessage, linkKick } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { runShellCommand } from '../shell/commands';
import { chatArgv } from './shell';
import { findChatActivity, isSubscribedNow } from './activity';
import { pruneChatLog } from './log';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatHandler, ChatSource } from './service';
import { describeRace } from '../../../test/race-database';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const message = (overrides: Partial<ChatMessage> = {}) => chatMessage(t, overrides);

function recorder(name: string, answer: boolean | 'throw' = false, order = 0) {
  const seen: string[] = [];
  const handler: ChatHandler = {
    name,
    order,
    async handle(m) {
      seen.push(m.messageId);
      if (answer === 'throw') throw new Error(`${name} broke`);
      return answer;
    },
  };
  return { handler, seen };
}

beforeAll(warmUp, WARM_UP_TIMEOUT);

/** Registers the handlers (before the built-in ones) and runs a message through the app's pipeline. */
function processChatMessage(handlers: ChatHandler[], m: ChatMessage, source: ChatSource) {
  for (const h of handlers) {
    if (registered.has(h)) continue;
    registered.add(h);
    t.app.chat.register(h);
  }
  return t.app.chat.process(m, source);
}
const registered = new WeakSet<ChatHandler>();

describe('the chat pipeline', () => {
  it('runs the handlers in order until one takes the message; a failing handler does not stop the others', async () => {
    const logs = new LogCapture();
    t = await buildTestApp({ logs });
    const first = recorder('first', false, 1);
    const broken = recorder('broken', 'throw', 2);
    const taker = recorder('taker', true, 3);
    const never = recorder('never', true, 4);
    const m = message();
    const result = await processChatMessage(
      [first.handler, broken.handler, taker.handler, never.handler],
      m,
      'simulator',
    );
    expect(result).toEqual({
      duplicate: false,
      inFlight: false,
      handledBy: 'taker',
      linkedUserId: null,
      errors: ['broken'],
    });
    expect([first.seen, broken.seen, taker.seen, never.seen].map((s) => s.length)).toEqual([1, 1, 1, 0]);
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.messageId, m.messageId));
    expect(row).toMatchObject({ handledBy: 'taker', errors: ['broken'], source: 'simulator' });
    expect(logs.lines.find((l) => l.msg === 'chat handler failed')).toMatchObject({ handler: 'broken' });
  });

  it("runs one sender's messages one at a time in arrival order, without holding other senders", async () => {
    t = await buildTestApp();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];
    const slowFirst: ChatHandler = {
      name: 'slow-first',
      order: 0,
      async handle(m) {
        events.push(`start ${m.content}`);
        if (m.content === 'first') await gate;
        events.push(`end ${m.content}`);
      },
    };
    const first = processChatMessage([slowFirst], message({ kickUserId: '700', content: 'first' }), 'kick-webhook');
    const second = processChatMessage([slowFirst], message({ kickUserId: '700', content: 'second' }), 'kick-webhook');
    // Another sender's message, sent after both, is handled while the first one is still running.
    await processChatMessage([slowFirst], message({ kickUserId: '701', content: 'other' }), 'kick-webhook');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...events].sort()).toEqual(['end other', 'start first', 'start other']);
    release();
    await Promise.all([first, second]);
    expect(events.filter((e) => !e.endsWith('other'))).toEqual([
      'start first',
      'end first',
      'start second',
      'end second',
    ]);
  });

  it('gives handlers the linked site user', async () => {
    t = await buildTestApp();
    const user = await t.signIn({ name: 'Linked' });
    await linkKick(t, user, { kickId: '4242', kickUsername: 'linkedkick' });
    let seenUser: string | null | undefined;
    const spy: ChatHandler = {
      name: 'spy',
      order: 0,
      async handle(_m, ctx) {
        seenUser = ctx.linkedUser?.username ?? null;
      },
    };
    await processChatMessage([spy], message({ kickUserId: '4242', kickUsername: 'linkedkick' }), 'kick-webhook');
    expect(seenUser).toBe('Linked');
    await processChatMessage([spy], message({ kickUserId: '5353' }), 'kick-webhook');
    expect(seenUser).toBeNull();
  });

  it("records each sender's last activity; name, colour and badge follow the newest message", async () => {
    t = await buildTestApp();
    const t1 = t.clock.now();
    await t.app.chat.process(
      message({ isSubscriber: true, badges: ['subscriber'], kickUsername: 'OldName' }),
      'kick-webhook',
    );
    t.clock.advance(60_000);
    const t2 = t.clock.now();
    await t.app.chat.process(
      message({ isSubscriber: false, kickUsername: 'NewName', color: '#1475E1' }),
      'kick-webhook',
    );
    // A message this server saw earlier in time (another process, a slow delivery) does not win.
    t.clock.set(t1);
    await t.app.chat.process(message({ isSubscriber: true, kickUsername: 'Stale' }), 'kick-webhook');
    const row = await findChatActivity(t.app.db, '777');
    expect(row).toMatchObject({ kickUsername: 'NewName', color: '#1475E1', isSubscriber: false, lastMessageAt: t2 });
    expect(isSubscribedNow(row!, t2)).toBe(false);
    expect(isSubscribedNow({ isSubscriber: false, subscribedUntil: new Date(t2.getTime() + 1) }, t2)).toBe(true);
    expect(isSubscribedNow({ isSubscriber: true, subscribedUntil: null }, t2)).toBe(true);
  });

  it('prunes messages after 7 days and webhook ids after a day', async () => {
    t = await buildTestApp();
    await t.app.chat.process(message(), 'kick-webhook');
    await t.database.db
      .insert(kickWebhookDeliveries)
      .values({ messageId: 'old', eventType: 'x', receivedAt: t.clock.now() });
    await pruneChatLog(t.app.db, new Date(t.clock.now().getTime() + 2 * 86_400_000));
    expect((await t.database.db.select({ n: count() }).from(kickWebhookDeliveries))[0]?.n).toBe(0);
    expect((await t.database.db.select({ n: count() }).from(chatMessages))[0]?.n).toBe(1);
    await pruneChatLog(t.app.db, new Date(t.clock.now().getTime() + 8 * 86_400_000));
    expect((await t.database.db.select({ n: count() }).from(chatMessages))[0]?.n).toBe(0);
    expect((await t.database.db.select({ n: count() }).from(kickChatActivity))[0]?.n).toBe(1);
  });
});

describeRace('chat: one message id delivered several times at once', () => {
  it('processes each message id once, even when it arrives several times at once', async () => {
    t = await buildTestApp();
    const { handler, seen } = recorder('count');
    const m = message();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => processChatMessage([handler], m, 'kick-webhook')),
    );
    expect(seen).toEqual([m.messageId]);
    expect(results.filter((r) => r.duplicate)).toHaveLength(4);
    const [row] = await t.database.db.select({ n: count() }).from(chatMessages);
    expect(row?.n).toBe(1);
  });
});

describe('registering chat handlers', () => {
  it('runs what features registered by order, not by when they registered, around the built-in ones', async () => {
    t = await buildTestApp();
    const early = recorder('early', false, 50);
    const between = recorder('between', false, 500);
    const last = recorder('last', false, 950);
    // Registered last-first: the pipeline must still run them by their order.
    for (const r of [last, between, early]) t.app.chat.register(r.handler);
    const user = await t.signIn({ name: 'Chatty' });
    await linkKick(t, user, { kickId: '777', kickUsername: 'chatter' });

    const command = message({ content: '!verify NOPE00' });
    const taken = await t.app.chat.process(command, 'kick-webhook');
    expect(taken.handledBy).toBe('verify');
    expect([early.seen, between.seen, last.seen]).toEqual([[command.messageId], [], []]);

    const chatter = message({ content: 'hello' });
    expect((await t.app.chat.process(chatter, 'kick-webhook')).handledBy).toBeNull();
    expect([early.seen, between.seen, last.seen].map((s) => s.at(-1))).toEqual([
      chatter.messageId,
      chatter.messageId,
      chatter.messageId,
    ]);
  });
});

// Chat replies (posted as the connected Kick bot) are tested in modules/integrations/kick-bot.test.ts.

describe('admin Chat Simulator API', () => {
  it('posts as any Kick user through the signed webhook and lists what the pipeline did', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/chat/simulate',
      as: admin,
      body: { username: 'SubGuy', subscriber: true, content: '  !verify NOPE00  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 200,
      entry: {
        source: 'simulator',
        kickUsername: 'SubGuy',
        isSubscriber: true,
        content: '!verify NOPE00',
        handledBy: 'verify',
        replies: [expect.stringMatching(/not valid/)],
        linkedUser: null,
      },
    });
    const log = await t.call({ url: '/api/admin/chat/messages', as: admin });
    expect(log.json()).toMatchObject({
      simulator: true,
      messages: [{ kickUsername: 'SubGuy', handledBy: 'verify' }],
      chatters: [{ kickUsername: 'SubGuy', isSubscriber: true }],
    });
  });

  it('is admin only and validates its input', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const user = await t.signIn();
    expect((await t.call({ url: '/api/admin/chat/messages' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/chat/messages', as: user })).statusCode).toBe(403);
    const simulate = (body: unknown, as = admin) =>
      t.call({ method: 'POST', url: '/api/admin/chat/simulate', as, body });
    expect((await simulate({ username: 'ok_name', content: 'hi' }, user)).statusCode).toBe(403);
    const badName = await simulate({ username: 'no spaces', content: 'hi' });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toMatch(/username/);
    expect((await simulate({ username: 'ok_name', content: '   ' })).statusCode).toBe(400);
    expect((await simulate({ username: 'ok_name', content: 'x'.repeat(501) })).statusCode).toBe(400);
  });

  it('sends the stream live or offline through the signed webhook and shows the state', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const user = await t.signIn();
    const live = (body: unknown, as = admin) => t.call({ method: 'POST', url: '/api/admin/chat/live', as, body });
    expect((await t.call({ url: '/api/admin/chat/messages', as: admin })).json().live).toEqual({
      isLive: null,
      changedAt: null,
    });
    const on = await live({ isLive: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ status: 200, live: { isLive: true, changedAt: expect.stringMatching(/^\d{4}-/) } });
    expect(await t.app.chat.isLive()).toBe(true);
    expect((await t.call({ url: '/api/admin/chat/messages', as: admin })).json().live.isLive).toBe(true);
    const alone = await t.call({ url: '/api/admin/chat/live', as: admin });
    expect(alone.statusCode).toBe(200);
    expect(alone.json()).toEqual(on.json().live);
    expect((await t.call({ url: '/api/admin/chat/live', as: user })).statusCode).toBe(403);
    t.clock.advance(1000);
    expect((await live({ isLive: false })).json().live.isLive).toBe(false);

    expect((await live({ isLive: true }, user)).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/api/admin/chat/live', body: { isLive: true } })).statusCode).toBe(
      401,
    );
    const bad = await live({ isLive: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/isLive/);
    expect(await t.app.chat.isLive()).toBe(false);
  });

  it('says so when the simulator is off', async () => {
    t = await buildTestApp({ env: { KICK_CHAT_SIMULATOR: '0' } });
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/chat/simulate',
      as: admin,
      body: { username: 'abc', content: 'hi' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'The chat simulator is off on this server.' });
    expect((await t.call({ url: '/api/admin/chat/messages', as: admin })).json().simulator).toBe(false);
    const live = await t.call({ method: 'POST', url: '/api/admin/chat/live', as: admin, body: { isLive: true } });
    expect(live.statusCode).toBe(409);
  });
});

describe('npm run chat', () => {
  it('parses --user, --sub and the words of the message, and prints what the pipeline did', async () => {
    t = await buildTestApp();
    expect(chatArgv(['--user', 'vexfan', '--sub', '!verify', 'ABC123'])).toEqual({
      user: 'vexfan',
      sub: true,
      text: '!verify ABC123',
    });
    expect(chatArgv(['--user=vexfan', 'hello there'])).toEqual({ user: 'vexfan', sub: false, text: 'hello there' });
    const out = await runShellCommand(
      { db: t.app.db, app: t.app },
      'chat',
      chatArgv(['--user', 'vexfan', '--sub', '!verify', 'ABC123']),
    );
    expect(out).toBe(
      [
        'vexfan (subscriber): !verify ABC123',
        '  no linked site user',
        '  handled by: verify',
        '  reply: @vexfan that code is not valid or has expired. Get a new one from your profile on Kickback.',
      ].join('\n'),
    );
    await expect(runShellCommand({ db: t.app.db, app: t.app }, 'chat', chatArgv(['hello']))).rejects.toThrow(
      /Invalid arguments/,
    );
  });
});

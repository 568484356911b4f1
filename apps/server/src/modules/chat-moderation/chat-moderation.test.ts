/**
 * Chat moderation filters through the real app: Admin → Moderation's settings (a dangerous pattern
 * refused with its reason), and Kick chat through the signed webhook — a link from a viewer deleted
 * at Kick (the simulator) and logged, a moderator's left alone, `!permit`, a first-offence warning,
 * a timeout with its minutes, a deleted message reaching no later handler — and one action per
 * message across two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_MODERATION_SETTINGS, type ModerationSettings } from '@kickback/common/http/chat-moderation';
import { chatMessages } from '../../db/schema/chat';
import { chatModerationLog } from '../../db/schema/chat-moderation';
import { ModerationLogWriter } from './log';
import { appsClosedAfterEach, buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { chatMessage, chatPayload, connectKickBot, postDelivery, signedDelivery } from '../../../test/kick';
import { describeRace } from '../../../test/race-database';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
let admin: TestUser;
let n = 0;

beforeAll(async () => {
  await warmUp();
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
}, WARM_UP_TIMEOUT);
afterAll(async () => {
  await t.close();
});

function settings(patch: { [K in keyof ModerationSettings]?: Partial<ModerationSettings[K]> }): ModerationSettings {
  const s = structuredClone(DEFAULT_MODERATION_SETTINGS);
  for (const [k, v] of Object.entries(patch)) Object.assign(s[k as keyof ModerationSettings], v);
  return s;
}
const save = (body: ModerationSettings, as: TestUser = admin) =>
  t.call({ method: 'PUT', url: '/api/admin/moderation', as, body });

async function say(username: string, content: string, badges: string[] = []) {
  const payload = chatPayload(t, username, content, { badges });
  const res = await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }));
  expect(res.statusCode, res.body).toBe(200);
  return String(payload.message_id);
}
const logOf = async (messageId: string) =>
  (await t.database.db.select().from(chatModerationLog).where(eq(chatModerationLog.messageId, messageId)))[0];
const deleted = (messageId: string) => t.app.kickSimulator!.deletions.some((d) => d.messageId === messageId);
const user = () => `viewer${++n}`;

describe('Admin → Moderation', () => {
  it('moderators read and save the filters; viewers may not; a dangerous pattern is refused by name', async () => {
    const mod = await t.signIn({ role: 'Moderator', name: 'Mod' });
    const viewer = await t.signIn({ role: 'User', name: 'Viewer' });
    expect((await t.call({ url: '/api/admin/moderation', as: viewer })).statusCode).toBe(403);
    const read = await t.call({ url: '/api/admin/moderation', as: mod });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ settings: ModerationSettings }>().settings.links.enabled).toBe(false);

    const bad = await save(settings({ regex: { enabled: true, patterns: ['ok', '(a+)+$'] } }), mod);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/"\(a\+\)\+\$" is refused: nested quantifiers/);
    const backref = await save(settings({ regex: { enabled: true, patterns: ['(x)\\1'] } }), mod);
    expect(backref.json<{ message: string }>().message).toMatch(/backreference/);

    const ok = await save(settings({ regex: { enabled: false, patterns: ['b+a+d+'] } }), mod);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(t.app.chatModeration.filters().settings.regex.patterns).toEqual(['b+a+d+']);
    await save(DEFAULT_MODERATION_SETTINGS);
  });
});

describe('moderating Kick chat', () => {
  beforeAll(async () => {
    expect((await save(settings({ links: { enabled: true } }))).statusCode).toBe(200);
    // Connected while a filter is on: the consent asks for the moderation scopes.
    await connectKickBot(t, admin);
    const view = await t.call({ url: '/api/admin/moderation', as: admin });
    expect(view.json<{ missingScopes: string[]; botConnected: boolean }>()).toMatchObject({
      missingScopes: [],
      botConnected: true,
    });
  });

  it('deletes a viewer’s link at Kick and logs it; a moderator’s and an allowed domain’s stay', async () => {
    const link = await say(user(), 'free skins at scam.gg');
    expect(deleted(link)).toBe(true);
    expect(await logOf(link)).toMatchObject({
      rule: 'links',
      action: 'delete',
      outcome: 'done',
      kickStatus: 204,
      content: 'free skins at scam.gg',
    });
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.messageId, link));
    expect(row?.handledBy).toBe('moderation'); // no later handler (commands, chat points) saw it

    const fromMod = await say(user(), 'rules at scam.gg', ['moderator']);
    const allowed = await say(user(), 'clips at kick.com/vex');
    for (const id of [fromMod, allowed]) {
      expect(deleted(id)).toBe(false);
      expect(await logOf(id)).toBeUndefined();
    }
    const log = await t.call({ url: '/api/admin/moderation/log', as: admin });
    expect(log.json<{ items: Array<{ messageId: string }> }>().items[0]?.messageId).toBe(link);
  });

  it('!permit from a moderator lets one link through, once', async () => {
    const who = user();
    await say('modmin', `!permit ${who}`, ['moderator']);
    const first = await say(who, 'my clip: clips.example.com/1');
    const second = await say(who, 'and clips.example.com/2');
    expect(deleted(first)).toBe(false);
    expect(deleted(second)).toBe(true);
    // A viewer cannot permit.
    const other = user();
    await say(user(), `!permit ${other}`);
    expect(deleted(await say(other, 'spam.io'))).toBe(true);
  });

  it('a first offence is warned in chat instead, the next one acted on; a timeout carries its minutes', async () => {
    await save(settings({ caps: { enabled: true, warnFirst: true, action: 'timeout', timeoutMinutes: 5 } }));
    const who = user();
    const first = await say(who, 'WHY IS EVERYONE SO QUIET');
    expect(await logOf(first)).toMatchObject({ action: 'warn', outcome: 'done' });
    expect(deleted(first)).toBe(false);
    const second = await say(who, 'HELLO HELLO HELLO CHAT');
    expect(await logOf(second)).toMatchObject({ action: 'timeout', timeoutMinutes: 5, outcome: 'done' });
    expect(deleted(second)).toBe(true);
    expect(t.app.kickSimulator!.bans.at(-1)).toMatchObject({
      durationMinutes: 5,
      reason: 'Chat filter: Capital letters',
    });
    await save(settings({ links: { enabled: true } }));
  });

  it('claims and outcomes of messages judged at once share statements; one message twice is acted on once', async () => {
    const messages = Array.from({ length: 8 }, (_, i) =>
      chatMessage(t, { content: `batch${i}.gg`, kickUsername: user() }),
    );
    const before = t.app.chatModeration.logStatements();
    // A rule no permit excuses: each call claims in the tick it starts, so the 8 claims share one
    // statement; the outcomes follow Kick's answers, together when they come together. One
    // statement per row would be 16.
    const verdict0 = {
      rule: 'bannedWords',
      action: 'delete',
      timeoutMinutes: 10,
      warnFirst: false,
      permitable: false,
    } as const;
    await Promise.all(messages.map((m) => t.app.chatModeration.moderate(m, verdict0)));
    expect(t.app.chatModeration.logStatements() - before).toBeLessThanOrEqual(9);
    for (const m of messages) {
      expect(deleted(m.messageId)).toBe(true);
      expect(await logOf(m.messageId)).toMatchObject({ outcome: 'done', kickStatus: 204 });
    }
    // The same message claimed twice in one statement: the first row holds the claim, the second none.
    const writer = new ModerationLogWriter(t.database);
    const claim = {
      messageId: `same-${n}`,
      kickUserId: '1',
      kickUsername: 'same',
      rule: 'links' as const,
      content: 'same.gg',
      action: 'delete' as const,
      timeoutMinutes: null,
      at: t.clock.now(),
    };
    const [held, second] = await Promise.all([writer.claim(claim), writer.claim(claim)]);
    expect(writer.batches).toBe(1);
    expect(held).toEqual(expect.any(Number));
    expect(second).toBeNull();
    // Outcomes of the same moment: one statement for all.
    const ids = await Promise.all([1, 2, 3].map((k) => writer.claim({ ...claim, messageId: `same-${n}-${k}` })));
    await Promise.all(
      ids.map((id) =>
        writer.finish(id!, { outcome: 'failed', kickStatus: null, kickAnswer: 'the Kick bot is not connected' }),
      ),
    );
    expect(writer.batches).toBe(3);
    for (const k of [1, 2, 3]) {
      expect(await logOf(`same-${n}-${k}`)).toMatchObject({
        outcome: 'failed',
        kickAnswer: 'the Kick bot is not connected',
      });
    }
    // Through the handler's path too: one deletion at Kick, one row.
    const twice = chatMessage(t, { content: 'twice.gg', kickUsername: user() });
    const verdict = t.app.chatModeration.filters().verdict(twice, 0)!;
    const calls = t.app.kickSimulator!.deletions.length;
    await Promise.all([t.app.chatModeration.moderate(twice, verdict), t.app.chatModeration.moderate(twice, verdict)]);
    expect(t.app.kickSimulator!.deletions.length - calls).toBe(1);
    expect(
      await t.database.db.select().from(chatModerationLog).where(eq(chatModerationLog.messageId, twice.messageId)),
    ).toHaveLength(1);
  });

  it('a log row the database refuses fails alone: the rest of its statement is written one by one', async () => {
    // A long wait, so the rows below share one statement whatever the machine's pace.
    const tag = user();
    const writer = new ModerationLogWriter(t.database, { delayMs: 50 });
    const claim = (k: string, content: string) => ({
      messageId: `refused-${tag}-${k}`,
      kickUserId: '1',
      kickUsername: 'refused',
      rule: 'bannedWords' as const,
      content,
      action: 'delete' as const,
      timeoutMinutes: null,
      at: t.clock.now(),
    });
    const earlier = await writer.claim(claim('earlier', 'fine'));
    const statements = writer.batches;
    // A lone surrogate, past the sources' cleaning: PostgreSQL refuses this content.
    const results = await Promise.allSettled([
      writer.claim(claim('a', 'fine a')),
      writer.claim(claim('bad', 'raw \uD800')),
      writer.finish(earlier!, { outcome: 'done', kickStatus: 204, kickAnswer: 'deleted' }),
      writer.claim(claim('b', 'fine b')),
    ]);
    expect(writer.batches - statements).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(results[0]).toMatchObject({ value: expect.any(Number) });
    expect(results[3]).toMatchObject({ value: expect.any(Number) });
    expect(await logOf(`refused-${tag}-a`)).toMatchObject({ content: 'fine a' });
    expect(await logOf(`refused-${tag}-b`)).toMatchObject({ content: 'fine b' });
    expect(await logOf(`refused-${tag}-bad`)).toBeUndefined();
    expect(await logOf(`refused-${tag}-earlier`)).toMatchObject({ outcome: 'done', kickAnswer: 'deleted' });
  });

  it('Kick’s refusal is logged with its answer', async () => {
    // The same message deleted twice: Kick answers 404.
    const id = await say(user(), 'x.com/spam');
    t.app.kickSimulator!.deletions.length = 0;
    t.app.kickSimulator!.deletions.push({ messageId: 'other', byUsername: 'vex', at: '' });
    const again = chatMessage(t, { content: 'x.com/spam', kickUsername: user() });
    t.app.kickSimulator!.deletions.push({ messageId: again.messageId, byUsername: 'vex', at: '' });
    const verdict = t.app.chatModeration.filters().verdict(again, t.clock.now().getTime())!;
    await t.app.chatModeration.moderate(again, verdict);
    expect(await logOf(again.messageId)).toMatchObject({ outcome: 'failed', kickStatus: 404 });
    expect((await logOf(again.messageId))?.kickAnswer).toMatch(/Message not found/);
    expect(await logOf(id)).toMatchObject({ outcome: 'done' });
  });
});

describeRace('one moderation action per message across two processes', () => {
  const apps = appsClosedAfterEach();

  it('two processes judging the same message log and act once', async () => {
    const [a, b] = await apps.twoProcesses();
    const host = await a.signIn({ role: 'Admin', name: 'Host' });
    const res = await a.call({
      method: 'PUT',
      url: '/api/admin/moderation',
      as: host,
      body: settings({ links: { enabled: true } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    await b.app.chatModeration.refresh();
    await connectKickBot(a, host);
    // Each test app has its own Kick simulator (a token of one is unknown to the other): count
    // the calls that reach Kick's API from either process.
    const asked: string[] = [];
    for (const x of [a, b]) {
      x.app.kickBot!.api.deleteChatMessage = async (_token, messageId) => {
        asked.push(messageId);
      };
    }
    for (let i = 0; i < 5; i++) {
      const message = chatMessage(a, { content: `spam.io/${i}`, kickUsername: `racer${i}` });
      const verdict = a.app.chatModeration.filters().verdict(message, a.clock.now().getTime())!;
      await Promise.all([
        a.app.chatModeration.moderate(message, verdict),
        b.app.chatModeration.moderate(message, verdict),
      ]);
      const rows = await a.database.db
        .select()
        .from(chatModerationLog)
        .where(eq(chatModerationLog.messageId, message.messageId));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ outcome: 'done' });
      expect(asked.filter((id) => id === message.messageId)).toHaveLength(1);
    }
  });
});

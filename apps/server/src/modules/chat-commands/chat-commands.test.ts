/**
 * Custom commands and timers (docs/features/custom-commands.md) through the real chat pipeline:
 * templates checked when saved and filled in chat, the per-user and global cooldowns, who may use
 * a command (Kick badges), live-only, the points cost through the ledger (refused with the reason
 * when short), aliases of built-ins, and timers that post only after their chat lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { simulatedLivestreamStatus } from '../../integrations/kick/simulator';
import { rowsOf } from '../../db/rows';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { chatMessage, postDelivery, signedDelivery } from '../../../test/kick';
import { ledgerMismatches } from '../../../test/economy';
import { linkedChatter, repliesTo } from '../../../test/predictions';
import { timerRound } from './timers';

let t: TestApp;
let admin: TestUser;
let moderator: TestUser;
let kick = 9100;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  moderator = await t.signIn({ role: 'Moderator', name: 'Mod' });
});
afterAll(async () => {
  await t.close();
});

const base = {
  aliases: [] as string[],
  userCooldownSeconds: 0,
  globalCooldownSeconds: 0,
  permission: 'everyone',
  liveOnly: false,
  cost: 0,
  enabled: true,
};

async function create(body: Record<string, unknown>, as: TestUser = moderator) {
  const res = await t.call({ method: 'POST', url: '/api/admin/commands', as, body: { ...base, ...body } });
  return { status: res.statusCode, body: res.json<Record<string, unknown> & { message?: string; id: string }>() };
}

async function say(content: string, over: Partial<ChatMessage> = {}): Promise<string[]> {
  const message = chatMessage(t, { kickUserId: String(++kick), kickUsername: `kick${kick}`, content, ...over });
  await t.app.chat.process(message, 'simulator');
  return repliesTo(t, message.messageId);
}

async function stream(isLive: boolean) {
  const payload = simulatedLivestreamStatus({ userId: '1000001', username: 'vex' }, isLive, t.clock.now());
  const res = await postDelivery(t, signedDelivery(payload, { type: 'livestream.status.updated', at: t.clock.now() }));
  expect(res.statusCode).toBe(200);
}

describe('saving a command', () => {
  it('names the unknown variables in the 400 and saves nothing', async () => {
    const res = await create({ name: '!bad', response: 'hi {user} {nope} {balanse} {random:1-6}' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Unknown variables: \{nope\}, \{balanse\}/);
    const list = await t.call({ method: 'GET', url: '/api/admin/commands', as: moderator });
    expect(list.json<{ commands: Array<{ name: string }> }>().commands.map((c) => c.name)).not.toContain('bad');
  });

  it('checks arguments: a site, a page, a range', async () => {
    expect((await create({ name: 'r1', response: '{rank:nowhere}' })).body.message).toMatch(/unknown site/);
    expect((await create({ name: 'r2', response: '{link:secret}' })).body.message).toMatch(/unknown page/);
    expect((await create({ name: 'r3', response: '{random:9-1}' })).body.message).toMatch(/low-high/);
    expect((await create({ name: 'r4', response: '{rank}' })).body.message).toMatch(/needs an argument/);
  });

  it('refuses a word another command, alias or built-in has (409), and a viewer (403)', async () => {
    expect((await create({ name: 'discord', aliases: ['dc'], response: 'join us' })).status).toBe(200);
    expect((await create({ name: 'dc', response: 'x' })).status).toBe(409);
    expect((await create({ name: 'other', aliases: ['discord'], response: 'x' })).status).toBe(409);
    expect((await create({ name: 'bet', response: 'x' })).status).toBe(409);
    const viewer = await t.signIn({ name: 'Viewer' });
    expect((await create({ name: 'mine', response: 'x' }, viewer)).status).toBe(403);
  });

  it('previews a template with sample values', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/commands/preview',
      as: moderator,
      body: { response: '{user} hugs {target} ({count}) {link:store}' },
    });
    expect(res.json()).toEqual({ text: `viewer hugs someone (42) ${t.config.publicUrl}/store`, problems: [] });
  });
});

describe('in chat', () => {
  it('answers with its variables filled, by name or alias, and counts its uses', async () => {
    await create({ name: 'hug', aliases: ['cuddle'], response: '{user} hugs {target} (hug #{count}) d{random:1-6}' });
    const [first] = await say('!hug @friend');
    expect(first).toMatch(/^@kick\d+ kick\d+ hugs friend \(hug #1\) d[1-6]$/);
    const [second] = await say('!CUDDLE');
    expect(second).toMatch(/hugs kick\d+ \(hug #2\)/);
    expect(await say('!hugs')).toEqual([]);
  });

  it('keeps the global cooldown: one answer per window, whoever asks', async () => {
    await create({ name: 'gcd', response: 'once', globalCooldownSeconds: 30 });
    expect(await say('!gcd')).toHaveLength(1);
    expect(await say('!gcd')).toEqual([]);
    t.clock.advance(31_000);
    expect(await say('!gcd')).toHaveLength(1);
  });

  it('keeps the per-user cooldown: another caller is answered', async () => {
    await create({ name: 'ucd', response: 'yours', userCooldownSeconds: 60 });
    const me = { kickUserId: '555', kickUsername: 'same' };
    expect(await say('!ucd', me)).toHaveLength(1);
    expect(await say('!ucd', me)).toEqual([]);
    expect(await say('!ucd')).toHaveLength(1);
    t.clock.advance(61_000);
    expect(await say('!ucd', me)).toHaveLength(1);
  });

  it('lets in only the badges it asks for', async () => {
    await create({ name: 'modonly', response: 'hello mod', permission: 'moderator' });
    await create({ name: 'vips', response: 'hello vip', permission: 'vip' });
    await create({ name: 'subs', response: 'hello sub', permission: 'subscriber' });
    expect(await say('!modonly')).toEqual([]);
    expect(await say('!modonly', { badges: ['vip'] })).toEqual([]);
    expect(await say('!modonly', { badges: ['moderator'] })).toHaveLength(1);
    expect(await say('!modonly', { badges: ['broadcaster'] })).toHaveLength(1);
    expect(await say('!vips', { badges: ['og'] })).toHaveLength(1);
    expect(await say('!vips', { isSubscriber: true })).toEqual([]);
    expect(await say('!subs', { isSubscriber: true })).toHaveLength(1);
    expect(await say('!subs')).toEqual([]);
  });

  it('answers a live-only command only while the stream is live', async () => {
    await create({ name: 'liveonly', response: 'we are live', liveOnly: true });
    await stream(false);
    expect(await say('!liveonly')).toEqual([]);
    await stream(true);
    expect(await say('!liveonly')).toHaveLength(1);
  });

  it('takes its cost through the ledger, and refuses with the reason when short (no cooldown spent)', async () => {
    await create({ name: 'paid', response: '{user} now has {balance}', cost: 25, globalCooldownSeconds: 60 });
    const rich = await linkedChatter(t, String(++kick), { points: '100' });
    const poor = await linkedChatter(t, String(++kick), { points: '10' });
    const as = (c: { kickId: string; kickName: string }) => ({ kickUserId: c.kickId, kickUsername: c.kickName });
    expect(await say('!paid', as(poor))).toEqual([`@${poor.kickName} !paid costs 25.00 points and you have 10.00.`]);
    expect(await say('!paid', { kickUserId: '424242', kickUsername: 'nolink' })).toEqual([
      expect.stringMatching(/link your Kick account/),
    ]);
    expect(await say('!paid', as(rich))).toEqual([`@${rich.kickName} ${rich.kickName} now has 75.00`]);
    const [row] = await t.database.db.select({ p: users.points }).from(users).where(eq(users.id, rich.user.id));
    expect(row!.p).toBe('75.00');
    const [ledger] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM ledger WHERE reason = 'chat_command'`),
    );
    expect(ledger!.n).toBe(1);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('does nothing for a disabled command', async () => {
    await create({ name: 'off', response: 'no', enabled: false });
    expect(await say('!off')).toEqual([]);
  });

  it('answers !points, and an alias of a built-in runs the built-in', async () => {
    const fan = await linkedChatter(t, String(++kick), { points: '12' });
    const as = { kickUserId: fan.kickId, kickUsername: fan.kickName };
    expect(await say('!points', as)).toEqual([`@${fan.kickName} you have 12.00 points.`]);
    const res = await t.call({
      method: 'PUT',
      url: '/api/admin/commands/builtins/points',
      as: moderator,
      body: { aliases: ['!wallet'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await say('!wallet', as)).toEqual([`@${fan.kickName} you have 12.00 points.`]);
    // An alias of another feature's command: !slot is handed to the slot calls as "!sr …".
    await t.call({ method: 'PUT', url: '/api/admin/commands/builtins/sr', as: admin, body: { aliases: ['slot'] } });
    const [answer] = await say('!slot Gates of Olympus');
    expect(answer).toMatch(/slot calls are closed|call taken/);
  });
});

describe('timers', () => {
  it('post every N minutes and only after M chat lines, in turns, live-only by default', async () => {
    const mk = async (body: Record<string, unknown>) => {
      const res = await t.call({
        method: 'POST',
        url: '/api/admin/commands/timers',
        as: moderator,
        body: { liveOnly: true, enabled: true, ...body },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>();
    };
    const bad = await t.call({
      method: 'POST',
      url: '/api/admin/commands/timers',
      as: moderator,
      body: { name: 'x', message: '{what}', intervalMinutes: 5, minLines: 0, liveOnly: true, enabled: true },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/\{what\}/);

    await stream(true);
    t.clock.advance(1000);
    await mk({ name: 'Discord', message: 'Join the Discord!', intervalMinutes: 10, minLines: 3 });
    await mk({ name: 'Store', message: 'Spend points at {link:store}', intervalMinutes: 10, minLines: 3 });
    const round = async () => (await timerRound(t.app, 500)).posted?.name ?? null;
    t.clock.advance(1000);
    expect(await round()).toBeNull(); // no chat lines yet
    await say('one');
    await say('two');
    expect(await round()).toBeNull();
    await say('three');
    expect(await round()).toBe('Discord');
    expect(await round()).toBeNull(); // one post per round (the round's gap)
    t.clock.advance(1000);
    expect(await round()).toBe('Store'); // its own three lines counted since it was created
    t.clock.advance(1000);
    expect(await round()).toBeNull(); // both posted: 10 minutes and 3 lines again
    t.clock.advance(10 * 60_000);
    expect(await round()).toBeNull(); // the interval passed, but no new lines
    for (const line of ['a', 'b', 'c']) await say(line);
    expect(await round()).toBe('Discord');
    t.clock.advance(1000);
    expect(await round()).toBe('Store');

    await stream(false);
    t.clock.advance(10 * 60_000);
    for (const line of ['d', 'e', 'f']) await say(line);
    expect(await round()).toBeNull(); // offline: live-only timers wait
    await stream(true);
    expect(await round()).toBe('Discord');
  });

  it('a round that waited counts the chat lines that came meanwhile toward its post, once', async () => {
    await t.database.db.execute(sql`DELETE FROM chat_timers`);
    const res = await t.call({
      method: 'POST',
      url: '/api/admin/commands/timers',
      as: moderator,
      body: { name: 'Lines', message: 'Say hi!', intervalMinutes: 0, minLines: 2, liveOnly: false, enabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(1000);
    // The round begins, then waits (a slow database, another process's round) while two lines come:
    // here it waits on the live state.
    const { isLive } = t.app.chat;
    t.app.chat.isLive = async () => {
      t.app.chat.isLive = isLive;
      t.clock.advance(1000);
      await say('came while the round waited');
      await say('so did this one');
      return isLive.call(t.app.chat);
    };
    expect((await timerRound(t.app, 500)).posted?.name).toBe('Lines');
    t.clock.advance(1000);
    expect((await timerRound(t.app, 500)).posted).toBeNull(); // no line since that post
    await say('one');
    await say('two');
    expect((await timerRound(t.app, 500)).posted?.name).toBe('Lines');
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { chatMessages } from '../../db/schema/chat';
import { simulatedKickUserId } from '../../integrations/kick/simulator';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { simulateChat } from '../chat/simulate';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function codeFor(user: TestUser): Promise<string> {
  const res = await t.call({ url: '/api/User/link/kick', as: user });
  expect(res.statusCode).toBe(200);
  return res.json().key as string;
}

/** A chat message from a Kick user, through the simulator, the signed webhook and the pipeline. */
async function say(kickName: string, content: string) {
  const { status, entry } = await simulateChat(t.app, { username: kickName, subscriber: false, content });
  expect(status).toBe(200);
  if (!entry) throw new Error('no chat log entry');
  return entry;
}

const ping = async (user: TestUser) => (await t.call({ url: '/api/User/ping', as: user })).json();

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('GET /api/User/link/kick', () => {
  it('hands out a 6-character code valid for 5 minutes', async () => {
    const user = await t.signIn();
    const res = await t.call({ url: '/api/User/link/kick', as: user });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.key).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(body.expiresAt).toBe(new Date(t.clock.now().getTime() + 5 * 60 * 1000).toISOString());
  });

  it('needs a signed-in user, and refuses (409) when a Kick account is already linked', async () => {
    expect((await t.call({ url: '/api/User/link/kick' })).statusCode).toBe(401);
    const user = await t.signIn();
    await say('linked_one', `!verify ${await codeFor(user)}`);
    const again = await t.call({ url: '/api/User/link/kick', as: user });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already linked/);
  });
});

describe('!verify in chat', () => {
  it('links the sender’s Kick id and name to the code’s owner and answers in chat', async () => {
    const user = await t.signIn({ name: 'SiteViewer' });
    const code = await codeFor(user);
    const entry = await say('VexFan', `!verify ${code.toLowerCase()}`);
    expect(entry.handledBy).toBe('verify');
    expect(entry.replies).toEqual(['@VexFan your Kick account is now linked to SiteViewer on Kickback.']);
    expect(entry.linkedUser).toBeNull(); // not linked when the message arrived
    expect(await ping(user)).toMatchObject({ kickId: simulatedKickUserId('VexFan'), kickUsername: 'VexFan' });

    // From now on the pipeline knows who the sender is on the site.
    expect((await say('VexFan', 'gg')).linkedUser).toEqual({ id: user.user.id, username: 'SiteViewer' });
  });

  it('a code expires after 5 minutes (injected clock)', async () => {
    const early = await t.signIn();
    const late = await t.signIn();
    const earlyCode = await codeFor(early);
    const lateCode = await codeFor(late);
    t.clock.advance(5 * 60 * 1000 - 1000);
    expect((await say('quick_one', `!verify ${earlyCode}`)).replies[0]).toMatch(/now linked/);
    t.clock.advance(2000);
    const entry = await say('slow_one', `!verify ${lateCode}`);
    expect(entry.replies).toEqual([
      '@slow_one that code is not valid or has expired. Get a new one from your profile on Kickback.',
    ]);
    expect(await ping(late)).toMatchObject({ kickId: null, kickUsername: null });
    expect(await ping(early)).toMatchObject({ kickUsername: 'quick_one' });
  });

  it('a second site user cannot take a Kick account that is already linked', async () => {
    const first = await t.signIn();
    const second = await t.signIn();
    await say('shared_kick', `!verify ${await codeFor(first)}`);
    const secondCode = await codeFor(second);
    const entry = await say('shared_kick', `!verify ${secondCode}`);
    expect(entry.replies).toEqual(['@shared_kick this Kick account is already linked to another Kickback account.']);
    expect(await ping(second)).toMatchObject({ kickId: null });
    expect(await ping(first)).toMatchObject({ kickUsername: 'shared_kick' });
    // The second user's code was not spent: their own Kick account can still use it.
    expect((await say('second_kick', `!verify ${secondCode}`)).replies[0]).toMatch(/now linked/);
    expect(await ping(second)).toMatchObject({ kickUsername: 'second_kick' });
  });

  it('a wrong code links nothing', async () => {
    const user = await t.signIn();
    const code = await codeFor(user);
    const wrong = code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    for (const attempt of [`!verify ${wrong}`, '!verify ABC', `!verify ${code}X`]) {
      expect((await say('guesser', attempt)).replies[0]).toMatch(/not valid or has expired/);
    }
    expect(await ping(user)).toMatchObject({ kickId: null });
  });

  it('asking again gives the live code; near its end a new code replaces it; a code works once', async () => {
    const user = await t.signIn();
    const first = await codeFor(user);
    t.clock.advance(3 * 60 * 1000);
    const [again, alsoAgain] = await Promise.all([codeFor(user), codeFor(user)]);
    expect([again, alsoAgain]).toEqual([first, first]);
    t.clock.advance(60 * 1000 + 1000); // under a minute left: replaced
    const second = await codeFor(user);
    expect(second).not.toBe(first);
    expect((await say('someone', `!verify ${first}`)).replies[0]).toMatch(/not valid/);
    expect((await say('someone', `!verify ${second}`)).replies[0]).toMatch(/now linked/);
    expect((await t.call({ url: '/api/User/unlink?type=kick', as: user })).statusCode).toBe(200);
    expect((await say('someone_else', `!verify ${second}`)).replies[0]).toMatch(/not valid/);
    expect(await ping(user)).toMatchObject({ kickId: null });
  });

  it('one Kick account racing two codes links exactly one site user', async () => {
    const a = await t.signIn();
    const b = await t.signIn();
    const [codeA, codeB] = [await codeFor(a), await codeFor(b)];
    await Promise.all([say('racer', `!verify ${codeA}`), say('racer', `!verify ${codeB}`)]);
    const linked = [await ping(a), await ping(b)].filter((u) => u.kickId !== null);
    expect(linked).toHaveLength(1);
  });

  it('answers a bare !verify with how to use it, and leaves other messages alone', async () => {
    expect((await say('curious', '!verify')).replies[0]).toMatch(/type !verify followed by the code/);
    const other = await say('curious', '!verifyme please');
    expect(other.handledBy).toBeNull();
    expect(other.replies).toEqual([]);
  });

  it('follows a Kick rename: the link stays with the Kick id', async () => {
    const user = await t.signIn();
    await say('old_name', `!verify ${await codeFor(user)}`);
    await simulateChat(t.app, { username: 'old_name', subscriber: false, content: 'hi' });
    // Same Kick account (id), new name: deliver with the old id under the new name.
    await t.app.chat.process(
      {
        messageId: 'rename-1',
        kickUserId: simulatedKickUserId('old_name'),
        kickUsername: 'new_name',
        color: null,
        isSubscriber: false,
        badges: [],
        content: 'renamed',
        sentAt: t.clock.now(),
      },
      'kick-webhook',
    );
    expect(await ping(user)).toMatchObject({ kickUsername: 'new_name' });
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.messageId, 'rename-1'));
    expect(row?.linkedUserId).toBe(user.user.id);
  });
});

describe('GET /api/User/unlink', () => {
  it('unlinks Kick with the contract toast text; unlinking again or an unknown type is refused', async () => {
    const user = await t.signIn();
    await say('to_unlink', `!verify ${await codeFor(user)}`);
    const res = await t.call({ url: '/api/User/unlink?type=Kick', as: user });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Connection successfully unlinked.' });
    expect(await ping(user)).toMatchObject({ kickId: null, kickUsername: null });
    const again = await t.call({ url: '/api/User/unlink?type=kick', as: user });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'No Kick account is linked.' });
    expect((await t.call({ url: '/api/User/unlink?type=discord', as: user })).statusCode).toBe(409);
    const bad = await t.call({ url: '/api/User/unlink?type=twitch', as: user });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/type/);
    expect((await t.call({ url: '/api/User/unlink?type=kick' })).statusCode).toBe(401);
    // After unlinking, the Kick account is free for anyone.
    const other = await t.signIn();
    expect((await say('to_unlink', `!verify ${await codeFor(other)}`)).replies[0]).toMatch(/now linked/);
  });
});

/**
 * "Connect Kick bot" end to end against the Kick simulator: OAuth 2.1 with PKCE, the tokens sealed
 * at rest, replies posted as the bot, a refresh before expiry and after a 401 (saving the new
 * refresh token), one refresh at a time across processes, and the refusals.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { kickBotTokens } from '../../db/schema/kick-bot';
import { KickBotTokens } from '../../integrations/kick/bot-token';
import { KICK_BOT_TOKENS_READ } from './kick-bot-plugin';
import { KICK_TOKEN_TTL_S } from '../../integrations/kick/bot-simulator';
import { buildTestApp, LogCapture, type TestApp } from '../../../test/app';
import { connectKickBot } from '../../../test/kick';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import type { FastifyInstance } from 'fastify';
import type { ChatHandler } from '../chat/service';
import type { ChatMessage } from '../../integrations/kick/chat-message';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const replier: ChatHandler = {
  name: 'replier',
  order: 0,
  async handle(m, { app }) {
    await app.chat.reply(m, 'pong');
    return true;
  },
};

/** Runs a message through the app's pipeline with the replier registered first (order 0), then posts the queue. */
const withReplier = new WeakSet<FastifyInstance>();
async function processChatMessage(app: FastifyInstance, m: ChatMessage) {
  if (!withReplier.has(app)) {
    app.chat.register(replier);
    withReplier.add(app);
  }
  const result = await app.chat.process(m, 'kick-webhook');
  await app.chatOut.pump();
  return result;
}

let counter = 0;
function message(app: TestApp): ChatMessage {
  counter += 1;
  return {
    messageId: `msg-${counter}-${Date.now()}`,
    kickUserId: '555',
    kickUsername: 'chatter',
    color: null,
    isSubscriber: false,
    badges: [],
    content: '!ping',
    sentAt: app.clock.now(),
  };
}

async function started() {
  const app = await buildTestApp();
  t = app;
  const sim = app.app.kickSimulator;
  if (!sim || !app.app.kickBot) throw new Error('expected the Kick simulator');
  return { app, sim, bot: app.app.kickBot };
}

describe('Connect Kick bot', () => {
  it('runs OAuth 2.1 with PKCE against the simulator and stores the tokens sealed', async () => {
    const { app, sim } = await started();
    const admin = await app.signIn({ role: 'Admin', name: 'Boss' });
    const start = await app.call({
      method: 'POST',
      url: '/api/admin/integrations/kick-bot/connect',
      as: admin,
      body: {},
    });
    const url = new URL(start.json<{ url: string }>().url);
    expect(url.pathname).toBe('/dev/kick/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'kickback-dev',
      redirect_uri: `${app.config.publicUrl}/auth/kick/bot/callback`,
      scope:
        'user:read chat:write events:subscribe kicks:read moderation:ban channel:rewards:read channel:rewards:write',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.any(String),
    });
    const consent = await app.app.inject({ url: `${url.pathname}${url.search}` });
    expect(consent.body).toContain('Kick posts into the channel of the token');

    expect(await connectKickBot(app, admin)).toBe('/admin/integrations?kickBot=connected');
    const [row] = await app.database.db.select().from(kickBotTokens);
    expect(row).toMatchObject({
      kickUsername: 'vex',
      scope:
        'user:read chat:write events:subscribe kicks:read moderation:ban channel:rewards:read channel:rewards:write',
      refreshCount: 0,
    });
    const [plainAccess] = [...sim.accessTokens.keys()];
    const [plainRefresh] = [...sim.refreshTokens.keys()];
    expect(row?.accessToken).toMatch(/^v1\./);
    expect(row?.accessToken).not.toContain(plainAccess);
    expect(row?.refreshToken).not.toContain(plainRefresh);
    expect(row?.expiresAt.getTime()).toBe(app.clock.now().getTime() + KICK_TOKEN_TTL_S * 1000);

    // The state is single use: replaying the callback is refused.
    const again = await app.call({
      url: `/auth/kick/bot/callback?state=${url.searchParams.get('state')}&code=x`,
      as: admin,
    });
    expect(again.headers.location).toMatch(/kickBot=error/);
  });

  it('posts replies as the bot; after an expiry it refreshes on the 401, saves the new refresh token, and posts', async () => {
    const { app, sim } = await started();
    const admin = await app.signIn({ role: 'Admin' });
    await connectKickBot(app, admin);
    const first = message(app);
    await processChatMessage(app.app, first);
    expect(sim.chat).toMatchObject([
      { type: 'bot', content: '@chatter pong', senderUsername: 'vex', replyToMessageId: first.messageId },
    ]);

    const [before] = await app.database.db.select().from(kickBotTokens);
    const oldRefresh = [...sim.refreshTokens.keys()];
    sim.expireAll(); // Kick ends the token early: the next post gets 401
    await processChatMessage(app.app, message(app));
    expect(sim.unauthorized).toBe(1);
    expect(sim.refreshes).toBe(1);
    expect(sim.chat).toHaveLength(2);
    const [after] = await app.database.db.select().from(kickBotTokens);
    expect(after?.refreshCount).toBe(1);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    for (const old of oldRefresh) expect(sim.refreshTokens.has(old)).toBe(false); // rotated: only the saved one works
    expect(app.app.integrationStatus.get('kick.bot')).toMatchObject({ down: false, detail: 'reply posted' });
  });

  it('refreshes shortly before expiry without waiting for a 401', async () => {
    const { app, sim } = await started();
    await connectKickBot(app, await app.signIn({ role: 'Admin' }));
    app.clock.advance((KICK_TOKEN_TTL_S - 120) * 1000);
    await processChatMessage(app.app, message(app));
    expect(sim.refreshes).toBe(1);
    expect(sim.unauthorized).toBe(0);
    expect(sim.chat).toHaveLength(1);
  });

  it('refreshes once when several processes find the token expired at the same moment', async () => {
    const { app, sim, bot } = await started();
    await connectKickBot(app, await app.signIn({ role: 'Admin' }));
    const config = app.config.kick.bot;
    if (config.mode === 'off') throw new Error('expected the simulator');
    const stale = await bot.tokens.accessToken();
    sim.expireAll();
    // Three "processes": separate token stores over the same database.
    const stores = [0, 1, 2].map(() => new KickBotTokens(app.database.db, config, app.app.http, app.clock));
    const tokens = await Promise.all(stores.map((s) => s.refresh(stale ?? '')));
    expect(new Set(tokens).size).toBe(1);
    expect(sim.refreshes).toBe(1);
  });

  it('uses the token from memory while valid, reads it again on a change announced by any process, and refreshes a refused one once', async () => {
    const { app, sim, bot } = await started();
    const admin = await app.signIn({ role: 'Admin' });
    await connectKickBot(app, admin);
    const first = await bot.tokens.accessToken();
    expect(first).not.toBeNull();
    // Gone from the row behind the store's back (as another process would, unannounced): the held
    // token is used, with no read of the row...
    await app.database.db.delete(kickBotTokens).where(eq(kickBotTokens.id, 1));
    expect(await bot.tokens.accessToken()).toBe(first);
    // ...until a change is announced (another process's connect, disconnect or refresh: through
    // Redis when there is one); then the row is read again.
    app.app.reads.invalidate(KICK_BOT_TOKENS_READ);
    expect(await bot.tokens.accessToken()).toBeNull();
    // A connect here forgets the held "not connected" at once.
    await connectKickBot(app, admin);
    const held = await bot.tokens.accessToken();
    expect(held).not.toBeNull();
    expect(held).not.toBe(first);
    // Another process refreshes without this one hearing of it, and Kick refuses the held token:
    // the post's 401 refreshes once — taking the token the other process saved, without asking Kick.
    const config = app.config.kick.bot;
    if (config.mode === 'off') throw new Error('expected the simulator');
    sim.expireAll();
    await new KickBotTokens(app.database.db, config, app.app.http, app.clock).refresh(held ?? '');
    expect(sim.refreshes).toBe(1);
    await processChatMessage(app.app, message(app));
    expect(sim.unauthorized).toBe(1);
    expect(sim.refreshes).toBe(1);
    expect(sim.chat).toHaveLength(1);
    // A held token close to its expiry is refreshed before use, as one read from the row.
    const fresh = await bot.tokens.accessToken();
    app.clock.advance((KICK_TOKEN_TTL_S - 120) * 1000);
    expect(await bot.tokens.accessToken()).not.toBe(fresh);
    expect(sim.refreshes).toBe(2);
  });

  it('is admin-only, refuses a bad callback without change, and says what is missing', async () => {
    const { app } = await started();
    const user = await app.signIn({ name: 'Viewer' });
    const admin = await app.signIn({ role: 'Admin' });
    expect(
      (await app.call({ method: 'POST', url: '/api/admin/integrations/kick-bot/connect', body: {} })).statusCode,
    ).toBe(401);
    expect(
      (await app.call({ method: 'POST', url: '/api/admin/integrations/kick-bot/connect', as: user, body: {} }))
        .statusCode,
    ).toBe(403);
    expect((await app.call({ url: '/auth/kick/bot/callback?state=x&code=y', as: user })).statusCode).toBe(403);
    const bogus = await app.call({ url: '/auth/kick/bot/callback?state=nope&code=y', as: admin });
    expect(bogus.statusCode).toBe(303);
    expect(bogus.headers.location).toBe(
      `/admin/integrations?kickBot=error&message=${encodeURIComponent('This sign-in with Kick expired or was not started here. Try again.').replace(/%20/g, '+')}`,
    );
    const denied = await app.call({ url: '/auth/kick/bot/callback?state=nope&error=access_denied', as: admin });
    expect(denied.headers.location).toContain('Access+was+denied+on+Kick');
    expect(await app.database.db.select().from(kickBotTokens)).toEqual([]);
    expect((await app.call({ method: 'DELETE', url: '/api/admin/integrations/kick-bot', as: admin })).statusCode).toBe(
      404,
    );

    await connectKickBot(app, admin);
    expect(await app.app.kickBot!.tokens.accessToken()).not.toBeNull();
    const off = await app.call({ method: 'DELETE', url: '/api/admin/integrations/kick-bot', as: admin });
    expect(off.json()).toEqual({ message: 'Kick bot disconnected.' });
    expect(await app.app.kickBot!.tokens.accessToken()).toBeNull(); // not the token held before
    expect(await app.database.db.select().from(kickBotTokens).where(eq(kickBotTokens.id, 1))).toEqual([]);
  });

  it('logs a reply when no bot is connected, and a Kick failure never breaks the handler', async () => {
    const logs = new LogCapture();
    const app = await buildTestApp({ logs });
    t = app;
    await processChatMessage(app.app, message(app));
    expect(logs.find('chat message not posted')).toMatchObject({ content: '@chatter pong', reason: 'not-connected' });
    await connectKickBot(app, await app.signIn({ role: 'Admin' }));
    const sim = app.app.kickSimulator!;
    sim.accessTokens.clear();
    sim.refreshTokens.clear(); // revoked on Kick: the 401's refresh fails too
    const result = await processChatMessage(app.app, message(app));
    expect(result).toMatchObject({ handledBy: 'replier', errors: [] });
    expect(logs.lines.find((l) => l.msg === 'chat message not posted' && l.reason === 'token-failed')).toBeTruthy();
    const [row] = await app.database.db.select().from(kickBotTokens);
    expect(row?.lastError).toMatch(/^refresh failed: Kick token endpoint answered 400 \(invalid_grant\)/);
    expect(app.app.integrationStatus.get('kick.bot').down).toBe(true);
  });
});

describe('Kick bot configuration', () => {
  const prod = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://site.example' };
  const app = { KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret', KICK_BROADCASTER_USER_ID: '42' };

  it('uses Kick with a Kick app, the simulator outside production, and needs KICK_TOKEN_KEY in production', () => {
    expect(loadConfig({ ...prod, ...app }).kick.bot).toMatchObject({
      mode: 'kick',
      oauthUrl: 'https://id.kick.com',
      apiUrl: 'https://api.kick.com',
      redirectUri: 'https://site.example/auth/kick/bot/callback',
      tokenKey: null,
    });
    expect(loadConfig({ ...prod, ...app, KICK_TOKEN_KEY: 'k'.repeat(32) }).kick.bot).toMatchObject({
      tokenKeySource: 'KICK_TOKEN_KEY',
    });
    expect(loadConfig({ ...prod }).kick.bot).toEqual({ mode: 'off' });
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).kick.bot).toMatchObject({
      mode: 'simulator',
      oauthUrl: 'http://localhost:3000/dev/kick',
      tokenKeySource: 'derived from SESSION_SECRET (development only)',
    });
    expect(() => loadConfig({ KICK_TOKEN_KEY: 'short' })).toThrow(/KICK_TOKEN_KEY: must be at least 32 characters/);
    expect(() => loadConfig({ KICK_BOT_TOKEN: 'old' })).toThrow(/KICK_BOT_TOKEN is no longer used/);
    expect(() => loadConfig({ ...prod, KICK_BOT_SIMULATOR: '1' })).toThrow(/KICK_BOT_SIMULATOR/);
  });

  it('refuses to connect in production without KICK_TOKEN_KEY, saying what to set', async () => {
    const built = await buildTestApp({ env: { ...app } });
    t = built;
    const admin = await built.signIn({ role: 'Admin' });
    const bot = built.config.kick.bot;
    expect(bot.mode).toBe('kick');
    if (bot.mode === 'off') return;
    const store = new KickBotTokens(built.database.db, { ...bot, tokenKey: null }, built.app.http, built.clock);
    await expect(store.connectUrl(admin.user.id)).rejects.toMatchObject({
      publicMessage: 'Set KICK_TOKEN_KEY (32+ characters) before connecting the Kick bot.',
    });
  });
});

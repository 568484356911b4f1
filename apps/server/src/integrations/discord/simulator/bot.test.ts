/** The simulator's bot endpoints speak Discord's protocol: token check, DM channels, 50007, limits, the inbox. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const recipient = '123456789012345678';

function post(url: string, body: unknown, token: string | null) {
  return t.app.inject({
    method: 'POST',
    url: `/dev/discord/api/v10${url}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bot ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
}

describe('Discord simulator: bot DMs', () => {
  it('checks the bot token, opens one DM channel per user and posts to it', async () => {
    t = await buildTestApp();
    const bot = t.config.discord.bot;
    if (bot.mode === 'off') throw new Error('expected the simulator');
    expect((await post('/users/@me/channels', { recipient_id: recipient }, null)).statusCode).toBe(401);
    expect((await post('/users/@me/channels', { recipient_id: recipient }, 'wrong')).json()).toMatchObject({ code: 0 });
    const bad = await post('/users/@me/channels', { recipient_id: 'abc' }, bot.token);
    expect(bad.json()).toMatchObject({ code: 50035 });

    const channel = (await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json();
    expect(channel).toMatchObject({ type: 1, recipients: [{ id: recipient }] });
    expect((await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json().id).toBe(channel.id);

    const sent = await post(`/channels/${channel.id}/messages`, { content: 'hi <b>there</b>' }, bot.token);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ channel_id: channel.id, content: 'hi <b>there</b>' });
    expect((await post(`/channels/${channel.id}/messages`, { content: ' ' }, bot.token)).json().code).toBe(50006);
    expect((await post(`/channels/${channel.id}/messages`, { content: 'x'.repeat(2001) }, bot.token)).statusCode).toBe(
      400,
    );
    expect((await post('/channels/999/messages', { content: 'x' }, bot.token)).json().code).toBe(10003);

    t.app.discordSimulator?.bot.setDmsClosed(recipient, true);
    const refused = await post(`/channels/${channel.id}/messages`, { content: 'again' }, bot.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Cannot send messages to this user', code: 50007 });

    const listed = (await t.app.inject({ url: '/dev/discord/bot/messages' })).json();
    expect(listed.messages).toMatchObject([{ recipientId: recipient, content: 'hi <b>there</b>' }]);
    expect(listed.dmsClosed).toContain(recipient);

    const page = await t.app.inject({ url: '/dev/discord/inbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('hi &lt;b&gt;there&lt;/b&gt;');
  });

  it('holds message posts after the next n until released (browser tests look at a broadcast mid-way)', async () => {
    t = await buildTestApp();
    const bot = t.config.discord.bot;
    if (bot.mode === 'off') throw new Error('expected the simulator');
    const control = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/dev/discord/bot/hold',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    expect((await control({ after: -1 })).statusCode).toBe(400);
    const channel = (await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json();
    expect((await control({ after: 1 })).json()).toEqual({ held: true });
    expect((await post(`/channels/${channel.id}/messages`, { content: 'first' }, bot.token)).statusCode).toBe(200);
    let settled = false;
    const second = post(`/channels/${channel.id}/messages`, { content: 'second' }, bot.token).then((res) => {
      settled = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    expect(t.app.discordSimulator?.bot.messages(recipient).map((m) => m.content)).toEqual(['first']);
    expect((await control({ release: true })).json()).toEqual({ held: false });
    expect((await second).statusCode).toBe(200);
    expect(t.app.discordSimulator?.bot.messages(recipient).map((m) => m.content)).toEqual(['first', 'second']);
  });

  it('answers 429 with Retry-After when told to, and opens DMs again from a form', async () => {
    t = await buildTestApp();
    const bot = t.config.discord.bot;
    if (bot.mode === 'off') throw new Error('expected the simulator');
    const channel = (await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json();
    await t.app.inject({
      method: 'POST',
      url: '/dev/discord/bot/rate-limit',
      headers: { 'content-type': 'application/json' },
      payload: '{"every":1}',
    });
    const limited = await post(`/channels/${channel.id}/messages`, { content: 'x' }, bot.token);
    expect(limited.statusCode).toBe(429);
    // Discord's Retry-After header is whole seconds (captured: `Retry-After: 65` for retry_after 64.57).
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['x-ratelimit-scope']).toBe('user');
    expect(limited.json()).toMatchObject({ retry_after: expect.any(Number), global: false });

    const form = (closed: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dev/discord/bot/dms',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: `discordId=${recipient}&closed=${closed}`,
      });
    const closed = await form('1');
    expect(closed.statusCode).toBe(303);
    expect(closed.headers.location).toBe('/dev/discord/inbox');
    expect(t.app.discordSimulator?.bot.dmsClosed(recipient)).toBe(true);
    await form('0');
    expect(t.app.discordSimulator?.bot.dmsClosed(recipient)).toBe(false);
  });
});

describe('Discord simulator: what Discord reports on every post, and users outside its servers', () => {
  it('sends X-RateLimit-* headers on a successful post too, counting the channel bucket down', async () => {
    t = await buildTestApp();
    const bot = t.config.discord.bot;
    if (bot.mode === 'off') throw new Error('expected the simulator');
    const channel = (await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json();
    const first = await post(`/channels/${channel.id}/messages`, { content: 'one' }, bot.token);
    const second = await post(`/channels/${channel.id}/messages`, { content: 'two' }, bot.token);
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' });
    expect(second.headers['x-ratelimit-remaining']).toBe('3');
    expect(first.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]+$/);
    expect(Number(first.headers['x-ratelimit-reset-after'])).toBeGreaterThan(0);
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(t.clock.now().getTime() / 1000);
  });

  it('refuses the very first DM to a user who shares no server with the bot with 50007 (the captured body)', async () => {
    t = await buildTestApp();
    const bot = t.config.discord.bot;
    if (bot.mode === 'off') throw new Error('expected the simulator');
    const joined = await t.app.inject({
      method: 'POST',
      url: '/dev/discord/bot/server',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ discordId: recipient, member: false }),
    });
    expect(joined.json()).toEqual({ discordId: recipient, sharesServer: false });
    const channel = (await post('/users/@me/channels', { recipient_id: recipient }, bot.token)).json();
    const refused = await post(`/channels/${channel.id}/messages`, { content: 'welcome' }, bot.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Cannot send messages to this user', code: 50007 });
    expect(t.app.discordSimulator?.bot.messages()).toEqual([]);
    const listed = (await t.app.inject({ url: '/dev/discord/bot/messages' })).json();
    expect(listed.noSharedServer).toEqual([recipient]);
    expect((await t.app.inject({ url: '/dev/discord/inbox' })).body).toContain("Users in none of the bot's servers");
    const bad = await t.app.inject({
      method: 'POST',
      url: '/dev/discord/bot/server',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ discordId: 'x', member: false }),
    });
    expect(bad.statusCode).toBe(400);
  });
});

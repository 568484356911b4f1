/**
 * Admin → Settings → Integrations: saved sealed, shown as "set · last 4", audited without values,
 * env wins, validated per field, and used by the adapters at once — on this process and another.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IntegrationSettingsView } from '@kickback/common/http/integration-settings';
import type { IntegrationsOverview } from '@kickback/common/http/integrations';
import { auditLog, settings } from '../../db/schema/audit';
import { users } from '../../db/schema/users';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/app';
import { linkedUser } from '../../../test/discord';
import { createDiscordDmSender } from '../../integrations/discord/bot';
import { connectKickBot } from '../../../test/kick';
import { redisForTest, testRedisUrl } from '../../../test/redis';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { goLiveChecklist } from '../integrations/go-live';
import { INTEGRATIONS_ROW } from './store';
import { sendTestMessage } from './test-actions';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const URL = '/api/admin/settings/integrations';
const KICK_SECRET = 'kick-secret-value-9f3a';
const CLASH_KEY = 'clash-key-from-the-site-77Qz';
const field = (view: IntegrationSettingsView, name: string) => view.fields.find((f) => f.name === name);

describe('Admin → Settings → Integrations', () => {
  it('saves keys sealed, answers only "set · last 4", audits which fields changed, and clears', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const empty = (await t.call({ url: URL, as: admin })).json<IntegrationSettingsView>();
    expect(field(empty, 'CLASH_API_KEY')).toMatchObject({ source: 'none', shown: null, secret: true });
    expect(empty.secretKey.source).toBe('database'); // in-memory PGlite: the settings row

    const res = await t.call({
      method: 'PUT',
      url: URL,
      as: admin,
      body: {
        KICK_CLIENT_ID: '01ABCDEF',
        KICK_CLIENT_SECRET: KICK_SECRET,
        KICK_BROADCASTER_USER_ID: '123456',
        CLASH_API_KEY: CLASH_KEY,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(KICK_SECRET);
    expect(res.body).not.toContain(CLASH_KEY);
    const view = res.json<IntegrationSettingsView & { message: string }>();
    expect(field(view, 'KICK_CLIENT_SECRET')).toMatchObject({ source: 'site', shown: 'set · …9f3a' });
    expect(field(view, 'CLASH_API_KEY')).toMatchObject({ source: 'site', shown: 'set · …77Qz' });
    expect(field(view, 'KICK_CLIENT_ID')).toMatchObject({ source: 'site', shown: '01ABCDEF' });
    expect((await t.call({ url: URL, as: admin })).body).not.toContain(KICK_SECRET);

    // At rest: sealed, the secret nowhere in the row.
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, INTEGRATIONS_ROW));
    expect(JSON.stringify(row?.value)).not.toContain(KICK_SECRET);
    expect(JSON.stringify(row?.value)).not.toContain(CLASH_KEY);
    expect(JSON.stringify(row?.value)).toMatch(/v1\./);

    // The adapters read it: the Kick app and the Clash fetcher now use the site's keys.
    expect(t.app.credentials.kick().app).toEqual({ clientId: '01ABCDEF', clientSecret: KICK_SECRET });
    expect(t.app.credentials.partners()[1]).toMatchObject({ mode: 'partner', key: CLASH_KEY });
    expect(t.app.leaderboards.providerMode(1)).toBe('partner');
    // Admin → Go live counts keys set on the site as set.
    const list = await goLiveChecklist(t.app);
    const kickApp = list.sections.flatMap((s) => s.items).find((i) => i.id === 'kick.app');
    expect(kickApp).toMatchObject({ state: 'ready' });

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.integrations'));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after).toEqual({
      changed: ['KICK_CLIENT_ID', 'KICK_CLIENT_SECRET', 'KICK_BROADCASTER_USER_ID', 'CLASH_API_KEY'],
      cleared: [],
    });
    expect(JSON.stringify(audit[0])).not.toContain(KICK_SECRET);

    // Cleared with null: the simulator again (outside production), audited as cleared.
    const cleared = await t.call({ method: 'PUT', url: URL, as: admin, body: { CLASH_API_KEY: null } });
    expect(cleared.statusCode).toBe(200);
    expect(field(cleared.json(), 'CLASH_API_KEY')).toMatchObject({ source: 'none', shown: null });
    expect(t.app.leaderboards.providerMode(1)).toBe('simulator');
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.integrations'));
    expect(audits.map((a) => a.after)).toContainEqual({ changed: ['CLASH_API_KEY'], cleared: ['CLASH_API_KEY'] });
  });

  it('is for admins, and a bad value is a 400 naming the field that changes nothing', async () => {
    t = await buildTestApp();
    expect((await t.call({ url: URL })).statusCode).toBe(401);
    const user = await t.signIn();
    expect((await t.call({ url: URL, as: user })).statusCode).toBe(403);
    expect((await t.call({ method: 'PUT', url: URL, as: user, body: { CLASH_API_KEY: 'x' } })).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/api/admin/go-live/test-message', as: user })).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/api/admin/go-live/test-dm' })).statusCode).toBe(401);
    const admin = await t.signIn({ role: 'Admin' });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ KICK_BROADCASTER_USER_ID: 'vex' }, 'KICK_BROADCASTER_USER_ID'],
      [{ DISCORD_CLIENT_ID: 'abc' }, 'DISCORD_CLIENT_ID'],
      [{ HOWL_API_KEY: 'two words' }, 'HOWL_API_KEY'],
      [{ CASES_API_KEY: 'x'.repeat(501) }, 'CASES_API_KEY'],
      [{ CLASH_API_KEY: 42 }, 'CLASH_API_KEY'],
      // A combination the server would not start with: a client id without its secret (the
      // secret is the field to fill).
      [{ KICK_CLIENT_ID: 'abc123' }, 'KICK_CLIENT_SECRET'],
      [{ KICK_CLIENT_SECRET: 'abcdefabcdef' }, 'KICK_CLIENT_ID'],
      [{ KICK_CLIENT_ID: 'abc123', KICK_CLIENT_SECRET: 'abcdefabcdef' }, 'KICK_BROADCASTER_USER_ID'],
      [{ ROOBET_API_KEY: 'abcdefabcdef' }, 'ROOBET_AFFILIATE_ID'],
    ];
    for (const [body, name] of bad) {
      const res = await t.call({ method: 'PUT', url: URL, as: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields?.map((f: { path: string }) => f.path)).toContain(name);
    }
    // Said in the page's words (its field labels), never in variable names.
    const half = await t.call({ method: 'PUT', url: URL, as: admin, body: { KICK_CLIENT_ID: 'abc123' } });
    expect(half.json()).toMatchObject({
      message: 'Enter the Kick app client secret too: the Kick app needs its client id and its client secret.',
      fields: [{ path: 'KICK_CLIENT_SECRET' }],
    });
    const noChannel = await t.call({
      method: 'PUT',
      url: URL,
      as: admin,
      body: { KICK_CLIENT_ID: 'abc123', KICK_CLIENT_SECRET: 'abcdefabcdef' },
    });
    expect(noChannel.json().message).toMatch(/^Streamer's Kick user id is required with a Kick app/);
    const unknown = await t.call({ method: 'PUT', url: URL, as: admin, body: { SESSION_SECRET: 'x' } });
    expect(unknown.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, INTEGRATIONS_ROW));
    expect(JSON.stringify(row?.value ?? { sealed: {} })).toBe('{"sealed":{}}');
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.integrations'))).toEqual([]);
  });

  it('two admins saving different fields at the same moment both keep their change (row lock)', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const names = ['CLASH_API_KEY', 'HOWL_API_KEY', 'CASES_API_KEY', 'RUSTMAGIC_API_KEY', 'CLASH_ROYALE_API_KEY'];
    const answers = await Promise.all(
      names.map((name, i) => t.call({ method: 'PUT', url: URL, as: admin, body: { [name]: `key-${i}-abcdefgh` } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(names.map(() => 200));
    await t.app.credentials.reload();
    expect(Object.keys(t.app.credentials.saved()).sort()).toEqual([...names].sort());
  });

  it('an environment variable wins over the saved value, and the page says so', async () => {
    t = await buildTestApp({ env: { CLASH_API_KEY: 'env-clash-key-AAAA' } });
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({ method: 'PUT', url: URL, as: admin, body: { CLASH_API_KEY: CLASH_KEY } });
    expect(res.statusCode).toBe(200);
    expect(field(res.json(), 'CLASH_API_KEY')).toMatchObject({ source: 'env', shown: 'set · …AAAA' });
    expect(t.app.credentials.partners()[1]).toMatchObject({ mode: 'partner', key: 'env-clash-key-AAAA' });
  });

  it('a Discord bot token saved on the site is used at once: the test DM goes out with it', async () => {
    // The real Discord adapter pointed at the local simulator, which checks the token like Discord.
    t = await buildTestApp({ env: { DISCORD_API_URL: `${TEST_PUBLIC_URL}/dev/discord/api` } });
    const admin = await linkedUser(t, 'Boss');
    await t.database.db.update(users).set({ role: 'Admin' }).where(eq(users.id, admin.user.id));
    const dm = () => t.call({ method: 'POST', url: '/api/admin/go-live/test-dm', as: admin });
    const botRow = async () =>
      ((await t.call({ url: '/api/admin/integrations', as: admin })).json() as IntegrationsOverview).rows.find(
        (r) => r.id === 'discord.bot',
      );
    expect((await botRow())?.health).toBe('waiting'); // "Not used yet"
    // The simulator's own token (derived at start): delivered, and the Integrations page says the bot works.
    expect((await dm()).json()).toMatchObject({ result: 'sent' });
    expect(t.app.discordSimulator?.bot.messages(admin.discordId)).toHaveLength(1);
    expect(await botRow()).toMatchObject({ health: 'ok', lastSuccessAt: expect.any(String) });
    // A token set on the site replaces it without a restart: the simulator refuses this one (401).
    const put = await t.call({
      method: 'PUT',
      url: URL,
      as: admin,
      body: { DISCORD_BOT_TOKEN: 'not.the.right-token' },
    });
    expect(put.statusCode).toBe(200);
    expect((await dm()).json()).toMatchObject({ result: 'failed', message: expect.stringContaining('401') });
    await t.call({ method: 'PUT', url: URL, as: admin, body: { DISCORD_BOT_TOKEN: '' } });
    expect((await dm()).json()).toMatchObject({ result: 'sent' });
  });

  it('the test DM says what is missing: no linked Discord', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({ method: 'POST', url: '/api/admin/go-live/test-dm', as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: 'not-linked',
      message: 'Your account has no linked Discord: link it in your Profile (your name at the top right → Profile), then try again.',
    });
  });

  it('the test DM says Discord was not reached when the request never got an answer', async () => {
    t = await buildTestApp();
    const admin = await linkedUser(t, 'Boss');
    await t.database.db.update(users).set({ role: 'Admin' }).where(eq(users.id, admin.user.id));
    // The real sender over an HTTP client whose requests fail on the way, as with no network.
    const unreachable = createDiscordDmSender(
      { mode: 'discord', token: 'x.y.z', api: 'https://discord.invalid/api', version: '10' },
      async () => {
        throw new TypeError('fetch failed');
      },
    );
    vi.spyOn(t.app.discordBroadcasts, 'sender').mockReturnValue(unreachable);
    const res = await t.call({ method: 'POST', url: '/api/admin/go-live/test-dm', as: admin });
    expect(res.json()).toEqual({
      result: 'failed',
      message: 'Discord could not be reached from the server (fetch failed): check its internet access, then try again.',
    });
  });

  it('the test message posts through the bot: not connected, then posted in the Kick chat', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const send = () => t.call({ method: 'POST', url: '/api/admin/go-live/test-message', as: admin });
    expect((await send()).json()).toMatchObject({ result: 'not-connected' });
    await connectKickBot(t, admin);
    expect((await send()).json()).toMatchObject({ result: 'posted', message: 'Posted to the Kick chat.' });
    expect(t.app.kickSimulator?.chat.map((c) => c.content)).toEqual([
      expect.stringContaining('test message: the chat bot can post here'),
    ]);
  });

  it('with no Kick app in production the test message says what to set', async () => {
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        STEAM_API_KEY: 'k',
        PUBLIC_URL: 'https://kb.example',
      },
    });
    expect(await sendTestMessage(t.app)).toMatchObject({
      result: 'not-connected',
      message: expect.stringContaining('Settings → Integrations'),
    });
  });
});

const noRedis = await redisForTest('integration settings sync test');

describe.skipIf(noRedis !== null)('with Redis, another process uses a change at once', () => {
  it('saved on one process, the other process’s adapters use the new key without a restart', async () => {
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: `kbtest:creds:${randomBytes(4).toString('hex')}:` };
    t = await buildTestApp({ env });
    const other = await buildTestApp({ env, database: t.database as TestApp['database'] & { drop(): Promise<void> } });
    try {
      expect(other.app.leaderboards.providerMode(4)).toBe('simulator');
      const admin = await t.signIn({ role: 'Admin' });
      const res = await t.call({ method: 'PUT', url: URL, as: admin, body: { HOWL_API_KEY: 'howl-key-1234567' } });
      expect(res.statusCode).toBe(200);
      await expect
        .poll(() => other.app.credentials.partners()[4], { timeout: 20_000 })
        .toMatchObject({
          mode: 'partner',
          key: 'howl-key-1234567',
        });
      expect(other.app.leaderboards.providerMode(4)).toBe('partner');
    } finally {
      await other.close();
    }
  });
});

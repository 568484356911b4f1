import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GoLiveChecklist } from '@kickback/common/http/integrations';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { seedDemoData } from '../demo/seed';
import { goLiveChecklist } from './go-live';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

const itemOf = (list: GoLiveChecklist, id: string) => list.sections.flatMap((s) => s.items).find((i) => i.id === id);

describe('Admin → Go live', () => {
  it('what it says of an unset SESSION_SECRET is true: a session outlives a restart with a new random secret', async () => {
    t = await buildTestApp();
    expect(t.config.sessionSecretSet).toBe(false);
    const user = await t.signIn();
    // A restart: a new process on the same database, with a random secret of its own.
    const restarted = await buildTestApp({ database: t.database as TestApp['database'] & { drop(): Promise<void> } });
    try {
      expect(restarted.config.sessionSecret).not.toBe(t.config.sessionSecret);
      const ping = await restarted.call({ url: '/api/User/ping', as: user });
      expect(ping.statusCode).toBe(200);
      expect(ping.json()).toMatchObject({ username: user.user.username });
    } finally {
      await restarted.close();
    }
  });

  it('on a development site: not ready, says what to set, and gives the webhook URL to paste into the Kick app', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({ url: '/api/admin/go-live', as: admin });
    expect(res.statusCode).toBe(200);
    const list = res.json() as GoLiveChecklist;
    expect(list.ready).toBe(false);
    expect(list.sections.map((s) => s.title)).toEqual([
      'Sign-in and security',
      'Kick',
      'Discord',
      'Partner sites',
      'Keys and data',
    ]);
    expect(itemOf(list, 'steam')).toMatchObject({ state: 'todo', detail: expect.stringContaining('STEAM_API_KEY') });
    expect(itemOf(list, 'sessionSecret')).toMatchObject({
      state: 'todo',
      detail: expect.stringContaining('nobody is signed out by a restart'),
    });
    expect(itemOf(list, 'https')).toMatchObject({
      state: 'todo',
      detail: expect.stringContaining('http://kickback.test'),
    });
    expect(itemOf(list, 'kick.app')).toMatchObject({
      state: 'todo',
      detail: expect.stringContaining('KICK_CLIENT_ID'),
    });
    expect(itemOf(list, 'kick.webhookUrl')).toMatchObject({
      state: 'todo',
      copy: 'http://kickback.test/webhooks/kick',
    });
    expect(itemOf(list, 'discord.oauth')).toMatchObject({
      state: 'optional',
      copy: 'http://kickback.test/auth/discord/callback',
    });
    expect(itemOf(list, 'partner.roobet')).toMatchObject({
      state: 'optional',
      detail: expect.stringContaining('ROOBET_API_KEY and ROOBET_AFFILIATE_ID'),
    });
    expect(itemOf(list, 'demoData')).toMatchObject({ state: 'ready' });
  });

  it('says when the demo data is on the database', async () => {
    t = await buildTestApp();
    await seedDemoData(t.app);
    expect(itemOf(await goLiveChecklist(t.app), 'demoData')).toMatchObject({
      state: 'todo',
      detail: expect.stringContaining('DEMO_DATA=0'),
    });
  });

  it('on a production site with Steam, HTTPS and its keys, those items are ready', async () => {
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 's'.repeat(40),
        PUBLIC_URL: 'https://vex.example.com',
        STEAM_API_KEY: 'steam-key',
        CODE_ENCRYPTION_KEY: 'c'.repeat(40),
        LEADERBOARD_POLLER: '0',
      },
    });
    const list = await goLiveChecklist(t.app);
    for (const id of ['steam', 'production', 'sessionSecret', 'https', 'codeKey', 'demoData']) {
      expect(itemOf(list, id), id).toMatchObject({ state: 'ready' });
    }
    expect(itemOf(list, 'kick.webhookUrl')).toMatchObject({ copy: 'https://vex.example.com/webhooks/kick' });
    // Kick is not connected yet: the site is not ready to go live.
    expect(itemOf(list, 'kick.app')).toMatchObject({ state: 'todo' });
    expect(list.ready).toBe(false);
  });

  it('in production without STEAM_API_KEY, Steam sign-in is not called ready: names and avatars are never read', async () => {
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 's'.repeat(40),
        PUBLIC_URL: 'https://vex.example.com',
        LEADERBOARD_POLLER: '0',
      },
    });
    expect(t.config.steam.signin).toBe('steam');
    expect(itemOf(await goLiveChecklist(t.app), 'steam')).toMatchObject({
      state: 'todo',
      detail: expect.stringContaining('STEAM_API_KEY'),
    });
  });
});

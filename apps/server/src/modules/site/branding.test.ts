import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, settings } from '../../db/schema/audit';
import { buildTestApp, type TestApp } from '../../../test/app';
import { redisForTest, testRedisUrl } from '../../../test/redis';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

const URL = '/api/admin/site/branding';
const site = async () => (await t.call({ url: '/api/site' })).json();

const branding = {
  siteName: '  Nightshift  ',
  streamerName: 'Nova',
  tagline: 'Slots and shows after dark.',
  accentColor: '#ff3366',
  logoUrl: 'https://cdn.example.com/nightshift.png',
  kickChannel: 'nova_live',
  contactEmail: 'team@nightshift.example',
  termsUrl: '/terms',
  privacyUrl: 'https://nightshift.example/privacy',
  socials: [{ label: 'Discord', url: 'https://discord.gg/nightshift', icon: 'discord' }],
  quickLinks: [
    { label: 'Store', url: '/store' },
    { label: 'Blog', url: 'https://blog.nightshift.example' },
  ],
  challengeCategory: 'Stake',
};

describe('Admin → Settings: the site branding', () => {
  it('an admin saves it; /api/site shows it at once (the cached read is dropped) and it is audited', async () => {
    t = await buildTestApp();
    const before = await site(); // cached now
    expect(before.siteName).toBe('Kickback');
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({ method: 'PUT', url: URL, as: admin, body: branding });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Settings successfully updated.');
    expect(res.json().site).toMatchObject({ siteName: 'Nightshift', kickChannelUrl: 'https://kick.com/nova_live' });
    const now = await site();
    expect(now).toMatchObject({
      ...branding,
      siteName: 'Nightshift',
      kickChannelUrl: 'https://kick.com/nova_live',
      // the rest of the configuration is the file's
      ageGate: before.ageGate,
      devSignIn: before.devSignIn,
    });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.branding'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorUserId: admin.user.id,
      targetType: 'settings',
      targetId: 'branding',
      before: { siteName: 'Kickback', kickChannel: 'vex' },
      after: { siteName: 'Nightshift', kickChannel: 'nova_live' },
    });
  });

  it('the public Challenges list follows the saved category at once', async () => {
    t = await buildTestApp();
    expect((await t.call({ url: '/api/Challenge/getuserchallenges' })).json().categories).toEqual(['Roobet']);
    const admin = await t.signIn({ role: 'Admin' });
    await t.call({ method: 'PUT', url: URL, as: admin, body: branding });
    expect((await t.call({ url: '/api/Challenge/getuserchallenges' })).json().categories).toEqual(['Stake']);
  });

  it('survives a restart (stored in settings, not in memory)', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    await t.call({ method: 'PUT', url: URL, as: admin, body: branding });
    t.app.reads.invalidate('site'); // as a fresh process would: nothing cached
    expect((await site()).siteName).toBe('Nightshift');
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, 'branding'));
    expect(row?.value).toMatchObject({ siteName: 'Nightshift' });
  });

  it('only admins: 401 without sign-in, 403 for a user or a moderator', async () => {
    t = await buildTestApp();
    expect((await t.call({ method: 'PUT', url: URL, body: branding })).statusCode).toBe(401);
    const user = await t.signIn();
    expect((await t.call({ method: 'PUT', url: URL, as: user, body: branding })).statusCode).toBe(403);
    const mod = await t.signIn({ role: 'Moderator' });
    expect((await t.call({ method: 'PUT', url: URL, as: mod, body: branding })).statusCode).toBe(403);
    expect((await site()).siteName).toBe('Kickback');
  });

  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['empty site name', { siteName: '   ' }, 'siteName', /site name/],
    ['long site name', { siteName: 'x'.repeat(61) }, 'siteName', /site name.*60/],
    ['missing streamer name', { streamerName: undefined }, 'streamerName', /streamer name/],
    ['long tagline', { tagline: 'x'.repeat(201) }, 'tagline', /tagline/],
    ['accent not a colour', { accentColor: 'red' }, 'accentColor', /accent colour/],
    [
      'accent under 4.5:1 with the button text',
      { accentColor: '#0d6efd' },
      'accentColor',
      /^The accent colour #0d6efd is too dark: .* 3\.67:1, and text needs 4\.5:1\. Pick a lighter colour\.$/,
    ],
    ['logo javascript:', { logoUrl: 'javascript:alert(1)' }, 'logoUrl', /logo URL/],
    ['logo over http', { logoUrl: 'http://cdn.example.com/a.png' }, 'logoUrl', /logo URL/],
    ['logo protocol-relative', { logoUrl: '//evil.example/a.png' }, 'logoUrl', /logo URL/],
    ['kick channel a URL', { kickChannel: 'https://kick.com/x' }, 'kickChannel', /Kick channel/],
    ['contact email', { contactEmail: 'not an email' }, 'contactEmail', /contact email/],
    ['terms javascript:', { termsUrl: 'javascript:alert(1)' }, 'termsUrl', /terms URL/],
    ['privacy data:', { privacyUrl: 'data:text/html,hi' }, 'privacyUrl', /privacy URL/],
    [
      'social javascript:',
      { socials: [{ label: 'X', url: 'javascript:alert(1)', icon: 'x' }] },
      'socials.0.url',
      /social link URL/,
    ],
    [
      'social unknown icon',
      { socials: [{ label: 'X', url: 'https://x.com/a', icon: 'myspace' }] },
      'socials.0.icon',
      /icon/,
    ],
    [
      'social empty label',
      { socials: [{ label: ' ', url: 'https://x.com/a', icon: 'x' }] },
      'socials.0.label',
      /social link label/,
    ],
    ['too many socials', { socials: Array.from({ length: 11 }, () => branding.socials[0]) }, 'socials', /socials/],
    [
      'quick link javascript:',
      { quickLinks: [{ label: 'A', url: 'JavaScript:alert(1)' }] },
      'quickLinks.0.url',
      /quick link URL/,
    ],
    [
      'quick link backslash',
      { quickLinks: [{ label: 'A', url: '/\\evil.example' }] },
      'quickLinks.0.url',
      /quick link URL/,
    ],
    ['quick links not a list', { quickLinks: 'Store' }, 'quickLinks', /Quick links/],
    ['empty category', { challengeCategory: '' }, 'challengeCategory', /challenge category/],
    ['site name a number', { siteName: 42 }, 'siteName', /site name/],
  ];
  it.each(bad)('bad input (%s) is a 400 naming the field and changes nothing', async (_, change, path, words) => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const res = await t.call({ method: 'PUT', url: URL, as: admin, body: { ...branding, ...change } });
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.message).toMatch(words);
    expect(json.fields).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(await site()).toMatchObject({ siteName: 'Kickback', kickChannel: 'vex', challengeCategory: 'Roobet' });
    expect(await t.database.db.select().from(settings).where(eq(settings.key, 'branding'))).toEqual([]);
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'site.branding'))).toEqual([]);
  });

  it('a body that is not an object is a 400, not a 500', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    for (const body of [[], 'x', null]) {
      const res = await t.call({ method: 'PUT', url: URL, as: admin, body });
      expect(res.statusCode).toBe(400);
    }
  });
});

const noRedis = await redisForTest('site branding sync test');

describe.skipIf(noRedis !== null)('with Redis, every process serves the change at once', () => {
  it('saved on one process, /api/site of another (which had it cached) shows it without a restart', async () => {
    const env = { REDIS_URL: testRedisUrl, REDIS_PREFIX: `kbtest:brand:${randomBytes(4).toString('hex')}:` };
    t = await buildTestApp({ env });
    // A second process on the same database and Redis.
    const other = await buildTestApp({ env, database: t.database as TestApp['database'] & { drop(): Promise<void> } });
    try {
      const otherSite = async () => (await other.call({ url: '/api/site' })).json().siteName;
      expect(await otherSite()).toBe('Kickback'); // cached there now
      const admin = await t.signIn({ role: 'Admin' });
      expect((await t.call({ method: 'PUT', url: URL, as: admin, body: branding })).statusCode).toBe(200);
      await expect.poll(otherSite, { timeout: 20_000 }).toBe('Nightshift');
    } finally {
      await other.close();
    }
  });
});

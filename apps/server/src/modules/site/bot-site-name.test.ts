/**
 * The bot's chat lines and test messages name the site by its name now (docs/go-live.md#branding-on-the-site):
 * after an admin renames it, and after a restart, never the file's "Kickback".
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { connectKickBot } from '../../../test/kick';
import { repliesTo, say } from '../../../test/predictions';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { sendTestMessage } from '../integration-settings/test-actions';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0).reverse()) await app.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const branding = {
  siteName: 'Nightshift',
  streamerName: 'Nova',
  tagline: '',
  accentColor: '#ff3366',
  logoUrl: '/brand/logo.svg',
  kickChannel: 'vex',
  contactEmail: 'team@nightshift.example',
  termsUrl: '/terms',
  privacyUrl: '/privacy',
  socials: [],
  quickLinks: [],
  challengeCategory: 'Roobet',
};

const stranger = { kickId: '6601', kickName: 'kick6601' };
const unlinked = 'link your Kick account on Nightshift first (type !verify with the code from your profile).';

async function botLines(t: TestApp): Promise<string[]> {
  const lines: string[] = [];
  for (const text of ['!bet 1 100', '!guess 100', '!enter', '!verify']) {
    const { res, messageId } = await say(t, stranger, text);
    expect(res.statusCode, text).toBe(200);
    lines.push(...(await repliesTo(t, messageId)));
  }
  return lines;
}

describe('the bot names the site by its name now', () => {
  it('after a rename on Admin → Settings, and after a restart on the same database', async () => {
    const t = await buildTestApp();
    apps.push(t);
    const admin = await t.signIn({ role: 'Admin' });
    expect((await t.call({ method: 'PUT', url: '/api/admin/site/branding', as: admin, body: branding })).statusCode).toBe(
      200,
    );
    const expected = [
      `@kick6601 ${unlinked}`,
      `@kick6601 ${unlinked}`,
      `@kick6601 ${unlinked}`,
      '@kick6601 type !verify followed by the code from your Nightshift profile.',
    ];
    expect(await botLines(t)).toEqual(expected);

    await connectKickBot(t, admin);
    const sim = t.app.kickSimulator!;
    const before = sim.chat.length;
    expect(await sendTestMessage(t.app)).toMatchObject({ result: 'posted' });
    expect(sim.chat.slice(before).map((c) => c.content)).toEqual(['Nightshift test message: the chat bot can post here.']);

    // A restart: a new process on the same database (its SITE_CONFIG still says Kickback).
    const restarted = await buildTestApp({ database: t.database as TestApp['database'] & { drop(): Promise<void> } });
    apps.push(restarted);
    expect(restarted.config.site.siteName).toBe('Kickback');
    const again = await botLines(restarted);
    expect(again).toHaveLength(4);
    for (const line of again) expect(line).toContain('Nightshift');
  });
});

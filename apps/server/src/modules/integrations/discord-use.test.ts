/**
 * Admin → Integrations reports Discord once it is used: the OAuth row after a link, the bot row
 * after a DM broadcast (the last message Discord took, the last refusal with its reason, and the
 * newest broadcast's counts).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationRow, IntegrationsOverview } from '@kickback/common/http/integrations';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../../test/app';
import { linkedUser, smallBroadcast } from '../../../test/discord';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

/** A browser navigation (no CSRF header), with a form when given. */
function navigate(url: URL, as: TestUser | null, form?: Record<string, string>) {
  return t.app.inject({
    method: form ? 'POST' : 'GET',
    url: url.pathname + url.search,
    headers: {
      ...(as ? { cookie: as.cookie } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
}

const locationOf = (res: { headers: Record<string, unknown> }) =>
  new URL(String(res.headers.location), TEST_PUBLIC_URL);

async function rows(admin: TestUser): Promise<Record<string, IntegrationRow>> {
  const res = await t.call({ url: '/api/admin/integrations', as: admin });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(res.json<IntegrationsOverview>().rows.map((r) => [r.id, r]));
}

describe('Integrations: Discord use', () => {
  it('reports the OAuth link and the DM broadcast (sent, refused with 50007)', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    const before = await rows(admin);
    expect(before['discord.oauth']).toMatchObject({ mode: 'simulated', health: 'waiting', lastSuccessAt: null });
    expect(before['discord.bot']).toMatchObject({ mode: 'simulated', health: 'waiting', lastSuccessAt: null });

    // A link through the simulator's consent page.
    const fan = await t.signIn({ name: 'Fan' });
    const start = await navigate(new URL('/auth/discord/signin?returnTo=/', TEST_PUBLIC_URL), fan);
    const callback = locationOf(
      await navigate(locationOf(start), null, { decision: 'authorize', username: 'LinkedFan' }),
    );
    const linked = await navigate(callback, fan);
    expect(locationOf(linked).searchParams.get('result')).toBe('linked');
    expect((await rows(admin))['discord.oauth']).toMatchObject({
      health: 'ok',
      lastSuccessAt: t.clock.now().toISOString(),
      detail: 'authorized linkedfan',
    });

    // A broadcast: one delivered, one refused because the user's DMs are closed.
    const ann = await linkedUser(t, 'Ann');
    const cat = await linkedUser(t, 'Cat');
    t.app.discordSimulator!.bot.setDmsClosed(cat.discordId, true);
    const result = await smallBroadcast(t, admin, {
      message: 'Stream in 10 minutes',
      userIds: [ann.user.id, cat.user.id],
    });
    expect(result).toMatchObject({ status: 'completed', sentCount: 1, failedCount: 1 });
    const bot = (await rows(admin))['discord.bot'];
    expect(bot).toMatchObject({
      // One person's closed DMs are not the bot failing: shown, but the bot works.
      health: 'ok',
      lastSuccessAt: expect.any(String),
      lastFailureAt: expect.any(String),
      lastFailure: expect.stringContaining('50007: Cannot send messages to this user'),
      detail: 'last broadcast (completed): 1 sent, 1 failed',
    });
  });
});

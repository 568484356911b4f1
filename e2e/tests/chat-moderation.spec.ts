/**
 * Chat moderation filters in the browser (docs/features/chat-moderation.md): an admin turns the
 * link filter on at Admin → Moderation and reconnects the Kick bot (now asked for the moderation
 * scopes); a viewer's link sent through the Chat Simulator is deleted at Kick (the Kick simulator's
 * record of deletions) and shows in the moderation log; the same link from a moderator is left
 * alone. The filter is turned off and the bot disconnected again at the end, for the journeys that
 * share the server.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { postInChat } from './chat-helpers';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './helpers';

const json = { 'x-requested-with': 'kickback' };

interface LogPage {
  items: Array<{ messageId: string; kickUsername: string; rule: string; action: string; outcome: string }>;
}
const moderationLog = async (page: Page) =>
  ((await (await page.request.get('/api/admin/moderation/log', { headers: json })).json()) as LogPage).items;
const kickDeletions = async (page: Page) =>
  ((await (await page.request.get('/dev/kick/moderation')).json()) as { deletions: Array<{ messageId: string }> })
    .deletions;

async function openModeration(page: Page) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: 'Moderation', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Moderation', level: 1 })).toBeVisible();
}

async function setLinkFilter(page: Page, on: boolean) {
  const links = page.getByRole('region', { name: 'Links' });
  await links.getByLabel('Filter on').setChecked(on);
  await page.getByRole('button', { name: 'Save filters' }).click();
  await expect(page.getByText('Moderation filters saved.').first()).toBeVisible();
}

test('a link from a viewer is deleted at Kick and logged; the same link from a moderator is not', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const admin = await context.newPage();
  await admin.goto('/');
  await signIn(admin, DEMO_ADMIN, { demo: true });

  await openModeration(admin);
  await expect(admin.getByRole('region', { name: 'Links' }).getByLabel('Filter on')).not.toBeChecked();
  await setLinkFilter(admin, true);

  // The bot is (re)connected while a filter is on: Kick's consent lists the moderation scopes.
  await admin.goto('/admin/integrations');
  const bot = admin.getByRole('region', { name: 'Kick bot' });
  await bot.getByRole('button', { name: /^(Re)?[Cc]onnect Kick bot$/ }).click();
  await expect(admin.getByText('moderation:chat_message:manage')).toBeVisible();
  await expect(admin.getByText('moderation:ban')).toBeVisible();
  await admin.getByLabel('Kick username').fill('vex');
  await admin.getByRole('button', { name: 'Allow access' }).click();
  await expect(admin).toHaveURL(/\/admin\/integrations\?kickBot=connected$/);

  const sim = await context.newPage();
  await sim.goto('/admin/chat-simulator');
  await expect(sim.getByRole('heading', { name: 'Chat Simulator' })).toBeVisible();
  const stamp = Date.now() % 1_000_000;
  const viewer = `linker${stamp}`;
  const mod = `modlink${stamp}`;
  await postInChat(sim, viewer, `cheap skins at scam-skins.gg/${stamp}`);
  await sim.getByLabel('Moderator badge').check();
  await postInChat(sim, mod, `the rules: scam-skins.gg/${stamp}`);
  await sim.getByLabel('Moderator badge').uncheck();

  // The viewer's message: logged and deleted at Kick.
  await expect
    .poll(async () => (await moderationLog(admin)).find((e) => e.kickUsername === viewer)?.outcome)
    .toBe('done');
  const entry = (await moderationLog(admin)).find((e) => e.kickUsername === viewer)!;
  expect(entry).toMatchObject({ rule: 'links', action: 'delete' });
  expect((await kickDeletions(admin)).map((d) => d.messageId)).toContain(entry.messageId);
  // The moderator's: neither logged nor deleted.
  expect((await moderationLog(admin)).some((e) => e.kickUsername === mod)).toBe(false);

  await openModeration(admin);
  const log = admin.getByRole('table', { name: 'Moderation log' });
  const row = log.getByRole('row').filter({ hasText: viewer });
  await expect(row).toContainText('Links');
  await expect(row).toContainText('Deleted');
  await expect(row).toContainText('204');
  await expect(log).not.toContainText(mod);
  await keepScreenshot(admin, { path: '/tmp/chat-moderation-log.png', fullPage: true });
  await expectAccessible(admin);

  await setLinkFilter(admin, false);
  // The Kick bot goes back to unconnected: the journeys sharing this server start from there.
  await admin.goto('/admin/integrations');
  await admin
    .getByRole('region', { name: 'Kick bot' })
    .getByRole('button', { name: 'Disconnect', exact: true })
    .click();
  await expect(admin.getByRole('region', { name: 'Kick bot' })).toContainText('Not connected');
  await context.close();
});

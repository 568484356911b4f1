/**
 * Admin → Integrations in the browser: the admin connects the Kick bot through Kick's (simulated)
 * OAuth consent page, a chat command gets a reply posted as the bot, the token expires on Kick,
 * the next reply refreshes it and goes out, and the page shows the refresh. Then a partner starts
 * answering with a bot-protection page and the page shows why its board is stale.
 * Screenshots: /tmp/integrations-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './helpers';

interface KickChat {
  messages: Array<{ content: string; senderUsername: string; type: string }>;
  unauthorized: number;
  refreshes: number;
}

async function kickChat(page: Page): Promise<KickChat> {
  return (await page.request.get('/dev/kick/chat/messages')).json() as Promise<KickChat>;
}

async function openPage(page: Page, label: string, heading: string) {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

async function postInChat(page: Page, kickName: string, text: string) {
  await page.getByLabel('Kick username', { exact: true }).fill(kickName);
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send to chat' }).click();
}

test('an admin connects the Kick bot; replies go out, survive a token expiry, and a failing partner says why', async ({
  page,
}) => {
  await page.goto('/');
  await signIn(page, DEMO_ADMIN, { demo: true });
  await openPage(page, 'Integrations', 'Integrations');
  const bot = page.getByRole('region', { name: 'Kick bot' });
  await expect(bot).toContainText('Not connected');
  await expect(bot).toContainText("Connect the streamer's Kick account");
  await keepScreenshot(page, { path: '/tmp/integrations-1-integrations.png', fullPage: true });

  // Kick's consent page (the simulator), then back.
  await bot.getByRole('button', { name: 'Connect Kick bot' }).click();
  // The Integrations page has Kick headings too: wait for the consent page itself.
  await expect(page).toHaveURL(/\/dev\/kick\/oauth\/authorize/);
  await expect(page.getByRole('heading', { name: /Kick/ })).toBeVisible();
  await expect(page.getByText('chat:write')).toBeVisible();
  await keepScreenshot(page, { path: '/tmp/integrations-2-kick-consent.png', fullPage: true });
  await page.getByRole('button', { name: 'Allow access' }).click();
  await expect(page).toHaveURL(/\/admin\/integrations\?kickBot=connected$/);
  await expect(page.getByText('Kick bot connected.')).toBeVisible();
  await expect(page.getByTestId('kick-bot-user')).toHaveText('vex');
  await expect(page.getByTestId('kick-bot-refreshes')).toContainText('0 times');
  await keepScreenshot(page, { path: '/tmp/integrations-3-bot-connected.png', fullPage: true });

  // A chat command: the reply is posted to Kick as the bot.
  await openPage(page, 'Chat Simulator', 'Chat Simulator');
  await postInChat(page, 'e2e_chatter', '!verify');
  await expect.poll(async () => (await kickChat(page)).messages.length).toBe(1);
  const first = await kickChat(page);
  expect(first.messages[0]).toMatchObject({
    type: 'bot',
    senderUsername: 'vex',
    content: expect.stringContaining('!verify'),
  });

  // Kick ends the token early; the next reply gets 401, refreshes, and goes out.
  expect((await page.request.post('/dev/kick/tokens/expire')).ok()).toBe(true);
  await postInChat(page, 'e2e_chatter', '!verify again');
  await expect.poll(async () => (await kickChat(page)).messages.length).toBe(2);
  expect(await kickChat(page)).toMatchObject({ unauthorized: 1, refreshes: 1 });

  await openPage(page, 'Integrations', 'Integrations');
  await expect(page.getByTestId('kick-bot-refreshes')).toContainText('once');
  await expect(page.locator('tr[data-integration="kick.bot"]')).toContainText('Working');

  // A partner puts up its bot protection: the next poll fails, the page says why.
  const on = await page.request.post('/dev/partners/cases/bot-protection', { data: { on: true } });
  expect(on.ok()).toBe(true);
  const refresh = await page.request.post('/api/admin/leaderboards/7/refresh', {
    data: {},
    headers: { 'x-requested-with': 'kickback' },
  });
  expect(refresh.status()).toBe(502);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const cases = page.locator('tr[data-integration="partner.cases"]');
  await expect(cases).toContainText('Failing');
  await expect(cases).toContainText('HTTP 403 — a bot-protection page');
  await expect(page.getByRole('alert').filter({ hasText: 'failing' })).toContainText('Cases.gg');
  await keepScreenshot(page, { path: '/tmp/integrations-4-partner-failing.png', fullPage: true });
  await expectAccessible(page);

  // Put the partner back as it was, and let a poll succeed, for the journeys that run after.
  expect((await page.request.post('/dev/partners/cases/bot-protection', { data: { on: false } })).ok()).toBe(true);
  const healed = await page.request.post('/api/admin/leaderboards/7/refresh', {
    data: {},
    headers: { 'x-requested-with': 'kickback' },
  });
  expect(healed.status()).toBe(200);
});
